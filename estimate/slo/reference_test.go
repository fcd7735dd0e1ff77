package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/spec"
)

// perfRefInput loads the reference scenario with the given weights.
func perfRefInput(t testing.TB, weights string) input.Input {
	t.Helper()
	d, ds := spec.Load("../../examples/deepseek-v3-32xh20.yaml")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	d.Model.Weights = weights
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// The reference scenario (points 6–9 of reference-scenario.md): the
// numbers the report must state, pinned to hand-checkable ranges.
func TestPerfReferenceScenario(t *testing.T) {
	in := perfRefInput(t, "bf16")
	r := check(&in, Options{Seed: 1})
	p := r.Performance
	// Point 6: linear ≈ 2 × 37B ≈ 74 GFLOPs; MLA decode ≈ 9 GFLOPs per layer at 32K.
	if f := p.FLOPs.LinearPerToken; f < 72e9 || f > 76e9 {
		t.Errorf("linear FLOPs/token %.1f G, want ≈74", f/1e9)
	}
	if f := p.FLOPs.AttentionPerLayerAtMax; f < 8.5e9 || f > 9.5e9 {
		t.Errorf("attention FLOPs/layer at 32K %.2f G, want ≈9.1", f/1e9)
	}
	if !p.FLOPs.DecodeComputeBoundAtMax {
		t.Error("MLA decode on H20 should be compute-bound at long context")
	}
	// Point 7: weight-read floor ≈ 75 GB / 4 TB/s ≈ 18–19 ms in BF16, ≈10 ms in FP8.
	if w := p.Decode.Floors.WeightReadS; w < 17e-3 || w > 20e-3 {
		t.Errorf("BF16 weight-read floor %.1f ms", w*1e3)
	}
	fp8 := perfRefInput(t, "fp8")
	if w := perf.NewStepModel(perf.SetupFromInput(&fp8)).FloorsAt(200, 1536).WeightReadS; w < 9e-3 || w > 10.5e-3 {
		t.Errorf("FP8 weight-read floor %.1f ms", w*1e3)
	}
	// Point 8: megabytes per token per pass; tens of ms of all-to-all per
	// decode step at 25 Gbit/s; gigabytes (seconds) for a 4K prefill.
	if b := p.Network.InterBytesPerTokenPass; b < 1e6 || b > 20e6 {
		t.Errorf("inter-node bytes per token per pass %.2f MB", b/1e6)
	}
	if s := p.Network.DecodeStepS; s < 20e-3 || p.Decode.Step.Binding() != "network" {
		t.Errorf("decode all-to-all %.1f ms (%s): the 25 Gbit/s link must dominate", s*1e3, p.Decode.Step.Binding())
	}
	last := p.Prefill[len(p.Prefill)-1]
	if last.InputTokens != 4096 || last.InterBytesPerNode < 1e9 || last.NetworkS < 1 {
		t.Errorf("4K prefill: %+v", last)
	}
	// The throughput SLO fails and says what it counts; its binding is the
	// KV capacity: the simulation admits each turn of the 32K-token
	// sessions by its whole context, and the pool (2 such sessions per
	// rank) holds sessions back and preempts (the decode step itself is the
	// network's, above).
	v := r.SLO[0]
	if v.Verdict != VerdictFail || v.Binding != BindKV || !strings.Contains(v.Explanation, "output") || len(v.WouldPass) == 0 {
		t.Errorf("throughput verdict %+v", v)
	}
	if r.Feasible {
		t.Error("the reference scenario cannot be feasible")
	}
}
