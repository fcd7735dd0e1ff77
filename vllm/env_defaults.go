package vllm

import "strings"

// envDefault is the value vLLM uses for an unset environment variable in
// the releases of its Span (a zero Since: every release that reads it): the
// defaults that changed between releases, which the single Default of the
// env table can only describe in words.
type envDefault struct {
	Name string
	Span
	Value    string
	Verified bool
	Source   string
}

const (
	srcDeepGEMM = "vllm-facts.md §2.1: VLLM_USE_DEEP_GEMM 0 → 1 since PR #24462 (Sep 2025, ≈v0.11.0; the release is unverified)"
	srcFusedMoE = "vllm/envs.py VLLM_FUSED_MOE_CHUNK_SIZE, as the estimator's memory calibration assumes (docs/calibration-memory.md); its history is unverified"
)

var envDefaultTable = []envDefault{
	{Name: "VLLM_USE_DEEP_GEMM", Span: Span{Removed: v0110}, Value: "0", Source: srcDeepGEMM},
	{Name: "VLLM_USE_DEEP_GEMM", Span: Span{Since: v0110}, Value: "1", Source: srcDeepGEMM},
	{Name: "VLLM_FUSED_MOE_CHUNK_SIZE", Value: "32768", Source: srcFusedMoE},
	// Off before 0.20.0 (PR #30515: opt-in), on from it (PR #38284; a 0.20.0
	// log shows it on although vLLM's line says "default since v0.21.0");
	// Release.GraphMemoryProfiling holds the same rule.
	{Name: GraphMemoryVariable, Span: Span{Removed: graphMemoryDefaultOn.Since}, Value: "0", Source: srcGraphMemory},
	{Name: GraphMemoryVariable, Span: graphMemoryDefaultOn, Value: "1", Source: srcGraphMemory},
}

// EnvDefault returns the value release r uses for the variable when it is
// unset: the release's entry among the defaults that changed, else the env
// table's Default when it is a single value. A variable vLLM made
// configurable after r gets that default too, the value vLLM used before it
// could be changed (an assumption where the table says "first release
// unverified"). ok is false when vlaunch knows no default.
func (r Release) EnvDefault(name string) (value string, ok bool) {
	for _, d := range envDefaultTable {
		if d.Name == name && d.Contains(r.Version) {
			return d.Value, true
		}
	}
	e, found := r.Env(name)
	if !found {
		e, found = KnownEnvEver(name)
	}
	if !found || e.Default == "" || strings.ContainsAny(e.Default, " (") {
		return "", false
	}
	return e.Default, true
}
