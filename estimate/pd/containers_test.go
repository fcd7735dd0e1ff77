package pd

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/resolve"
)

// h20Pool is Qwen3-8B at TP 1 on one 8 × H20 node under vLLM 0.19.1 (the
// pegaflow row's engine) run by runtime, with the node's fabric if any.
func h20Pool(t *testing.T, runtime, fabric string) *input.Input {
	t.Helper()
	y := `apiVersion: vlaunch/v1
kind: Deployment
model: {name: qwen3-8b}
hardware:
  gpu: h20-96g
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 8}
` + fabric + `parallelism: {tensor: 1}
workload: {concurrency: 1, max_model_len: 32768, input_tokens: 16384, output_tokens: 1}
vllm: {version: "0.19.1"}
runtime: ` + runtime + "\n"
	in := testinput.FromYAML(t, "h20.yaml", y)
	return &in
}

// TestTransferContainersSameNode: pools sharing a node move the KV over
// cuda_ipc when they run as bare processes (CUDA_VISIBLE_DEVICES does not
// stop UCX's cuda_ipc), and through the node's NICs, or TCP where the
// container sees none, when each runs in a container or pod of its own
// (UseContainerSameNode). Every expected time is derived here from the
// cited rates: Qwen3-8B's KV is 36 layers × K,V × 8 KV heads × 128 × 2 B =
// 147,456 B per token; a 16,384-token prompt (1,024 blocks of 16, whole)
// moves 2,415,919,104 B to the one decode rank.
func TestTransferContainersSameNode(t *testing.T) {
	const wire = 147456.0 * 16384
	roce := "  network:\n    inter_node: {kind: roce, bandwidth_gbit_per_s: 400, nics_per_node: 8}\n"
	check := func(name string, tr Transfer, transport string, alone float64, why string) {
		t.Helper()
		if tr.WireBytes != wire {
			t.Fatalf("%s: wire %.0f B, want %.0f", name, tr.WireBytes, wire)
		}
		if tr.Transport != transport || math.Abs(tr.AloneS-alone) > 1e-9 {
			t.Errorf("%s: %q in %.6f s, want %q in %.6f s", name, tr.Transport, tr.AloneS, transport, alone)
		}
		if got := strings.Join(tr.Why, " "); !strings.Contains(got, why) {
			t.Errorf("%s: why %q lacks %q", name, got, why)
		}
	}
	transfer := func(in *input.Input) Transfer { return newTransfer(in, in, 16384, true, 1, 1) }

	// Bare processes: cuda_ipc at the H20's NVLink, 450 GB/s one way
	// (catalog), 2 µs; vLLM 0.19.1's descriptor count is not known, so no
	// posting is priced.
	bare := h20Pool(t, "{kind: bare}", roce)
	check("bare", transfer(bare), transportCUDAIPC, 2e-6+wire/450e9, "not known to post")

	// Docker on RoCE: the container gets /dev/infiniband; rc_x at the decode
	// GPU's NIC, 400 Gbit/s = 50 GB/s, RoCE's 5 µs: 48.3 ms.
	docker := h20Pool(t, "{kind: docker}", roce)
	tr := transfer(docker)
	check("docker, RoCE", tr, transportRoCE, 5e-6+wire/50e9, "PID namespaces")
	if tr.Link == "NVLink" || tr.MaxRatePerS <= 0 {
		t.Errorf("docker, RoCE: over %s, %.1f transfers/s", tr.Link, tr.MaxRatePerS)
	}

	// Docker with no fabric stated: no RDMA device in the container, TCP
	// at the 0.5 GB/s #52607 measured, after check's default latency: 4.8 s.
	plain := h20Pool(t, "{kind: docker}", "")
	check("docker, no fabric", transfer(plain), transportTCP, perf.DefaultInterLatencyUs*1e-6+wire/0.5e9, "TCP")

	// Kubernetes on RoCE: the pod sees the NICs only through an RDMA
	// resource.
	check("kubernetes, no RDMA resource", transfer(h20Pool(t, "{kind: kubernetes}", roce)), transportTCP, 5e-6+wire/0.5e9, "TCP")
	check("kubernetes, RDMA resource", transfer(h20Pool(t, "{kind: kubernetes, kubernetes: {rdma_resource: rdma/ib}}", roce)), transportRoCE, 5e-6+wire/50e9, "PID namespaces")

	// Docker with the pool sharing its node (resolve.NodeShare): the bundle
	// runs it with --pid host and every GPU visible (resolve's HostPID, what
	// the generator writes), so cuda_ipc as on bare metal (vllm#55906: with
	// a shared PID namespace UCX selected CUDA IPC zero-copy).
	shared := h20Pool(t, "{kind: docker}", "")
	shared.Resolved().Shares = []resolve.NodeShare{{Shared: true, GPUs: 1, With: "decode"}}
	check("docker, --pid host", transfer(shared), transportCUDAIPC, 2e-6+wire/450e9, "not known to post")

	// Across nodes nothing changes, and the switch off restores NVLink.
	if a, b := newTransfer(docker, docker, 16384, false, 1, 1), newTransfer(bare, bare, 16384, false, 1, 1); a.AloneS != b.AloneS || a.Transport != b.Transport {
		t.Errorf("across nodes docker %.6f s %q, bare %.6f s %q", a.AloneS, a.Transport, b.AloneS, b.Transport)
	}
	UseContainerSameNode = false
	defer func() { UseContainerSameNode = true }()
	check("docker, switch off", transfer(plain), transportCUDAIPC, 2e-6+wire/450e9, "not known to post")
}
