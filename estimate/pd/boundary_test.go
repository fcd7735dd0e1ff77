package pd

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
)

// boundarySpec is plan's best P/D of plan/testdata/pd/pd-boundary-3x8h100.yaml
// applied (`vlaunch plan … --apply 1`): gpt-oss-120b on 3 × 8 H100 over one
// 400 Gbit/s InfiniBand NIC per node, three TP 4 prefill instances on node0
// and node1's GPUs 0-3, three DP 4 decode instances on node1's GPUs 4-7 and
// node2 (resolve.NodeShare: prefill first on the shared node).
const boundarySpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: gpt-oss-120b-pd-3x8h100}
model: {name: gpt-oss-120b, path: /models/gpt-oss-120b, served_name: gpt-oss-120b}
hardware:
  gpu: h100-80g
  nodes:
    - {name: node0, address: 192.168.2.10, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}
    - {name: node1, address: 192.168.2.11, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}
    - {name: node2, address: 192.168.2.12, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}
  network:
    intra_node: {kind: nvlink, bandwidth_gbytes_per_s: 450}
    inter_node: {kind: infiniband, bandwidth_gbit_per_s: 400, nics_per_node: 1, latency_us: 2}
workload: {concurrency: 96, max_model_len: 20000, input_tokens: 12000, output_tokens: 300}
slo:
  ttft:
    - {input_tokens: 12000, p50_s: 1.0, p99_s: 3.0}
  tpot_ms: 30
disaggregation:
  connector: nixl
  transport: ucx
  router: {kind: vllm-router, node: node0, port: 8000}
  prefill:
    instances: 3
    nodes: [node0, node1]
    parallelism: {tensor: 4, pipeline: 1, data: 1, expert: false}
    vllm: {max_num_batched_tokens: 16384}
  decode:
    instances: 3
    nodes: [node1, node2]
    parallelism: {tensor: 1, pipeline: 1, data: 4, expert: true}
