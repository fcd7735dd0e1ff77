package estimate

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// vllmDefaults are the release-dependent defaults the estimator needs.
type vllmDefaults struct {
	Version                         string
	GPUMemoryUtilization            float64
	MaxNumSeqs, MaxNumBatchedTokens int
	All2AllBackend                  string
}

// versionDefaults takes the defaults from package vllm (the one place that
// knows what each release does) for the API server (`vllm serve`).
func versionDefaults(version string, g *catalog.GPU) (vllmDefaults, []string) {
	var rel vllm.Release
	var warns []string
	if version == "" {
		rel = vllm.Newest()
	} else {
		r, w, err := vllm.ResolveString(version)
		if err != nil {
			rel, warns = vllm.Newest(), []string{err.Error() + "; using the newest known release's defaults"}
		} else {
			rel, warns = r, w
		}
	}
	d := rel.Defaults()
	seqs, toks := rel.BatchDefaults(g.Name, g.MemoryGiB(), true)
	return vllmDefaults{Version: rel.Version.String(), GPUMemoryUtilization: d.GPUMemoryUtilization,
		MaxNumSeqs: seqs, MaxNumBatchedTokens: toks, All2AllBackend: d.All2AllBackend}, warns
}

// V0 engine scheduler defaults (vLLM < 0.8, vllm-facts §4.9 "Older V0
// default max_num_seqs was 256"): without chunked prefill a step must hold a
// whole prompt, so max_num_batched_tokens = max(max_model_len, 2048); vLLM
// enables chunked prefill above 32K context, with a 2048-token budget.
const (
	legacyV0MaxNumSeqs    = 256
	legacyV0ChunkedAbove  = 32768
	legacyV0BatchedTokens = 2048
)

func legacyV0BatchDefaults(maxModelLen int) (seqs, tokens int) {
	if maxModelLen > legacyV0ChunkedAbove {
		return legacyV0MaxNumSeqs, legacyV0BatchedTokens
	}
	return legacyV0MaxNumSeqs, max(maxModelLen, legacyV0BatchedTokens)
}
