package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestSGLangCookbookDecodeStalls reads the SGLang cookbook's Llama-3.1-70B
// runs on 8 × A100 (issue #28, sglang-cookbook-llama31-a100) for what
// makes their TPOT: the median ITL is a decode step without a prefill
// beside it, and the mean TPOT over it is the share of the run the decodes
// stood still, s = 1 − ITL median / TPOT mean. Spread over the prompt
// tokens the run prefilled a second (request/s × mean prompt), s is the
// decode time lost per prompt token:
//
//	1K, 16 sessions:  1 − 23.95/26.09 = 0.082; / (1.01 × 495.9) = 164 µs
//	1K, 100 sessions: 1 − 33.46/47.19 = 0.291; / (3.80 × 499.7) = 153 µs
//	8K, 16 sessions:  1 − 25.72/36.94 = 0.304; / (0.75 × 3750.3) = 108 µs
//	8K, 64 sessions:  1 − 34.12/74.95 = 0.545; / (1.48 × 3980.9) = 92.5 µs
//
// against 395.25 ms / 4,194.1 = 94.2 µs a token for one ~4K prompt alone
// (8K, one session) and 131.61 / 610.1 = 216 µs for a ~600-token one. The
// decodes stand still for about the whole of every prefill (SGLang's
// prefill-first scheduler without mixed chunks, which the replay already
// runs: sim.PrefillFirst): were decodes mixed into the prefill steps, the
// loss per prompt token would be a fraction of a lone prefill's. What the
// replay lacks is in the decode step itself: it logs the step model's
// decode step at each run's mean concurrency against the median ITL (the
// step at the mean context, prompt + half the output).
func TestSGLangCookbookDecodeStalls(t *testing.T) {
	const alone8K = 395.25e-3 / 4194.1 // s a prompt token, one ~4K prompt
	n := 0
	for _, r := range targetableRows(t) {
		if r.Source != "sglang-cookbook-llama31-a100" {
			continue
		}
		f, w := r.Figures, r.Workload
		s := 0.0
		if r.Load.Concurrency.Int() > 1 {
			n++
			s = 1 - f.ITLMs.Median.V/f.TPOTMs.Mean.V
			u := s / (f.RequestPerS.V * w.InputTokensMean.V)
			if u < 0.9*alone8K || u > 1.1*(131.61e-3/610.1) {
				t.Errorf("%s: decodes lose %.1f µs a prompt token, outside a lone prefill's %.1f–%.1f µs", r.ID, u*1e6, alone8K*1e6, 131.61e-3/610.1*1e6)
			}
		}
		st, _, err := Setup(r, perf.DefaultEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		sm := perf.NewStepModel(st)
		b := max(1, int(f.MeanConcurrency.V+0.5))
		pt, _ := sm.DecodeAt(b, w.InputTokensMean.V+w.OutputTokensMean.V/2)
		t.Logf("%s: stalled %.0f%% of the run; decode step at %d sequences: model %.1f ms, median ITL %.1f ms (%+.0f%%)",
			r.ID, 100*s, b, pt.TPOTS*1e3, f.ITLMs.Median.V, 100*(pt.TPOTS*1e3/f.ITLMs.Median.V-1))
	}
	if n != 4 {
		t.Fatalf("found %d of the source's 4 loaded runs", n)
	}
}
