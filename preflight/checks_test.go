package preflight

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// checkCase runs a few checks on a fixture host with an edited spec.
type checkCase struct {
	name, host, spec, node string
	edit                   func(*spec.Deployment)
	opts                   func(*Options)
	id                     string
	want                   Status
	mentions               []string
	// absent are texts the result's message and expectation must not hold.
	absent []string
}

func TestChecks(t *testing.T) {
	for _, c := range checkCases() {
		t.Run(c.name, func(t *testing.T) {
			node := c.node
			if node == "" {
				node = "node0"
			}
			rep := runFixtureOpts(t, c.host, c.spec, node, c.edit, c.opts, c.id)
			r := resultOf(t, rep, c.id)
			wantResult(t, r, c.want, c.mentions...)
			for _, a := range c.absent {
				if strings.Contains(r.Found+" "+r.Expected, a) {
					t.Errorf("%s: %q should not name %s", c.id, r.Found+" "+r.Expected, a)
				}
			}
		})
	}
}

func checkCases() []checkCase {
	var cs []checkCase
	for _, group := range [][]checkCase{gpuCases(), mnnvlCases(), netCases(), rdmaCases(), hostCases(), modelCases(), swCases(), nixlCases()} {
		cs = append(cs, group...)
	}
	return cs
}

// nodeBytes wires an estimator figure for this node's weights.
func nodeBytes(b float64) func(*Options) {
	return func(o *Options) {
		o.Expect.NodeWeightBytes = func(string) (float64, bool) { return b, true }
	}
}

func gpuCases() []checkCase {
	gpu := func(name string) func(*spec.Deployment) {
		return func(d *spec.Deployment) { d.Hardware.GPU = spec.GPURef{Name: name} }
	}
	custom := func(mib float64) func(*spec.Deployment) {
		return func(d *spec.Deployment) {
			d.Hardware.GPU = spec.GPURef{Custom: &spec.GPUFigures{Name: "NVIDIA H20", MemoryMiB: mib}}
		}
	}
	return []checkCase{
		{name: "no GPU tooling", host: "empty", spec: "h20-roce", id: "gpu.count", want: Fail, mentions: []string{"nvidia-smi is not on PATH", "8 GPUs"}},
		{name: "no GPU tooling driver", host: "empty", spec: "h20-roce", id: "gpu.driver", want: Fail, mentions: []string{"no NVIDIA GPU tooling"}},
		{name: "proc-only count", host: "proc-only", spec: "h20-roce", id: "gpu.count", want: Pass, mentions: []string{"8 GPUs"}},
		{name: "proc-only model", host: "proc-only", spec: "h20-roce", id: "gpu.model", want: Pass, mentions: []string{"NVIDIA H20"}},
		{name: "proc-only driver", host: "proc-only", spec: "h20-roce", id: "gpu.driver", want: Pass, mentions: []string{"550.54.15"}},
		{name: "proc-only memory", host: "proc-only", spec: "h20-roce", id: "gpu.memory", want: Fail, mentions: []string{"nvidia-smi is not installed"}},
		{name: "proc-only processes", host: "proc-only", spec: "h20-roce", id: "gpu.processes", want: Fail, mentions: []string{"install nvidia-smi"}},
		{name: "more GPUs than used", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Nodes[0].GPUs = 4 }, id: "gpu.count", want: Pass, mentions: []string{"bundle uses 4"}},
		{name: "wrong model", host: "h20-roce", spec: "h20-roce", edit: gpu("h200"), id: "gpu.model", want: Fail, mentions: []string{"NVIDIA H200"}},
		{name: "H20-3e is not H20", host: "h20-roce", spec: "h20-roce", edit: gpu("h20-141g"), id: "gpu.model", want: Fail, mentions: []string{"NVIDIA H20-3e"}},
		{name: "less memory than spec", host: "h20-roce", spec: "h20-roce", edit: gpu("h200"), id: "gpu.memory", want: Fail, mentions: []string{"143771"}},
		{name: "more memory than spec", host: "h20-roce", spec: "h20-roce", edit: gpu("l40s"), id: "gpu.memory", want: Warn, mentions: []string{"46068"}},
		{name: "custom gpu fits", host: "h20-roce", spec: "h20-roce", edit: custom(97285), id: "gpu.memory", want: Pass},
		{name: "custom gpu too big", host: "h20-roce", spec: "h20-roce", edit: custom(100000), id: "gpu.memory", want: Fail, mentions: []string{"≥ 100000 MiB"}},
		{name: "AMD node without amd-smi or rocm-smi", host: "empty", spec: "h20-roce", edit: gpu("mi300x"), id: "gpu.count", want: Fail, mentions: []string{"neither amd-smi nor rocm-smi", "amd-smi list"}},
		{name: "other vendors are not checked", host: "empty", spec: "h20-roce", edit: func(d *spec.Deployment) {
			d.Hardware.GPU = spec.GPURef{Custom: &spec.GPUFigures{Name: "Gaudi 3", Vendor: "intel", MemoryMiB: 1}}
		}, id: "gpu.count", want: Skip, mentions: []string{"intel GPUs are not checked"}},
		{name: "custom gpu without name", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			d.Hardware.GPU = spec.GPURef{Custom: &spec.GPUFigures{MemoryMiB: 1}}
		}, id: "gpu.model", want: Skip},
	}
}