vllm: {version: "0.22.1", port: 8100}
runtime: {kind: `

func boundaryPools(t *testing.T, runtime string) (pre, dec input.Input) {
	t.Helper()
	in := testinput.FromYAML(t, "boundary.yaml", boundarySpec+runtime+"}\n")
	return testinput.Pools(t, in.Resolved())
}

// TestTransferBoundaryNode: the boundary split's hand-off, derived by hand.
//
// Placement: prefill instances node0 ×2, node1 ×1; decode node1 ×1, node2
// ×2. The router picks each leg on its own (UseSharedNodeBlend), so a
// request's pair is on node1 with f = 1/3 × 1/3 = 1/9.
//
// KV: gpt-oss-120b's 36 layers × K,V × 8 KV heads × 64 × 2 B = 73,728 B per
// token; 12,000 tokens are 750 whole 16-token blocks; the decode rank (TP 1)
// pulls a whole copy: 884,736,000 B. vLLM 0.22.1's descriptor count is not
// known: no posting priced.
//   - same node: cuda_ipc over NVLink at 450 GB/s (× TP 1), 2 µs (spec
//     default): 2e-6 + 884.736e6/450e9 = 1.968 ms;
//   - NICs: one 400 Gbit/s = 50 GB/s NIC per node (a TP 1 rank gets the
//     whole NIC alone), 2 µs: 2e-6 + 884.736e6/50e9 = 17.697 ms; they carry
//     min(2, 2) nodes × 50e9 / 884.736e6 = 113.03 requests/s of NIC traffic.
//
// Mixture: alone 1/9 × 1.968 + 8/9 × 17.697 = 15.949 ms; the NICs carry
// only 8/9 of the rate, so they saturate at 113.03 × 9/8 = 127.16
// requests/s; at 50 requests/s their utilisation is 8/9 × 50 / 113.03 =
// 0.3932 and the mean transfer 1/9 × 1.968 + 8/9 × (2e-6 + 17.695 ms /
// (1 − 0.3932)) = 26.14 ms.
func TestTransferBoundaryNode(t *testing.T) {
	const (
		f      = 1.0 / 9
		wire   = 73728.0 * 12000
		same   = 2e-6 + wire/450e9
		nic    = 2e-6 + wire/50e9
		nicMax = 2 * 50e9 / wire
		rate   = 50.0
	)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("%s = %.9g, want %.9g", name, got, want)
		}
	}
	for _, runtime := range []string{"bare", "docker"} {
		pre, dec := boundaryPools(t, runtime)
		near(runtime+": f", sharedNodeShare(&pre, &dec), f)
		tr := newTransfer(&pre, &dec, 12000, false, 2, 2)
		if tr.WireBytes != wire {
			t.Fatalf("%s: wire %.0f B, want %.0f", runtime, tr.WireBytes, wire)
		}
		// docker: the pools sharing node1 run with --pid host (resolve's
		// HostPID), so cuda_ipc as on bare metal.
		if tr.SameNode == nil || tr.SameNode.Transport != transportCUDAIPC || tr.SameNode.Link != "NVLink" || tr.Link != "inter-node NICs" || tr.Transport != transportIB {
			t.Fatalf("%s: paths %+v / %q %q", runtime, tr.SameNode, tr.Link, tr.Transport)
		}
		near(runtime+": SameNodeShare", tr.SameNodeShare, f)
		near(runtime+": same-node alone", tr.SameNode.AloneS, same)
		near(runtime+": NIC alone", tr.NICAloneS, nic)
		near(runtime+": mean alone", tr.AloneS, f*same+(1-f)*nic)
		near(runtime+": NICs' most requests/s", tr.MaxRatePerS, nicMax/(1-f))
		x := tr.at(rate)
		u := (1 - f) * rate / nicMax
		near(runtime+": NIC utilisation", x.Utilization, u)
		near(runtime+": mean time", x.TimeS, f*same+(1-f)*(2e-6+(nic-2e-6)/(1-u)))
		if !strings.Contains(strings.Join(tr.Why, " "), "0.111 of hand-offs") || !strings.Contains(tr.describe(), "over NVLink") {
			t.Errorf("%s: the notes do not say which share goes over NVLink: %s", runtime, tr.describe())
		}
		// At the NICs' whole-rate limit the NICs bind.
		if !tr.at(tr.MaxRatePerS).Saturated {
			t.Errorf("%s: not saturated at %.2f requests/s", runtime, nicMax/(1-f))
		}

		// plan's bound takes the same decision (Combine).
		b := Bounds(&pre, &dec, false, "")
		pb := newTransfer(b.Prefill.in, b.Decode.in, 12000, false, b.Prefill.Nodes, b.Decode.Nodes)
		if b.Prefill.Nodes != 2 || b.Decode.Nodes != 2 {
			t.Fatalf("%s: pools on %d and %d nodes, want 2 and 2", runtime, b.Prefill.Nodes, b.Decode.Nodes)
		}
		near(runtime+": bound's transfer rate", b.TransferRatePerS, nicMax/(1-f))
		near(runtime+": bound's transfer", b.TransferS, pb.AloneS)
		near(runtime+": bound's transfer (hand)", b.TransferS, f*same+(1-f)*nic)
	}

	// The switch off prices every hand-off over the NICs, as before.
	pre, dec := boundaryPools(t, "bare")
	UseSharedNodeBlend = false
	defer func() { UseSharedNodeBlend = true }()
	tr := newTransfer(&pre, &dec, 12000, false, 2, 2)
	near("switch off: alone", tr.AloneS, nic)
	near("switch off: NICs' most requests/s", tr.MaxRatePerS, nicMax)
	if tr.SameNode != nil || tr.SameNodeShare != 0 {
		t.Errorf("switch off: a mixture %+v", tr)
	}
}

// TestTransferBlendLeavesOthers: the one-node example (every hand-off inside
// the node) and pools of whole nodes of their own (none) are priced exactly
// as before the mixture: the same Transfer, field for field, whether or not
// UseSharedNodeBlend is on, and the same bound.
func TestTransferBlendLeavesOthers(t *testing.T) {
	for _, c := range []struct {
		example  string
		sameNode bool
		f        float64
	}{
		{"gpt-oss-120b-pd-1node-8xh100", true, 1},
		{"gpt-oss-120b-pd-2x8h100", false, 0},
		{pdExample, false, 0},
	} {
		in := testinput.Example(t, c.example)
		if got := in.Resolved().PD.SameNode(); got != c.sameNode {
			t.Fatalf("%s: SameNode %t, want %t", c.example, got, c.sameNode)
		}
		pre, dec := testinput.Pools(t, in.Resolved())
		if got := sharedNodeShare(&pre, &dec); got != c.f {
			t.Errorf("%s: f = %g, want %g", c.example, got, c.f)
		}
		n := dec.Workload.InputTokens
		on := newTransfer(&pre, &dec, n, c.sameNode, 2, 2)
		bon := Bounds(&pre, &dec, c.sameNode, "")
		UseSharedNodeBlend = false
		off := newTransfer(&pre, &dec, n, c.sameNode, 2, 2)
		boff := Bounds(&pre, &dec, c.sameNode, "")
		UseSharedNodeBlend = true
		if !reflect.DeepEqual(on, off) || on.SameNode != nil || on.SameNodeShare != 0 {
			t.Errorf("%s: the mixture moved the transfer:\n%+v\n%+v", c.example, on, off)
		}
		if a, b := on.at(1), off.at(1); a.TimeS != b.TimeS || a.Utilization != b.Utilization {
			t.Errorf("%s: time at 1 request/s moved", c.example)
		}
		if bon.TransferRatePerS != boff.TransferRatePerS || bon.TransferS != boff.TransferS || !reflect.DeepEqual(bon.TTFTS, boff.TTFTS) {
			t.Errorf("%s: the bound moved: %+v vs %+v", c.example, bon, boff)
		}
	}
}
