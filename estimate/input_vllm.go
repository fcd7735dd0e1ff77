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
