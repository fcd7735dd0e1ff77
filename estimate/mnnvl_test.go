package estimate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/validate"
)

// nvlSpec is a GB200 deployment of trays × 4 GPUs with 4 × 400 Gbit/s
// InfiniBand NICs per tray, in one NVL72 NVLink domain when mnnvl.
func nvlSpec(model, weights string, trays, tp, dp int, ep bool, backend string, mnnvl bool) string {
	pp := trays * 4 / (tp * dp) // the layout fills the trays
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: vlaunch/v1\nkind: Deployment\nmetadata: {name: nvl}\nmodel: {name: %s, weights: %s}\nhardware:\n  gpu: gb200\n  nodes:\n", model, weights)
	for i := 0; i < trays; i++ {
		fmt.Fprintf(&b, "    - {name: tray%d, address: 10.0.0.%d, gpus: 4, interface: eth0}\n", i, i+1)
	}
	b.WriteString("  network:\n    inter_node: {kind: infiniband, bandwidth_gbit_per_s: 400, nics_per_node: 4}\n")
	if mnnvl {
		b.WriteString("    nvlink_domain: {}\n")
	}
	fmt.Fprintf(&b, "workload: {concurrency: 256, max_model_len: 8192, input_tokens: 2048, output_tokens: 512}\n"+
		"parallelism: {tensor: %d, pipeline: %d, data: %d, expert: %v}\nvllm:\n  version: \"0.12.0\"\n", tp, pp, dp, ep)
	if backend != "" {
		fmt.Fprintf(&b, "  all2all_backend: %s\n", backend)
	}
	return b.String()
}

func nvlSetup(t *testing.T, y string) (perf.StepSetup, estimate.Input) {
	t.Helper()
	d, ds, err := validate.Bytes("nvl.yaml", []byte(y))
	if err != nil || ds.HasErrors() {
		t.Fatalf("spec: %v %v\n%s", err, ds, y)
	}
	in := estimate.FromResolved(d)
	return perf.SetupFromInput(&in), in
}