func netCases() []checkCase {
	node0 := func(f func(n *spec.Node)) func(*spec.Deployment) {
		return func(d *spec.Deployment) { f(&d.Hardware.Nodes[0]) }
	}
	// single keeps node0 and the layout it holds (DP 32 over 4 × 8 H20
	// becomes DP 8): ports.free reads the generated bundle's commands, and
	// the generator refuses DP 32 on 8 GPUs (GEN002).
	single := func(d *spec.Deployment) { d.Hardware.Nodes, d.Parallelism.Data = d.Hardware.Nodes[:1], 8 }
	return []checkCase{
		{name: "no interface declared", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Interface = "" }), id: "net.interface", want: Warn, mentions: []string{"GLOO_SOCKET_IFNAME"}},
		{name: "no interface single node", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { single(d); d.Hardware.Nodes[0].Interface = "" }, id: "net.interface", want: Skip},
		{name: "interface missing", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Interface = "eth9" }), id: "net.interface", want: Fail, mentions: []string{"no interface eth9", "lo, eth0, docker0"}},
		{name: "interface without carrier", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Interface = "docker0" }), id: "net.interface", want: Fail, mentions: []string{"no carrier"}},
		{name: "address on another interface", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Address = "172.17.0.1" }), id: "net.address", want: Fail, mentions: []string{"on docker0"}},
		{name: "address without interface", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Interface = "" }), id: "net.address", want: Pass, mentions: []string{"on eth0"}},
		{name: "address is a host name", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Address = "gpu-node-0" }), id: "net.address", want: Warn, mentions: []string{"not an IP literal"}},
		{name: "route found via address", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Interface = "" }), id: "net.route", want: Pass, mentions: []string{"3 peers via eth0"}},
		{name: "no route to a peer", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Nodes[3].Address = "10.9.9.9" }, id: "net.route", want: Fail, mentions: []string{"node3 (10.9.9.9): no route"}},
		{name: "peer host name", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Nodes[3].Address = "node3.lan" }, id: "net.route", want: Fail, mentions: []string{"not an IP literal"}},
		{name: "route single node", host: "h20-roce", spec: "h20-roce", edit: single, id: "net.route", want: Skip},
		{name: "route from secondary", host: "h20-roce", spec: "h20-roce", node: "node1", edit: func(d *spec.Deployment) { d.Hardware.Nodes[1].Address = "192.168.1.10" }, id: "net.route", want: Fail, mentions: []string{"node0 (192.168.1.10): no route"}},
		{name: "primary is localhost", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Address = "localhost" }), id: "net.primary_loopback", want: Fail},
		{name: "primary is unspecified", host: "h20-roce", spec: "h20-roce", edit: node0(func(n *spec.Node) { n.Address = "0.0.0.0" }), id: "net.primary_loopback", want: Fail},
		{name: "loopback single node", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { single(d); d.Hardware.Nodes[0].Address = "127.0.0.1" }, id: "net.primary_loopback", want: Pass},
		{name: "headless node binds nothing", host: "h20-roce", spec: "h20-roce", node: "node1", id: "ports.free", want: Skip, mentions: []string{"headless"}},
		{name: "rpc port in use", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.VLLM.RPCPort = 22 }, id: "ports.free", want: Fail, mentions: []string{"22 in use"}},
		{name: "single node needs no rpc port", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { single(d); d.VLLM.RPCPort = 22 }, id: "ports.free", want: Pass, mentions: []string{"free: 8000"}},
		{name: "a replica's first node serves the API", host: "h20-roce", spec: "h20-roce", node: "node2", edit: replicasOfTwo, id: "ports.free", want: Pass, mentions: []string{"free: 8000", "13345"}},
		{name: "replicas sharing a node: each one's API port", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.Parallelism.Tensor, d.Parallelism.Data, d.Parallelism.Expert, d.Parallelism.Replicas, d.VLLM.Port = 2, 1, false, 4, 20
		}, id: "ports.free", want: Fail, mentions: []string{"22 in use"}},
		{name: "replicas sharing a node: all free", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.Parallelism.Tensor, d.Parallelism.Data, d.Parallelism.Expert, d.Parallelism.Replicas = 2, 1, false, 4
		}, id: "ports.free", want: Pass, mentions: []string{"free: 8000, 8001, 8002, 8003"}},
		{name: "a replica's second node is headless", host: "h20-roce", spec: "h20-roce", node: "node3", edit: replicasOfTwo, id: "ports.free", want: Skip, mentions: []string{"headless"}},
		// A Ray bundle: node0.sh runs `ray start --head --port 6379` and
		// `vllm serve --port 8000` without --data-parallel-rpc-port (the
		// generator's raySteps); the workers only join. The ports are read
		// from those commands (bundlePorts), not derived from vllm.rpc_port.
		{name: "ray head binds the GCS port, not the rpc port", host: "h20-roce", spec: "h20-roce", edit: rayLayout, id: "ports.free", want: Pass, mentions: []string{"free: 6379, 8000", "Ray head's GCS"}, absent: []string{"13345"}},
		{name: "ray worker binds nothing", host: "h20-roce", spec: "h20-roce", node: "node2", edit: rayLayout, id: "ports.free", want: Skip, mentions: []string{"headless"}},
		// The P/D router's node binds its port too (router.sh), headless or not.
		{name: "router port in use", host: "h20-roce", spec: "h20-roce", opts: routerOn(22), id: "ports.free", want: Fail, mentions: []string{"22 in use", "22 (the P/D router (disaggregation.router.port))", "8000 (API server"}},
		{name: "router port free", host: "h20-roce", spec: "h20-roce", opts: routerOn(8001), id: "ports.free", want: Pass, mentions: []string{"free: 8001, 29000, 8000"}},
		{name: "router on a headless node", host: "h20-roce", spec: "h20-roce", node: "node1", opts: routerOn(22), id: "ports.free", want: Fail, mentions: []string{"22 in use"}},
		{name: "one-node replicas need no rpc port", host: "h20-roce", spec: "h20-roce", node: "node1", edit: func(d *spec.Deployment) {
			d.Parallelism.Data, d.Parallelism.Replicas, d.VLLM.RPCPort = 8, 4, 22
		}, id: "ports.free", want: Pass, mentions: []string{"free: 8000"}},
		{name: "replicas sharing a node on Kubernetes: this pod's ports only", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.Parallelism.Tensor, d.Parallelism.Data, d.Parallelism.Expert, d.Parallelism.Replicas, d.VLLM.Port = 2, 1, false, 4, 20
			d.Runtime.Kind = "kubernetes"            // 20 is free, 22 (replica 3's on bare metal) is another pod's
			d.Model.Path = "deepseek-ai/DeepSeek-V3" // a repo id: a local path needs a volume on Kubernetes (GEN013)
		}, id: "ports.free", want: Pass, mentions: []string{"free: 20"}},
		{name: "llm-d decode node: the sidecar's and the engine's ports", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.VLLM.Port = 8200
		}, opts: llmdDecode(8000), id: "ports.free", want: Pass, mentions: []string{"free: 8000, 8200", "routing sidecar"}},
		{name: "llm-d decode node: the sidecar's port in use", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.VLLM.Port = 8200
		}, opts: llmdDecode(22), id: "ports.free", want: Fail, mentions: []string{"22 in use", "routing sidecar (vllm.port)"}},
		{name: "llm-d decode node: the engine's port in use", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) {
			single(d)
			d.VLLM.Port = 22
		}, opts: llmdDecode(8000), id: "ports.free", want: Fail, mentions: []string{"22 in use", "disaggregation.router.decode_port"}},
	}
}

