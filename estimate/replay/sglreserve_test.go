package replay

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// TestSGLangReserveGLM45AirBursts: GLM-4.5-Air FP8 on two H100s under
// SGLang 0.5.4.post2, 1,000 ShareGPT prompts at once (gpustack-glm45air-h100,
// TP2 and TP2 + EP2). Without SGLang's admission reserve the simulated pool
// fills with prompts, decodes are preempted, and the mean TTFT is 35–44%
// under the published; with it (sim.Config.ReserveDecodes, set for SGLang
// rows) no decode is preempted, fewer requests run at once, and the mean
// TTFT is within ±30% of the published.
func TestSGLangReserveGLM45AirBursts(t *testing.T) {
	for _, id := range []string{"gs-glm45air-h100-sglang-fp8-tp2-sharegpt", "gs-glm45air-h100-sglang-fp8-tp2ep2-sharegpt"} {
		t.Run(id, func(t *testing.T) {
			r := rowByID(t, id)
			pub := r.Figures.TTFTMs.Mean.V / 1e3
			defer func(v bool) { sim.UseDecodeReserve = v }(sim.UseDecodeReserve)
			sim.UseDecodeReserve = false
			off, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			sim.UseDecodeReserve = true
			on, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if e := off.TTFT.Mean/pub - 1; e > -0.3 {
				t.Errorf("without the reserve: mean TTFT %.1f s against %.1f published (%+.0f%%): want the miss below −30%%", off.TTFT.Mean, pub, 100*e)
			}
			if e := on.TTFT.Mean/pub - 1; math.Abs(e) > 0.3 {
				t.Errorf("with the reserve: mean TTFT %.1f s against %.1f published (%+.0f%%): want within ±30%%", on.TTFT.Mean, pub, 100*e)
			}
			if !(off.Sim.Preemptions > 0) || on.Sim.Preemptions != 0 || !(on.Sim.MeanRunning < off.Sim.MeanRunning) {
				t.Errorf("preemptions %d → %d, running %.0f → %.0f: want some → none, fewer running", off.Sim.Preemptions, on.Sim.Preemptions,
					off.Sim.MeanRunning, on.Sim.MeanRunning)
			}
		})
	}
}
