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

// ClassOf is a row's class (band.Classify): legacy for AMD GPUs, vLLM
// releases before 0.8 (the V0 engine) and SGLang releases before 0.5 (an
// unstated SGLang version counts as current); otherwise by its model and
// layout.
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
		return false
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