func rdmaCases() []checkCase {
	backend := func(b string) func(*spec.Deployment) { return func(d *spec.Deployment) { d.VLLM.All2AllBackend = b } }
	ethernet := func(d *spec.Deployment) {
		d.Hardware.Network.InterNode.Kind = "ethernet"
		d.VLLM.All2AllBackend = "allgather_reducescatter"
	}
	no := false
	cs := []checkCase{
		{name: "non-mlx5 NIC with DeepEP", host: "bnxt-roce", spec: "bnxt-roce", id: "rdma.nic_vendor", want: Fail,
			mentions: []string{"Broadcom", "IBGDA", "allgather_reducescatter", "deepep_high_throughput only if"}},
		{name: "non-mlx5 NIC assumed GPU-direct", host: "bnxt-roce", spec: "bnxt-roce", edit: backend("allgather_reducescatter"), id: "rdma.nic_vendor", want: Warn, mentions: []string{"gpu_direct_rdma: false"}},
		{name: "non-mlx5 NIC without DeepEP", host: "bnxt-roce", spec: "bnxt-roce", edit: func(d *spec.Deployment) {
			d.VLLM.All2AllBackend = "allgather_reducescatter"
			d.Hardware.Network.InterNode.GPUDirectRDMA = &no
		}, id: "rdma.nic_vendor", want: Pass, mentions: []string{"fine for NCCL"}},
		{name: "non-mlx5 NIC ports fine", host: "bnxt-roce", spec: "bnxt-roce", id: "rdma.port_state", want: Pass},
		// `auto` is the resolved deployment's backend, as the bundle starts it:
		// DeepEP low-latency across RoCE nodes with GPUDirect RDMA assumed,
		// allgather_reducescatter without.
		{name: "auto backend resolved to DeepEP", host: "bnxt-roce", spec: "bnxt-roce", edit: backend("auto"), id: "rdma.nic_vendor", want: Fail, mentions: []string{"DeepEP low-latency"}},
		{name: "auto backend without GPUDirect", host: "bnxt-roce", spec: "bnxt-roce", edit: func(d *spec.Deployment) {
			off := false
			d.VLLM.All2AllBackend, d.Hardware.Network.InterNode.GPUDirectRDMA = "auto", &off
		}, id: "rdma.nic_vendor", want: Pass, mentions: []string{"fine for NCCL"}},
		{name: "no devices declared", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Nodes[0].RDMADevices = nil }, id: "rdma.devices", want: Warn, mentions: []string{"NCCL_IB_HCA"}},
		{name: "no RDMA devices at all", host: "empty", spec: "h20-roce", id: "rdma.devices", want: Fail, mentions: []string{"ibv_devices"}},
		{name: "link layer mismatch", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Network.InterNode.Kind = "infiniband" }, id: "rdma.port_state", want: Fail, mentions: []string{"link layer Ethernet"}},
		{name: "gid on infiniband", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Network.InterNode.Kind = "infiniband" }, id: "rdma.gid", want: Skip},
		{name: "gid index without entry", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { i := 7; d.Hardware.Network.InterNode.GIDIndex = &i }, id: "rdma.gid", want: Fail, mentions: []string{"no GID 7"}},
		{name: "gid index not set", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Hardware.Network.InterNode.GIDIndex = nil }, id: "rdma.gid", want: Pass, mentions: []string{"index 3 on 8 ports", "gid_index: 3"}},
		{name: "gid index not set, no IPv4 GID", host: "h20-broken", spec: "broken", edit: func(d *spec.Deployment) { d.Hardware.Network.InterNode.GIDIndex = nil }, id: "rdma.gid", want: Fail, mentions: []string{"no RoCE v2 GID"}},
		{name: "gid index v1", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { i := 2; d.Hardware.Network.InterNode.GIDIndex = &i }, id: "rdma.gid", want: Fail, mentions: []string{"IB/RoCE v1"}},
		{name: "driver options need DeepEP only", host: "h20-broken", spec: "broken", edit: backend("allgather_reducescatter"), id: "rdma.driver_options", want: Skip, mentions: []string{"only by DeepEP"}},
		{name: "driver options not configured", host: "proc-only", spec: "h20-roce", id: "rdma.driver_options", want: Fail, mentions: []string{"no modprobe.d file"}},
		{name: "gdrcopy needs DeepEP only", host: "h20-broken", spec: "broken", edit: backend("allgather_reducescatter"), id: "rdma.gdrcopy", want: Skip},
		{name: "memlock in a container", host: "h20-broken", spec: "broken", edit: func(d *spec.Deployment) { d.Runtime.Kind = "docker" }, id: "rdma.memlock", want: Skip, mentions: []string{"--ulimit memlock=-1"}},
		{name: "memlock unreadable", host: "proc-only", spec: "h20-roce", id: "rdma.memlock", want: Unchecked, mentions: []string{"/proc/self/limits"}},
	}
	for _, id := range []string{"rdma.devices", "rdma.port_state", "rdma.gid", "rdma.nic_vendor", "rdma.driver_options", "rdma.gdrcopy", "rdma.memlock"} {
		cs = append(cs, checkCase{name: "ethernet skips " + id, host: "empty", spec: "h20-roce", edit: ethernet, id: id, want: Skip})
	}
	return cs
}