// The same layout on GB200 trays costs its communication over NVLink when
// the trays share an NVL72 NVLink domain and over 4 × 400 Gbit/s
// InfiniBand per tray when they do not: EP all-to-all (DeepSeek-V3,
// Qwen3-235B), TP all-reduce across two trays. DeepEP's normal kernels
// cross trays over the NICs either way (they reach at most 8 NVLink peers).
func TestMNNVLCommunication(t *testing.T) {
	decode := perf.RankLoad{DecodeSeqs: 32, DecodeCtx: 32 * 2500}
	prefill := perf.RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * 8193 / 2, PrefillSeqs: 4}
	for _, tc := range []struct {
		name                   string
		model, weights         string
		trays, tp, dp          int
		ep                     bool
		backend                string
		term                   func(perf.StepTime) float64
		load                   perf.RankLoad
		minSpeedup, maxSpeedup float64
	}{
		// DeepSeek-V3 FP8, EP32 over 8 trays, DeepEP low-latency: NICs
		// 200 GB/s per tray of 4 against NVLink 900 GB/s per GPU. A prefill's
		// all-to-all is bandwidth: several times faster. A decode step's
		// is mostly the kernels' fixed latency (vllm.A2AFixedLatency,
		// measured over RDMA and kept on NVLink for want of a figure): the
		// bandwidth part still goes.
		{"deepseek-v3 EP32 deepep_low_latency prefill", "deepseek-v3", "fp8", 8, 1, 32, true, "deepep_low_latency",
			func(s perf.StepTime) float64 { return s.A2AS }, prefill, 3, 1e9},
		{"deepseek-v3 EP32 deepep_low_latency decode", "deepseek-v3", "fp8", 8, 1, 32, true, "deepep_low_latency",
			func(s perf.StepTime) float64 { return s.A2AS }, decode, 1.5, 1e9},
		{"deepseek-v3 EP16 allgather_reducescatter prefill", "deepseek-v3", "fp8", 4, 1, 16, true, "allgather_reducescatter",
			func(s perf.StepTime) float64 { return s.A2AS }, prefill, 3, 1e9},
		{"qwen3-235b EP8 over 2 trays deepep_low_latency prefill", "qwen3-235b-a22b", "bf16", 2, 1, 8, true, "deepep_low_latency",
			func(s perf.StepTime) float64 { return s.A2AS }, prefill, 3, 1e9},
		// Qwen3-235B TP8 across two trays: NCCL over NVLink, not the NICs.
		{"qwen3-235b TP8 over 2 trays prefill", "qwen3-235b-a22b", "bf16", 2, 8, 1, false, "",
			func(s perf.StepTime) float64 { return s.TPS }, prefill, 3, 1e9},
		// Qwen3-235B TP4 × PP2, a stage per tray: the hand-off between the
		// stages goes over NVLink, not the tray's NICs. vLLM 0.12.0 sends
		// 1/TP of hidden_states and residual per rank and the receiver
		// all-gathers them over its TP group (perf.ppHandoff): a micro-batch
		// of 4,096 tokens is 67 MB through the tray's 4 × 400 Gbit/s against
		// 16.8 MB per GPU over NVLink, and the two all-gathers — on NVLink
		// either way — are common to both, so the speedup is below the
		// links' ratio (2.8× here).
		{"qwen3-235b TP4 PP2 over 2 trays prefill", "qwen3-235b-a22b", "bf16", 2, 4, 1, false, "",
			func(s perf.StepTime) float64 { return s.PPS }, prefill, 2, 1e9},
		// DeepEP high-throughput: the all-to-all between trays stays on the
		// NICs, within 10% (the per-host share of the domain's traffic).
		{"deepseek-v3 EP32 deepep_high_throughput prefill", "deepseek-v3", "fp8", 8, 1, 32, true, "deepep_high_throughput",
			func(s perf.StepTime) float64 { return s.A2AS }, prefill, 0.9, 1.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ib, _ := nvlSetup(t, nvlSpec(tc.model, tc.weights, tc.trays, tc.tp, tc.dp, tc.ep, tc.backend, false))
			nv, nvIn := nvlSetup(t, nvlSpec(tc.model, tc.weights, tc.trays, tc.tp, tc.dp, tc.ep, tc.backend, true))
			if !nv.HW.MNNVL() || ib.HW.MNNVL() {
				t.Fatalf("MNNVL: with the domain %v, without %v", nv.HW.MNNVL(), ib.HW.MNNVL())
			}
			a := tc.term(perf.NewStepModel(ib).StepUniform(tc.load))
			b := tc.term(perf.NewStepModel(nv).StepUniform(tc.load))
			if a <= 0 || b <= 0 {
				t.Fatalf("communication term: IB %.3g s, NVLink domain %.3g s", a, b)
			}
			if r := a / b; r < tc.minSpeedup || r > tc.maxSpeedup {
				t.Errorf("IB %.3f ms / NVLink domain %.3f ms = %.2f×, want %.1f× to %.1f×", a*1e3, b*1e3, r, tc.minSpeedup, tc.maxSpeedup)
			}
			t.Logf("IB %.3f ms, NVLink domain %.3f ms (%.1f×)", a*1e3, b*1e3, a/b)
			if tc.ep {
				checkLinkNamed(t, &nvIn, tc.backend)
			}
		})
	}
}

// checkLinkNamed: the check report of an NVLink-domain layout says which
// link the network model put the all-to-all on.
func checkLinkNamed(t *testing.T, in *estimate.Input, backend string) {
	t.Helper()
	r := estimate.Check(in)
	r.AddPerformance(in, estimate.PerfOptions{NoAdvice: true})
	txt := strings.Join(r.Performance.Notes, "\n")
	for _, n := range r.Notes {
		txt += "\n" + n.Text
	}
	if !strings.Contains(txt, "multi-node NVLink domain of 72 GPUs") {
		t.Errorf("report does not name the NVLink domain:\n%s", txt)
	}
	onNICs := strings.Contains(txt, "still crosses nodes over the NICs")
	if want := backend == "deepep_high_throughput"; onNICs != want {
		t.Errorf("report says the all-to-all crosses the NICs: %v, want %v", onNICs, want)
	}
}

