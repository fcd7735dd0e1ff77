package replay

import (
	"regexp"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// sglangCurrent is the first SGLang release of the current class (SGLang
// 0.5, 2025-08; earlier builds lack the DeepGEMM and tuned fused-MoE paths
// the calibration's SGLang rows ran).
var sglangCurrent, _ = vllm.ParseVersion("0.5.0")

// sglangCurrentBumped is the day SGLang's main branch became 0.5.0rc0
// (sgl-project/sglang PR #8959 "chore: bump v0.5.0rc0", merged 2025-08-08):
// a run published before it ran a 0.4.x build or older, whatever the
// source leaves unstated.
const sglangCurrentBumped = "2025-08-08"

// ClassOf is a row's class (band.Classify): legacy for AMD GPUs, vLLM
// releases before 0.8 (the V0 engine) and SGLang releases before 0.5 (an
// unstated SGLang version is legacy when the source predates 0.5.0rc0,
// else current); otherwise by its model and layout.
func ClassOf(r published.Row) band.Class {
	f := band.Facts{Legacy: legacyRow(r)}
	if m, err := catalog.LookupModel(r.Model.Catalog); err == nil {
		f.MoE = m.IsMoE()
	}
	f.DPEP = r.Layout.DP.V > 1 && r.Layout.EP.V > 1
	return band.Classify(f)
}

// legacyRow reports whether a row ran on an AMD GPU or a legacy engine.
func legacyRow(r published.Row) bool {
	if g, err := catalog.LookupGPU(r.Hardware.GPU); err == nil && g.Vendor == "amd" {
		return true
	}
	v, err := vllm.ParseVersion(releaseOf(r.Engine.Version))
	switch {
	case err != nil:
		return r.Engine.Name == "sglang" && publishedBefore(r.SourceDate, sglangCurrentBumped)
	case r.Engine.Name == "vllm":
		rel, _ := vllm.Resolve(v)
		return rel.EngineEra().V1Default == vllm.Absent
	case r.Engine.Name == "sglang":
		return v.Less(sglangCurrent)
	}
	return false
}

var releaseRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?`)

// releaseOf is the x.y[.z] a published version starts with
// ("0.6.3.post2.dev308+gb489fc3c" → "0.6.3"; "" when none).
func releaseOf(v string) string { return releaseRE.FindString(v) }

// publishedBefore reports whether date (YYYY-MM-DD) is a known day before
// day; "unknown" or any other text is not.
func publishedBefore(date, day string) bool {
	return dateRE.MatchString(date) && date < day
}

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