func hostCases() []checkCase {
	return []checkCase{
		// Bare metal: no container's shm_size applies; NCCL's own floor does (1 GiB, its troubleshooting guide).
		{name: "shm on bare metal ignores the containers' size", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Runtime.Docker.ShmSize = "2t" }, id: "host.shm", want: Pass, mentions: []string{"≥ 1.0 GiB free", "NCCL"}},
		{name: "shm on bare metal below NCCL's floor", host: "h20-broken", spec: "broken", id: "host.shm", want: Fail, mentions: []string{"64 MiB free", "≥ 1.0 GiB free", "remount,size=1g"}},
		{name: "shm in a container", host: "h20-broken", spec: "broken", edit: func(d *spec.Deployment) { d.Runtime.Kind = "docker" }, id: "host.shm", want: Skip, mentions: []string{"64g"}},
		{name: "shm missing", host: "proc-only", spec: "h20-roce", id: "host.shm", want: Fail, mentions: []string{"cannot stat /dev/shm"}},
		// 8 GPU workers need ≈41 GiB (8 × (3 GiB + the 1.7 GiB embedding) + 3): the 22.9 GiB host is short.
		{name: "memory short", host: "empty", spec: "h20-roce", id: "host.memory", want: Warn, mentions: []string{"OOM-killed", "8 GPU workers", "need not fit"}},
		// The audit's case: far less RAM than the node's weights, and vLLM runs (mmap, tensor by tensor).
		{name: "weights beyond RAM pass", host: "h20-broken", spec: "broken", opts: nodeBytes(600 << 30), id: "host.memory", want: Pass, mentions: []string{"600.0 GiB of weights (estimate) stream through the page cache"}},
		{name: "estimate hook declines", host: "h20-roce", spec: "h20-roce", opts: func(o *Options) {
			o.Expect.NodeWeightBytes = func(string) (float64, bool) { return 0, false }
		}, id: "host.memory", want: Pass, mentions: []string{"GPU share"}},
		{name: "memory plenty", host: "h20-roce", spec: "h20-roce", id: "host.memory", want: Pass},
		{name: "meminfo unreadable", host: "proc-only", spec: "h20-roce", id: "host.memory", want: Unchecked, mentions: []string{"cannot read /proc/meminfo"}},
		{name: "disk for a missing model", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Model.Path = "/models/Kimi-K2" }, id: "host.disk", want: Pass, mentions: []string{"at /models"}},
		{name: "disk for a repo download", host: "empty", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Model.Path = "" }, id: "host.disk", want: Fail, mentions: []string{"at /"}},
	}
}

