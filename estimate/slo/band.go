package slo

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/vllm"
)

// VerdictUncertain is an SLO whose prediction band straddles its target:
// the prediction says pass or fail, but published runs of setups the model
// was not fitted to miss by more than the distance to the target.
const VerdictUncertain = "uncertain"

// BandRange is a prediction's band in the figure's unit. An open side
// (band.Band's OpenLow, OpenHigh) is Low 0 and High +Inf, written null in
// JSON, which has no infinity.
type BandRange struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// bandJSON is BandRange on the wire: a nil side is open.
type bandJSON struct {
	Low  *float64 `json:"low"`
	High *float64 `json:"high"`
}

// MarshalJSON writes an open side as null.
func (b BandRange) MarshalJSON() ([]byte, error) {
	var w bandJSON
	if b.Low > 0 {
		w.Low = &b.Low
	}
	if !math.IsInf(b.High, 1) {
		w.High = &b.High
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a null side as open.
func (b *BandRange) UnmarshalJSON(data []byte) error {
	var w bandJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = BandRange{High: math.Inf(1)}
	if w.Low != nil {
		b.Low = *w.Low
	}
	if w.High != nil {
		b.High = *w.High
	}
	return nil
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
	whose := fmt.Sprintf("the %s errors of %s deployments", r, c)
	if c == band.Legacy {
		whose = fmt.Sprintf("the %s errors of legacy deployments (AMD GPUs, and engine releases before vLLM 0.8 or SGLang 0.5: none of them in the fitted rows; this deployment is one because %s)", r, legacyWhy(in))
	}
	if b.Pooled {
		whose = fmt.Sprintf("the %s errors of every current class, pooled because %s deployments have fewer than %d held-out sources of their own", r, c, band.MinSources)
	}
	basis := fmt.Sprintf("the prediction's accuracy band from held-out published figures: where a figure of a setup the model was not fitted to falls about 4 times in 5, from %s (%d figures from %d sources; a source effect plus noise within each source)",
		whose, b.N, len(b.Sources))
	if b.Dominant != "" {
		basis += fmt.Sprintf("; the wider side is set by %s: %s", b.Dominant, b.Assumption)
	}
	if b.OwnSpread {
		basis += fmt.Sprintf("; widened to the interval of its %d %s sources alone, which disagree by %.1f× (Student's t on %d degree%s of freedom: few sources pin down little)",
			b.Own, c, b.OwnDisagree, b.Own-1, textfmt.PluralS(b.Own-1))
	}
	if b.Beyond != "" {
		basis += fmt.Sprintf("; stretched to ×%.2f–×%.2f to hold every figure of the %d %s source%s, since the pool does not know this class's offset (%s lies outside the pool's interval): few sources of its own",
			b.Low, b.High, b.Own, c, textfmt.PluralS(b.Own), b.Beyond)
	}
	if rel := in.Release(); rel.Outside() {
		b = b.Widen(outsideReleaseWiden)
		basis += fmt.Sprintf("; widened ×%.1f because vLLM %s is %s (modelled as %s)", outsideReleaseWiden, rel.Requested, rel.Match, rel.Version)
	}
	if why := openWhy(b); why != "" {
		basis += "; " + why
	}
	return b, basis
}

// openWhy says which sides of b are open and why: too few sources to know
// how far a new setup can be off, or sources that disagree by more than a
// band can say (band.MaxFactor).
func openWhy(b band.Band) string {
	var side string
	switch {
	case b.OpenLow && b.OpenHigh:
		side = "no bound on either side"
	case b.OpenLow:
		side = "no lower bound"
	case b.OpenHigh:
		side = "no upper bound"
	default:
		return ""
	}
	if b.Few() {
		return fmt.Sprintf("%s: few sources (%d, fewer than the %d a band needs), so a verdict that depends on it is uncertain", side, len(b.Sources), band.MinSources)
	}
	if b.OwnSpread {
		return fmt.Sprintf("%s: few sources of its own (%d %s sources, fewer than the %d a band needs, disagreeing by %.1f×), so a verdict that depends on it is uncertain", side, b.Own, b.Class, band.MinSources, b.OwnDisagree)
	}
	return fmt.Sprintf("%s: the sources disagree by up to %.1f× (beyond the ×%g a band can say), so a verdict that depends on it is uncertain", side, b.Disagree, band.MaxFactor)
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
	rejudge(v, higher)
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
		Legacy: amdGPU(in) || preV1(in),
		MoE:    in.Model != nil && in.Model.IsMoE(),
		DPEP:   in.Layout.DP > 1 && in.Layout.EP,
	}
	return band.Classify(f)
}

// amdGPU says the deployment runs on AMD GPUs: the legacy class's bands,
// since the held-out AMD runs miss by far more than NVIDIA ones on the
// same engines (per-release ROCm kernels the constants were not fitted to).
func amdGPU(in *input.Input) bool { return in.GPU != nil && in.GPU.Vendor == "amd" }

// preV1 says the deployment's vLLM release predates the V1 engine's
// default (0.8).
func preV1(in *input.Input) bool { return in.Release().EngineEra().V1Default == vllm.Absent }

// legacyWhy says why a legacy-class deployment is one: a user on a
// current vLLM release on AMD would otherwise read "legacy" as a claim
// about their release (qa43 F6).
func legacyWhy(in *input.Input) string {
	switch {
	case amdGPU(in) && preV1(in):
		return "its GPU is AMD and its vLLM release predates the V1 engine's default"
	case amdGPU(in):
		return fmt.Sprintf("its GPU is AMD (%s), whatever the release", in.GPU.Name)
	}
	return "its vLLM release predates the V1 engine's default (0.8)"
}
