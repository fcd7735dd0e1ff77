package pd_test

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/spec"
)

// TestLoadBandLLMDGKE: llm-d's GKE P/D run (published/pd.yaml,
// llmd-gke-h200-p8tp1-d2tp4-r45) offered 45 req/s and achieved 42.6, with a
// median TTFT of 1,108 ms; the model predicts its median 286 ms, −74%. A
// 1 s median target lies between the two. Judged by the TTFT band alone
// (moe ttft_mean ×0.55–×1.90: 0.16–0.54 s) check said pass, a verdict the
// run contradicts. The model puts the prefill pool at utilisation 0.68; at
// the low edge of the moe class's capacity band (×0.56) that is 1.2, more
// than the pool sustains, so the band's high side is open and the verdict
// uncertain (slo.UseLoadBand).
//
// Since session 43 (moe43) the moe capacity band's low edge is ×0.71 (it
// was ×0.66, already within 0.01 of the utilisation): the held-out SGLang
// cookbook loops, run at their client's spread of lengths, fit far better.
// At ×0.71 the pool stays below saturation (utilisation 0.50–0.94 across
// the band), the load widens the band's high side (0.45 → 0.50 s) without
// opening it, and the verdict is pass again — a known false pass against
// the run's 1,108 ms, whose cause is the −74% TTFT prediction of this P/D
// row, not the band. The test holds the load band to its own arithmetic:
// open and uncertain exactly when the capacity band's low edge puts the
// pool past saturation, and never narrower than the TTFT band alone.
//
// Since session 44 (perf.UseEPStraggler on) the low edge is ×0.73: at
// utilisation 0.68 the pool's low-edge load is 0.94, and the load band no
// longer widens the high side (0.481 s either way). The test asks what
// the arithmetic promises — never narrower, and a basis that names the
// utilisation exactly when the load widened the band — not that it widens.
func TestLoadBandLLMDGKE(t *testing.T) {
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	defer func(was bool) { slo.UseLoadBand = was }(slo.UseLoadBand)
	for _, r := range set.Rows {
		if r.ID != "llmd-gke-h200-p8tp1-d2tp4-r45" {
			continue
		}
		y, same := pdSpecLoad(r, true)
		in := resolveSpec(t, r.ID, y)
		pre, dec := testinput.Pools(t, in.Resolved())
		p50 := 1.0
		dec.SLO.TTFT = []spec.TTFTTarget{{InputTokens: r.Workload.InputTokens.Int(), P50S: &p50}}
		var highOff float64
		for _, on := range []bool{false, true} {
			slo.UseLoadBand = on
			rep, vs := pd.Evaluate(&pre, &dec, same, replayRouter(r), slo.Options{Seed: replaySeed})
			s := rep.Scenario(r.Workload.InputTokens.Int())
			if s == nil || s.Unbounded || s.PrefillUtilization < 0.6 || s.PrefillUtilization > 0.75 || s.DecodeUtilization > s.PrefillUtilization {
				t.Fatalf("scenario %+v", s)
			}
			v := vs[len(vs)-1]
			if v.Band == nil || v.Predicted > 0.4 {
				t.Fatalf("load band %t: %s %s predicted %.3f band %+v", on, v.Name, v.Verdict, v.Predicted, v.Band)
			}
			// Past saturation at the capacity band's low edge: open, uncertain.
			open := on && s.PrefillUtilization/capacityLow(t) >= 1
			want := map[bool]string{false: slo.VerdictPass, true: slo.VerdictUncertain}[open]
			if v.Verdict != want {
				t.Errorf("load band %t (utilisation %.2f, capacity band low ×%.2f): %s %s band %+v, want %s",
					on, s.PrefillUtilization, capacityLow(t), v.Name, v.Verdict, v.Band, want)
			}
			if why := "the arrivals would exceed what the prefill pool sustains"; open != strings.Contains(v.BandBasis, why) {
				t.Errorf("load band %t: basis %q", on, v.BandBasis)
			}
			if !on {
				highOff = v.Band.High
			} else if v.Band.High < highOff || (v.Band.High > highOff) != strings.Contains(v.BandBasis, "utilisation") {
				t.Errorf("load band on: high side %.3f s against %.3f s without it; basis %q", v.Band.High, highOff, v.BandBasis)
			}
		}
	}
}

// capacityLow is the moe class's throughput band's low edge (the capacity
// band the load band reads for this MoE P/D pool).
func capacityLow(t *testing.T) float64 {
	b := band.For(band.MoE, band.Throughput)
	if !(b.Low > 0 && b.Low < 1) {
		t.Fatalf("moe throughput band %+v", b)
	}
	return b.Low
}