func modelCases() []checkCase {
	path := func(p string) func(*spec.Deployment) { return func(d *spec.Deployment) { d.Model.Path = p } }
	return []checkCase{
		{name: "repo id not downloaded", host: "h20-roce", spec: "h20-roce", edit: path("deepseek-ai/DeepSeek-V3"), id: "model.path", want: Warn, mentions: []string{"huggingface-cli download deepseek-ai/DeepSeek-V3"}},
		{name: "no path means catalog repo", host: "h20-roce", spec: "h20-roce", edit: path(""), id: "model.path", want: Warn, mentions: []string{"deepseek-ai/DeepSeek-V3"}},
		{name: "repo id in HF cache", host: "empty", spec: "h20-roce", edit: path("deepseek-ai/DeepSeek-V3"), id: "model.path", want: Pass, mentions: []string{"in the Hugging Face cache"}},
		{name: "relative path", host: "h20-roce", spec: "h20-roce", edit: path("../models/DeepSeek-V3"), id: "model.path", want: Pass},
		{name: "dir without config", host: "h20-roce", spec: "h20-roce", edit: path("/proc"), id: "model.path", want: Fail, mentions: []string{"no config.json"}},
		{name: "config skipped without dir", host: "h20-roce", spec: "h20-roce", edit: path("/nowhere"), id: "model.config", want: Skip},
		{name: "bf16 planned, fp8 on disk", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Model.Weights = "bf16" }, id: "model.config", want: Fail, mentions: []string{"quantization fp8, spec's model has none"}},
		{name: "bf16 planned, size", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Model.Weights = "bf16" }, id: "model.size", want: Fail, mentions: []string{"× bf16"}},
		{name: "bigger than the estimate", host: "h20-roce", spec: "h20-roce", opts: func(o *Options) {
			o.Expect.CheckpointBytes = func() (float64, bool) { return 500 << 30, true }
		}, id: "model.size", want: Warn, mentions: []string{"from estimate"}},
		{name: "same architecture, other catalog id", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Model.Name = "deepseek-r1" }, id: "model.size", want: Pass},
	}
}

