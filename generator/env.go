package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// specEnvWhy marks the spec's own variables (vllm.env), which come last.
const specEnvWhy = "from the spec (vllm.env)"

// nodeEnv is the environment for one node, in the order it is exported:
// networking, RDMA, NVSHMEM for DeepEP, the backend variable where the
// release selects it that way, then the user's env (last, so it wins).
// hostIP is the address expression (a literal for bare/docker, a Raw
// expression for Kubernetes).
func nodeEnv(p *Plan, d *spec.Deployment, n *NodePlan, hostIP EnvVar) []EnvVar {
	var env []EnvVar
	add := func(name, value, why string) { env = append(env, EnvVar{Name: name, Value: value, Why: why}) }
	// A Kubernetes pod of one replica smaller than a node is on the pod
	// network, where the host's interface names do not exist (NCCL and
	// Gloo fail to bind a named interface that is absent); its ranks talk
	// within the node only.
	if n.Interface != "" && !(p.SubNode && p.Runtime == "kubernetes") {
		add("GLOO_SOCKET_IFNAME", n.Interface, "Gloo (DP coordination) must bind the node-to-node interface or start-up hangs")
		add("NCCL_SOCKET_IFNAME", n.Interface, "NCCL bootstrap interface")
	}
	hostIP.Name, hostIP.Why = "VLLM_HOST_IP", "the address this node advertises to the other ranks"
	env = append(env, hostIP)
	// docker's --gpus and Kubernetes' device plugin choose them there; a
	// ROCm container gets every GPU of the host (/dev/kfd, /dev/dri), and a
	// P/D pool's container on a node it shares sees every GPU
	// (NodePlan.HostPID), so the variable picks the replica's inside it.
	if n.Devices != nil && (p.Runtime == "bare" || p.Runtime == "docker" && (p.AMD || n.HostPID)) {
		why := fmt.Sprintf("this replica's GPUs: %d replicas share the node, each on GPUs of its own", p.placement.Nodes[n.Index].Replicas)
		if n.ExtLB {
			why = fmt.Sprintf("this DP rank's GPUs: each of the node's %d ranks serves on GPUs of its own (external load balancing)", p.placement.Nodes[n.Index].DPLocal)
		} else if p.sharedNode(n.Index) {
			why = "this instance's GPUs: the node's GPUs are split between the prefill and the decode pool (prefill's first), each instance on GPUs of its own"
		}
		add("CUDA_VISIBLE_DEVICES", n.DeviceList(), why)
	}
	if sh := p.Release.SharedHost(); n.Devices != nil && p.Runtime != "kubernetes" && sh.RPCPortEnv != "" {
		add(sh.RPCPortEnv, strconv.Itoa(sh.RPCPortBase+n.Slot), fmt.Sprintf("vLLM %s's frontend reaches its engine on a fixed TCP port: each replica on the node needs its own", p.Release.Version))
	}
	if p.RDMA && len(n.RDMADevices) > 0 {
		add("NCCL_IB_HCA", strings.Join(n.RDMADevices, ","), "RDMA devices NCCL may use")
	}
	gid := d.Hardware.Network.InterNode.GIDIndex
	if p.Fabric == "roce" && gid != nil {
		add("NCCL_IB_GID_INDEX", strconv.Itoa(*gid), "RoCE v2 GID index")
	}
	if p.DeepEP && p.multiNode() {
		add("NVSHMEM_REMOTE_TRANSPORT", "ibgda", "DeepEP internode kernels need GPU-initiated RDMA")
		add("NVSHMEM_IB_ENABLE_IBGDA", "true", "DeepEP internode kernels need GPU-initiated RDMA")
		if p.Fabric == "roce" && gid != nil {
			add("NVSHMEM_IB_GID_INDEX", strconv.Itoa(*gid), "RoCE v2 GID index for NVSHMEM")
		}
		if n.Interface != "" {
			add("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", n.Interface, "NVSHMEM bootstrap interface")
		}
	}
	if p.All2All != "" && p.Via == vllm.ViaEnv.String() {
		if p.All2AllWritten != "" { // else the release's default, or the spec's own export (below)
			add(vllm.All2AllEnv, p.All2AllWritten, "vLLM "+p.Release.Version.String()+" selects the all-to-all backend by environment (--all2all-backend arrived in 0.11.1)")
		}
		if v, _ := p.Release.EnvDefault("VLLM_USE_DEEP_GEMM"); p.DeepEP && v != "1" {
			add("VLLM_USE_DEEP_GEMM", "1", "DeepGEMM kernels are off by default before 0.11.0; the EP docs turn them on with DeepEP")
		}
	}
	env = append(env, mnnvlEnv(p, d)...)
	for _, k := range sortedKeys(d.VLLM.Env) {
		add(k, d.VLLM.Env[k], specEnvWhy)
	}
	return env
}

// multiNode: one replica's engines span nodes (replicas never talk to
// each other).
func (p *Plan) multiNode() bool { return p.ReplicaNodes > 1 }
