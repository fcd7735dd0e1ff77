package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
)

// TestRangeRatioByClient: a random dataset's range ratio is read as the
// row's client samples it — around the nominal length for vLLM's bench
// serve, below it for SGLang's bench_serving and for a row that names no
// client — and the 20K/2K closed loop of vLLM's FP8 KV-cache post, whose
// duration × output rate over its prompts is the nominal 2,000 tokens a
// request, is read around it.
func TestRangeRatioByClient(t *testing.T) {
	row := func(client string) published.Row {
		var r published.Row
		r.Workload = published.Workload{Dataset: "random", InputTokens: published.N(20000), OutputTokens: published.N(2000),
			RangeRatio: published.N(0.15), Client: client}
		return r
	}
	for _, c := range []struct {
		client string
		want   sim.Spread
	}{
		{"vllm-bench-serve", sim.Spread{Lo: 0.85, Hi: 1.15}},
		{"sglang-bench-serving", sim.Spread{Lo: 0.15, Hi: 1}},
		{"", sim.Spread{Lo: 0.15, Hi: 1}},
	} {
		if got := spread(row(c.client)); got != c.want {
			t.Errorf("client %q: spread %+v, want %+v", c.client, got, c.want)
		}
	}
	if got := aroundSpread(0); got.Lo != 0 || got.Hi != 0 {
		t.Errorf("range ratio 0 around the length: %+v, want no spread", got)
	}
	found := 0
	for _, r := range targetableRows(t) {
		if r.Source != "vllm-blog-fp8-kvcache" || r.Load.Kind != published.LoadClosedLoop {
			continue
		}
		found++
		sp := spread(r)
		_, out := lengths(r.Workload)
		mean := float64(out) * (sp.Lo + sp.Hi) / 2
		f := r.Figures
		pub := f.OutputTokPerS.V * f.DurationS.V / r.Load.NumPrompts.V
		if mean < 0.95*pub || mean > 1.05*pub {
			t.Errorf("%s: mean output %.0f tokens a request under spread %+v, the row's figures give %.0f", r.ID, mean, sp, pub)
		}
	}
	if found == 0 {
		t.Fatal("no closed-loop row of vllm-blog-fp8-kvcache")
	}
}