func swCases() []checkCase {
	version := func(v string) func(*spec.Deployment) { return func(d *spec.Deployment) { d.VLLM.Version = v } }
	return []checkCase{
		{name: "patch differs", host: "h20-roce", spec: "h20-roce", edit: version("0.11.2"), id: "sw.vllm_version", want: Warn},
		{name: "local version suffix", host: "h20-roce", spec: "h20-roce", edit: version("v0.11.0"), id: "sw.vllm_version", want: Pass},
		{name: "not installed", host: "proc-only", spec: "h20-roce", id: "sw.vllm_version", want: Fail, mentions: []string{"neither vllm nor python3"}},
		{name: "python fallback", host: "empty", spec: "h20-roce", id: "sw.vllm_version", want: Fail, mentions: []string{"No module named 'vllm'"}},
		{name: "no version in spec", host: "h20-roce", spec: "h20-roce", edit: version(""), id: "sw.vllm_version", want: Skip},
		{name: "image runtime", host: "h20-broken", spec: "broken", edit: func(d *spec.Deployment) { d.Runtime.Kind = "docker"; d.Runtime.Image = "vllm/vllm-openai:v0.11.0" }, id: "sw.vllm_version", want: Skip, mentions: []string{"vllm/vllm-openai:v0.11.0"}},
		{name: "no backend packages needed", host: "h20-broken", spec: "broken", edit: func(d *spec.Deployment) { d.VLLM.All2AllBackend = "allgather_reducescatter" }, id: "sw.backend_packages", want: Skip},
		// The router's node runs router.sh, which runs vllm-router on the host.
		{name: "router program", host: "h20-roce", spec: "h20-roce", opts: routerOn(8001), id: "sw.router", want: Pass, mentions: []string{"vllm-router 0.1.0"}},
		{name: "router program missing", host: "proc-only", spec: "h20-roce", opts: routerOn(8001), id: "sw.router", want: Fail, mentions: []string{"vllm-router is not on PATH", "github.com/vllm-project/router"}},
		{name: "no router here", host: "h20-roce", spec: "h20-roce", id: "sw.router", want: Skip},
		{name: "venv python", host: "h20-roce", spec: "h20-roce", edit: func(d *spec.Deployment) { d.Runtime.VLLMBinary = "/opt/venv/bin/vllm" }, id: "sw.backend_packages", want: Fail, mentions: []string{"deep_ep"}},
	}
}

