package plan

import (
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// Enumerate lists every candidate of the space for the spec's deployment
// d, in a fixed order (layout, weights and KV (Space.dtypes), backend, DBO, max_num_seqs,
// max_num_batched_tokens, speculative decoding). A backend and DBO are varied only where the
// MoE all-to-all runs (expert parallel with DP > 1) and the user did not
// pin the backend through VLLM_ALL2ALL_BACKEND. A layout that splits the
// checkpoint's block-quantized weights into partial blocks is left out
// with those weights (resolve.Layout.BlockSplitProblem), so plan never
// lists what vLLM refuses to start.
func (s Space) Enumerate(d *resolve.Deployment) []Settings {
	var out []Settings
	specs := specChoices(d)
	for _, l := range s.Layouts {
		if !vllm.DCPFits(l.TP, d.Engine.DCP.Value, d.Model.NumKVHeads, d.Model.IsMLA()) {
			continue // the spec's decode_context_parallel_size cannot split this TP group (SPEC135)
		}
		a2a := s.backendChoices(d, l)
		for _, f := range s.dtypes(Settings{}) {
			if l.BlockSplitProblem(d.Model, fromCheckpoint(d, f.weights)) != "" {
				continue // vLLM refuses to split these weights so (SPEC124)
			}
			for _, b := range a2a {
				for _, dbo := range s.dboChoices(d, b) {
					for _, seqs := range seqsChoices(d, l.DP*l.ReplicaCount()) {
						for _, toks := range s.Tokens {
							if toks > 0 && seqs > toks {
								continue // vLLM requires max_num_batched_tokens ≥ max_num_seqs
							}
							for _, sp := range specs {
								out = append(out, Settings{TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, Replicas: oneIsZero(l.ReplicaCount()), Weights: f.weights, KVCacheDType: f.kv,
									All2All: b, DBO: dbo, MaxNumSeqs: seqs, MaxNumBatchedTokens: toks, Speculative: sp.method, SpecTokens: sp.tokens})
							}
						}
					}
				}
			}
		}
	}
	return out
}

// backendChoices: `auto` always; the backends of backendsFor where the
// all-to-all runs, unless vllm.env selects the backend.
func (s Space) backendChoices(d *resolve.Deployment, l resolve.Layout) []string {
	out := []string{"auto"}
	if !l.EP || l.DP <= 1 || d.Engine.All2All.From == resolve.SourceEnv {
		return out
	}
	l.Nodes, l.GPUsPerNode = d.Layout.Nodes, d.Layout.GPUsPerNode
	return append(out, backendsFor(d, l.MultiNode())...)
}

// dboChoices: DBO off always; on too where the release has it and accepts
// the backend (vllm.DBORequirement; `auto` is tried with DBO through the
// backend it resolves to, so only named backends get it).
func (s Space) dboChoices(d *resolve.Deployment, backend string) []bool {
	if !s.DBO || backend == "auto" || !d.Release.DBORequirement().Accepts(backend) {
		return []bool{false}
	}
	return []bool{false, true}
}

// fromCheckpoint reports whether weights choice w serves the checkpoint's
// own weights (resolve.ResolveDTypes), the ones that carry its blocks.
func fromCheckpoint(d *resolve.Deployment, w string) bool {
	t, err := resolve.ResolveDTypes(d.Model, w, "auto")
	return err == nil && t.FromCheckpoint
}
