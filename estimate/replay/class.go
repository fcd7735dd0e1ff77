package replay

import (
	"regexp"

	"github.com/vlaunch/vlaunch/calibration"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/vllm"
)

// sglangCurrent is the first SGLang release of the current class (SGLang
// 0.5, 2025-08; earlier builds lack the DeepGEMM and tuned fused-MoE paths
// the calibration's SGLang rows ran).
var sglangCurrent, _ = vllm.ParseVersion("0.5.0")

// ClassOf is a row's engine and hardware class: legacy for AMD GPUs, vLLM
// releases before 0.8 (the V0 engine) and SGLang releases before 0.5;
// current otherwise (an unstated SGLang version counts as current).
func ClassOf(r calibration.Row) band.Class {
	if g, err := catalog.LookupGPU(r.Hardware.GPU); err == nil && g.Vendor == "amd" {
		return band.Legacy
	}
	v, err := vllm.ParseVersion(releaseOf(r.Engine.Version))
	switch {
	case err != nil:
		return band.Current
	case r.Engine.Name == "vllm":
		if rel, _ := vllm.Resolve(v); rel.EngineEra().V1Default == vllm.Absent {
			return band.Legacy
		}
	case r.Engine.Name == "sglang" && v.Less(sglangCurrent):
		return band.Legacy
	}
	return band.Current
}

var releaseRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?`)

// releaseOf is the x.y[.z] a published version starts with
// ("0.6.3.post2.dev308+gb489fc3c" → "0.6.3"; "" when none).
func releaseOf(v string) string { return releaseRE.FindString(v) }
