package logs

import (
	"strings"
	"testing"
)

func f64(v float64) *float64 { return &v }

// TestCompareExplainsBudget: when available KV memory differs beyond its
// target and the log states every term, the explanation splits the
// difference over the terms — and they add up to it.
func TestCompareExplainsBudget(t *testing.T) {
	e := Engine{ID: "dp0", GPUTotalGiB: f64(79.19), GPUMemoryUtilization: f64(0.90), WeightsGiB: f64(60),
		ActivationPeakGiB: f64(2), NonTorchGiB: f64(0.5), AvailableKVGiB: f64(8.771)}
	p := Prediction{DeviceGiB: 79.19, Utilization: 0.95, WeightsGiB: 60, ActivationGiB: 3, NonTorchGiB: 0.5,
		AvailableKVGiB: 11.7305, KVBytesPerToken: 131072, BlockSize: 16}
	r := &Report{Engines: []Engine{e}}
	Compare(r, p)
	var avail *Comparison
	for i := range r.Comparison {
		if r.Comparison[i].Term == "available_kv_gib" {
			avail = &r.Comparison[i]
		}
	}
	if avail == nil || *avail.Within {
		t.Fatalf("want an available_kv_gib row above target, got %+v", r.Comparison)
	}
	for _, want := range []string{"usable memory +3.96 (79.19 × 0.90 logged, 79.19 × 0.95 predicted)", "weights +0.00",
		"activation peak -1.00", "non-torch +0.00", "gpu_memory_utilization 0.90 logged, 0.95 in the spec"} {
		if !strings.Contains(avail.Explanation, want) {
			t.Errorf("explanation %q lacks %q", avail.Explanation, want)
		}
	}
}

// TestCompareCannotExplain: a difference above target with every stated
// setting matching the spec is said to be unexplained, not guessed at.
func TestCompareCannotExplain(t *testing.T) {
	e := Engine{ID: "dp0", WeightsGiB: f64(40)}
	r := &Report{Engines: []Engine{e}}
	Compare(r, Prediction{WeightsGiB: 30, TP: 1})
	if len(r.Comparison) != 1 || !strings.HasPrefix(r.Comparison[0].Explanation, "vlaunch cannot explain") {
		t.Errorf("got %+v", r.Comparison)
	}
	e.TP = intPtr(2)
	r = &Report{Engines: []Engine{e}}
	Compare(r, Prediction{WeightsGiB: 30, TP: 1})
	if !strings.Contains(r.Comparison[0].Explanation, "tensor parallel 2, the spec 1") {
		t.Errorf("layout difference not named: %q", r.Comparison[0].Explanation)
	}
}