// replicasOfTwo makes the 4-node spec two independent replicas of two
// nodes each (DP 16 with expert parallelism).
// rayLayout makes the h20-roce spec one TP8 x PP4 engine over the four
// nodes on vLLM 0.10.1.1, which has no --nnodes: the generator writes a Ray
// bundle (ray head on node0).
func rayLayout(d *spec.Deployment) {
	d.Parallelism.Tensor, d.Parallelism.Pipeline, d.Parallelism.Data, d.Parallelism.Expert = 8, 4, 1, false
	d.VLLM.Version, d.VLLM.All2AllBackend = "0.10.1.1", ""
}

func replicasOfTwo(d *spec.Deployment) { d.Parallelism.Data, d.Parallelism.Replicas = 16, 2 }

// TestMemoryShort: host.memory compares the processes' need with total and
// available memory, never with the weights, and only warns.
func TestMemoryShort(t *testing.T) {
	for _, tt := range []struct {
		total, avail, need float64
		want               string
	}{
		{64, 60, 41, ""},
		{64, 30, 41, "available"},
		{23, 19, 41, "total"},
		{41, 41, 41, ""},
		{0, 0, 41, "total"},
	} {
		if got := memoryShort(tt.total, tt.avail, tt.need); got != tt.want {
			t.Errorf("memoryShort(%g, %g, %g) = %q, want %q", tt.total, tt.avail, tt.need, got, tt.want)
		}
	}
}

// pdPool makes node0 a node of a P/D pool whose NIXL side channel listens
// on ports.
func pdPool(connector string, ports ...int) func(*Options) {
	return func(o *Options) {
		o.Role = &resolve.Role{Name: "decode", KVRole: "kv_consumer",
			KVTransferConfig: `{"kv_connector":"` + connector + `","kv_role":"kv_consumer"}`,
			SideChannels:     []resolve.SideChannel{{Node: spec.Node{Name: "node0"}, BasePort: ports[0], Ports: ports}}}
	}
}

// routerOn makes the node the P/D router's, listening on port.
func routerOn(port int) func(*Options) {
	return func(o *Options) { o.RouterPort = port }
}

// TestPortsFreePath: a finding about the router's port alone points at
// disaggregation.router.port; one about any other port at vllm.port.
func TestPortsFreePath(t *testing.T) {
	for _, c := range []struct {
		router int
		edit   func(*spec.Deployment)
		want   string
	}{
		{22, nil, "disaggregation.router.port"},
		{8001, func(d *spec.Deployment) { d.VLLM.RPCPort = 22 }, "vllm.port"},
		{22, func(d *spec.Deployment) { d.VLLM.RPCPort = 22 }, "vllm.port"},
	} {
		rep := runFixtureOpts(t, "h20-roce", "h20-roce", "node0", c.edit, routerOn(c.router), "ports.free")
		if r := resultOf(t, rep, "ports.free"); r.Status != Fail || r.Path != c.want {
			t.Errorf("router %d: %s at %q, want fail at %q", c.router, r.Status, r.Path, c.want)
		}
	}
}

