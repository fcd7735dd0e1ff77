package catalog

import (
	"math"
	"testing"
)

// TestPublishedParamCounts checks every catalog model against the count its
// publisher states, within 1%.
func TestPublishedParamCounts(t *testing.T) {
	for _, m := range Models() {
		t.Run(m.ID, func(t *testing.T) {
			got := m.ParamCounts().Total
			rel := (got - m.PublishedParams) / m.PublishedParams
			t.Logf("%s: counted %.3fB, published %.3fB (%s), diff %+.2f%%", m.ID, got/1e9, m.PublishedParams/1e9, m.PublishedParamsSource, rel*100)
			if math.Abs(rel) > 0.01 {
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
