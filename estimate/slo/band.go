package slo

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// VerdictUncertain is an SLO whose prediction band straddles its target:
// the prediction says pass or fail, but published runs of setups the model
// was not fitted to miss by more than the distance to the target.
const VerdictUncertain = "uncertain"

// BandRange is a prediction's band in the figure's unit.
type BandRange struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// outsideReleaseWiden stretches the band (in log space) of a deployment
// whose vLLM release lies outside vlaunch's release table: its kernel and
// scheduler facts are those of the nearest release, an extrapolation the
// held-out errors did not measure. A named assumption, not fitted.
const outsideReleaseWiden = 1.5

// sloBand is the band of a prediction of regime r for the deployment, and
// what dominates it.
func sloBand(in *input.Input, r band.Regime) (band.Band, string) {
	c := classOf(in)
	b := band.For(c, r)
	basis := fmt.Sprintf("the prediction's accuracy band from held-out published figures: %s errors of %s deployments (%d figures, 10–90%%", r, c, b.N)
	if b.Pooled {
		basis = fmt.Sprintf("the prediction's accuracy band from held-out published figures: %s errors pooled over every current class — %s deployments have fewer than %d held-out sources of their own (%d figures, 10–90%%", r, c, band.MinSources, b.N)
	}
	if b.Margin > 0 {
		basis += fmt.Sprintf(" widened ×%.2f", math.Exp(b.Margin))
	}
	basis += ", about 80% of figures from sources it was not built from fall inside)"
	if b.Dominant != "" {
		basis += fmt.Sprintf("; the wider side is set by %s: %s", b.Dominant, b.Assumption)
	}
	if rel := in.Release(); rel.Outside() {
		b = b.Widen(outsideReleaseWiden)
		basis += fmt.Sprintf("; widened ×%.1f because vLLM %s is %s (modelled as %s)", outsideReleaseWiden, rel.Requested, rel.Match, rel.Version)
	}
	return b, basis
}

// judge gives v its band around the prediction and its verdict against
// the target: pass when the whole band meets the target, fail when none of
// it does, uncertain otherwise. higher says the figure must reach the
// target (throughput) rather than stay under it (latencies). Without a
// prediction (ok false) the verdict is fail.
func judge(v *Verdict, in *input.Input, r band.Regime, higher, ok bool) {
	if !ok || v.Predicted <= 0 {
		v.Verdict = VerdictFail
		return
	}
	b, basis := sloBand(in, r)
	lo, hi := b.Range(v.Predicted)
	v.Band, v.BandBasis = &BandRange{Low: lo, High: hi}, basis
	meets := func(x float64) bool {
		if higher {
			return x >= v.Target
		}
		return x <= v.Target
	}
	switch {
	case meets(lo) && meets(hi):
		v.Verdict = VerdictPass
	case !meets(lo) && !meets(hi):
		v.Verdict = VerdictFail
	default:
		v.Verdict = VerdictUncertain
	}
}

// ttftRegime maps a TTFT percentile onto the bands: the median with the
// mean's errors, the tail (p95, p99) with P99's.
func ttftRegime(q string) band.Regime {
	if q == "p50" {
		return band.TTFTMean
	}
	return band.TTFTP99
}

// classOf is the deployment's class (band.Classify): legacy for a release
// before V1 became the default (0.8) or an AMD GPU; otherwise by its model
// and layout.
func classOf(in *input.Input) band.Class {
	f := band.Facts{
		Legacy: (in.GPU != nil && in.GPU.Vendor == "amd") || in.Release().EngineEra().V1Default == vllm.Absent,
		MoE:    in.Model != nil && in.Model.IsMoE(),
		DPEP:   in.Layout.DP > 1 && in.Layout.EP,
	}
	return band.Classify(f)
}
