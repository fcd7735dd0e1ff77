package catalog

import (
	"math"
	"testing"
)

// TestPublishedParamCounts checks every catalog model against the count its
// publisher states, within 1%, or within the card's rounding where the card
// gives two figures only (cardRounding: half a unit of its last figure).
func TestPublishedParamCounts(t *testing.T) {
	cardRounding := map[string]float64{
		// "27B" (26.5–27.5B): 27.357B with the vision encoder, +1.32%
		// (26.896B without it, −0.39%). The checkpoint agrees with the
		// count: 51.75 GiB of BF16 is 27.78B parameters, the MTP layer's
		// 0.42B among them (estimate/memory TestIssue23WeightsMatchCheckpointBytes).
		"qwen3.5-27b": 0.5e9,
		// "1.6T" (1.55–1.65T): 1,573.0B without the MTP layer, −1.69%, the
		// tolerance catalog TestDeepseekV4 already uses; the checkpoint's
		// 865 GB are matched to 0.1% (estimate/memory).
		"deepseek-v4-pro": 0.05e12,
	}
	for _, m := range Models() {
		t.Run(m.ID, func(t *testing.T) {
			if m.PublishedParams == 0 {
				// No card figure (kimi-k3): estimate/memory's
				// TestCatalog39WeightsMatchCheckpointBytes holds its weights
				// to the checkpoint's bytes instead.
				t.Skipf("%s: %s", m.ID, m.PublishedParamsSource)
			}
			got := m.ParamCounts().Total
			if m.PublishedParamsWithEncoder {
				if m.Encoder == nil {
					t.Fatalf("%s: the published count includes a vision encoder vlaunch does not count", m.ID)
				}
				got += m.Encoder.PerGPU(1)
			}
			rel := (got - m.PublishedParams) / m.PublishedParams
			t.Logf("%s: counted %.3fB, published %.3fB (%s), diff %+.2f%%", m.ID, got/1e9, m.PublishedParams/1e9, m.PublishedParamsSource, rel*100)
			tol := math.Max(0.01, cardRounding[m.ID]/m.PublishedParams)
			if math.Abs(rel) > tol {
				t.Errorf("counted %.3fB params, publisher states %.3fB (%+.2f%%)", got/1e9, m.PublishedParams/1e9, rel*100)
			}
		})
	}
}

// TestDeepSeekV3Components pins the component split the reference scenario relies on.
func TestDeepSeekV3Components(t *testing.T) {
	m, err := LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	p := m.ParamCounts()
	checks := []struct {
		name      string
		got, want float64
	}{
		{"routed experts", p.RoutedExperts, 58 * 256 * 3 * 7168 * 2048},
		{"attention", p.Attention, 11.41e9},
		{"shared experts", p.SharedExperts, 58 * 3 * 7168 * 2048},
		{"dense mlp", p.DenseMLP, 3 * 3 * 7168 * 18432},
		{"embedding+lm_head", p.Embedding + p.LMHead, 2 * 129280 * 7168},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want)/c.want > 0.002 {
			t.Errorf("%s: got %.4gB want %.4gB", c.name, c.got/1e9, c.want/1e9)
		}
	}
	if m.MoELayerCount() != 58 {
		t.Errorf("MoE layers = %d, want 58", m.MoELayerCount())
	}
	active := p.Active(m)
	if active < 36e9 || active > 38.5e9 {
		t.Errorf("active params %.2fB, want ≈37B", active/1e9)
	}
}
