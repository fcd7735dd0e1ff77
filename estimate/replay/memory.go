package replay

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
)

// kvTokensPerRank is the KV capacity of one rank of the row's deployment as
// vLLM would budget it (the memory model of `vlaunch check`), with the
// engine's limits, and what a sequence costs of it (memory.Report.SeqCost;
// sim.Config.KV); 0 when it cannot be resolved (no limit then). SGLang's
// mem_fraction_static budget is modelled by vLLM's rule with the row's
// fraction (or vLLM's default), an approximation.
func kvTokensPerRank(r published.Row, e engine, weights, kv string) (int, memory.SeqCost) {
	l, h := r.Layout, r.Hardware
	o := resolve.QuickOptions{Model: r.Model.Catalog, GPU: r.Hardware.GPU, TP: l.TP.Int(), PP: max(1, l.PP.Int()), DP: l.DP.Int(),
		EP: l.EP.Int() > 1, Weights: weights, VLLMVersion: e.release.Version.String(), GPUsPerNode: h.GPUsPerNode.Int()}
	if kv == "fp8" {
		o.KVCacheDType = "fp8"
	}
	if f := r.Features; f.GPUMemoryUtilization.Positive() {
		o.GPUMemoryUtilization = f.GPUMemoryUtilization.V
	}
	if f := r.Features; f.MaxModelLen.Positive() {
		o.MaxModelLen = f.MaxModelLen.Int()
	}
	in, ds := input.Quick(o)
	if ds.HasErrors() {
		return 0, memory.SeqCost{}
	}
	in.MaxNumSeqs, in.MaxNumBatchedTokens = min(e.maxSeqs, profileMaxSeqs), min(e.batchTok, profileMaxTokens)
	m := memory.Estimate(&in)
	if m.KVTokensPerRank <= 0 {
		return 0, memory.SeqCost{}
	}
	return int(m.KVTokensPerRank), m.SeqCost()
}

// maxModelLen is the row's max_model_len, else the model's own.
func maxModelLen(r published.Row, modelMax int) int {
	if r.Features.MaxModelLen.Positive() {
		return r.Features.MaxModelLen.Int()
	}
	return modelMax
}

// The memory profile's batch: vLLM profiles the activation peak at its
// limits; SGLang's limits (a running-request cap of thousands, a chunk of
// up to the whole prompt under V0) are not profiled that way, so the
// profile is capped at vLLM's large-GPU defaults.
const (
	profileMaxSeqs   = 1024
	profileMaxTokens = 16384
)