// TestShmPath: on bare metal host.shm is about the host, not about a
// container's runtime.docker.shm_size (QA session 37: its SARIF location
// was the spec's `kind: bare`).
func TestShmPath(t *testing.T) {
	rep := runFixtureOpts(t, "h20-broken", "broken", "node0", nil, nil, "host.shm")
	if r := resultOf(t, rep, "host.shm"); r.Path != "hardware.nodes[0]" {
		t.Errorf("host.shm path %q, want hardware.nodes[0]", r.Path)
	}
}

// llmdDecode makes node0 a node of the decode pool behind llm-d's router,
// its routing sidecar on port (the engine on the spec's vllm.port, which
// is the pool's view's: disaggregation.router.decode_port).
func llmdDecode(port int) func(*Options) {
	return func(o *Options) {
		o.Role = &resolve.Role{Name: "decode", KVRole: "kv_consumer", SidecarPort: port}
	}
}

func nixlCases() []checkCase {
	return []checkCase{
		{name: "colocated: no side channel", host: "h20-roce", spec: "h20-roce", id: "ports.nixl_side_channel", want: Skip},
		{name: "side channel free", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlConnector", 5600, 5601), id: "ports.nixl_side_channel", want: Pass, mentions: []string{"5600, 5601"}},
		{name: "side channel port in use", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlConnector", 22, 23), id: "ports.nixl_side_channel", want: Fail, mentions: []string{"22 in use"}},
		{name: "colocated: no connector", host: "h20-roce", spec: "h20-roce", id: "sw.nixl", want: Skip},
		{name: "another connector", host: "h20-roce", spec: "h20-roce", opts: pdPool("LMCacheConnectorV1", 5600), id: "sw.nixl", want: Skip},
		{name: "nixl missing", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlConnector", 5600), id: "sw.nixl", want: Fail, mentions: []string{"nixl"}},
	}
}

// mnnvlCases: a tray of a GB200 NVL72 rack whose GPUs registered with the
// NVLink fabric and which has an IMEX channel passes; one GPU still
// registering or in another partition, or no channel, fails; a spec
// without an NVLink domain, or an engine on one tray, skips both.
func mnnvlCases() []checkCase {
	noDomain := func(d *spec.Deployment) { d.Hardware.Network.NVLinkDomain = nil }
	oneTray := func(d *spec.Deployment) {
		d.Hardware.Nodes = d.Hardware.Nodes[:1]
		d.Parallelism.Data = 4
	}
	return []checkCase{
		{name: "fabric completed", host: "gb200-nvl72", spec: "gb200-nvl72", id: "gpu.fabric", want: Pass, mentions: []string{"4 GPUs registered", "clique 32766"}},
		{name: "imex channel", host: "gb200-nvl72", spec: "gb200-nvl72", id: "gpu.imex_channel", want: Pass, mentions: []string{"channel0"}},
		{name: "fabric in progress and split", host: "gb200-fabric-broken", spec: "gb200-nvl72", id: "gpu.fabric", want: Fail,
			mentions: []string{"GPU 00000009:01:00.0: State In Progress, Status N/A"}},
		{name: "no imex channel", host: "gb200-fabric-broken", spec: "gb200-nvl72", id: "gpu.imex_channel", want: Fail, mentions: []string{"does not exist", "NVreg_CreateImexChannel0"}},
		{name: "no nvidia-smi", host: "empty", spec: "gb200-nvl72", id: "gpu.fabric", want: Fail, mentions: []string{"nvidia-smi is not installed"}},
		{name: "fabric without a domain", host: "gb200-fabric-broken", spec: "gb200-nvl72", edit: noDomain, id: "gpu.fabric", want: Skip, mentions: []string{"no multi-node NVLink domain"}},
		{name: "imex on one tray", host: "gb200-fabric-broken", spec: "gb200-nvl72", edit: oneTray, id: "gpu.imex_channel", want: Skip, mentions: []string{"no engine spans nodes"}},
		{name: "H20 without a domain", host: "h20-roce", spec: "h20-roce", id: "gpu.fabric", want: Skip},
	}
}