// Memory outside PyTorch is what vLLM budgets whether or not the trays
// share an NVLink domain: DeepEP's normal kernels still reserve RDMA
// buffers beside the NVLink ones for a group spanning nodes (vLLM's
// DeepEPHTAll2AllManager sizes them for an internode group unless
// VLLM_DEEPEP_HIGH_THROUGHPUT_FORCE_INTRA_NODE, which vlaunch never sets),
// and the low-latency and NCCL buffers do not depend on the link.
func TestMNNVLMemoryAsBudgeted(t *testing.T) {
	for _, backend := range []string{"deepep_high_throughput", "deepep_low_latency", "allgather_reducescatter"} {
		_, ib := nvlSetup(t, nvlSpec("deepseek-v3", "fp8", 8, 1, 32, true, backend, false))
		_, nv := nvlSetup(t, nvlSpec("deepseek-v3", "fp8", 8, 1, 32, true, backend, true))
		a, b := estimate.Memory(&ib).NonTorch, estimate.Memory(&nv).NonTorch
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: non-torch terms differ:\n IB     %v\n NVLink %v", backend, a, b)
		}
		if backend == "deepep_high_throughput" && !strings.Contains(fmt.Sprint(b), "NVLink + RDMA") {
			t.Errorf("%s: want NVLink + RDMA buffers, got %v", backend, b)
		}
	}
}

// TP across two trays: over one 100 Gbit/s NIC per tray its all-reduces
// earn the advice to keep TP within a node (EST202); inside an NVLink
// domain they never reach the NICs, and the advice stays silent.
func TestMNNVLNoTPAcrossNodesAdvice(t *testing.T) {
	has := func(mnnvl bool) bool {
		y := nvlSpec("qwen3-235b-a22b", "bf16", 2, 8, 1, false, "", mnnvl)
		y = strings.Replace(y, "bandwidth_gbit_per_s: 400, nics_per_node: 4", "bandwidth_gbit_per_s: 100, nics_per_node: 1", 1)
		_, in := nvlSetup(t, y)
		r := estimate.Check(&in)
		r.AddPerformance(&in, estimate.PerfOptions{})
		for _, f := range r.Findings {
			if f.Code == codes.EstTPAcrossNodes {
				return true
			}
		}
		return false
	}
	if !has(false) {
		t.Fatal("TP8 over two trays on InfiniBand: no TP-across-nodes advice (the test lost its contrast)")
	}
	if has(true) {
		t.Error("TP8 inside an NVLink domain: advice says its all-reduces cross the inter-node fabric")
	}
}

// A release that sets NCCL_CUMEM_ENABLE=0 itself (before 0.8.5) keeps
// NCCL off multi-node NVLink: the step model then costs TP between trays
// over the NICs, as without the domain; 0.9.0 uses the domain.
func TestMNNVLOffWhereTheReleaseForcesCuMemOff(t *testing.T) {
	for v, want := range map[string]bool{"0.8.4": false, "0.9.0": true} {
		y := strings.Replace(nvlSpec("qwen3-235b-a22b", "bf16", 2, 8, 1, false, "", true), `version: "0.12.0"`, `version: "`+v+`"`, 1)
		d, ds, err := validate.Bytes("nvl.yaml", []byte(y))
		if err != nil || ds.HasErrors() {
			t.Fatalf("%s: %v %v", v, err, ds)
		}
		in := estimate.FromResolved(d)
		if got := perf.SetupFromInput(&in).HW.MNNVL(); got != want {
			t.Errorf("vLLM %s: the step model uses the NVLink domain: %v, want %v", v, got, want)
		}
	}
}
