package lint

import (
	"github.com/vlaunch/vlaunch/vllm"
)

// checkDeepEPLLTokens reports DeepEP low-latency with more
// --max-num-batched-tokens than DeepEP's queue-depth assert allows
// (VL136): from vLLM 0.20.0 the tokens are the per-rank dispatch capacity,
// and DeepEP asserts NVSHMEM_QP_DEPTH ≥ 2·(capacity + 1) before every
// low-latency dispatch (vllm.Release.DeepEPLLTokens, the check validate
// makes on a spec, SPEC118). The backend is the one vLLM selects (flag,
// variable or default); an unset token limit is vLLM's 256 with this
// backend, which fits, and an unresolved value is not judged.
func checkDeepEPLLTokens(p *pass) {
	for _, s := range p.Servers {
		name, _, _ := s.Backend()
		dp := s.DP()
		if name != vllm.BackendDeepEPLowLatency || !s.EP() || (dp.Known && dp.N <= 1) {
			continue // no all-to-all runs (VL109's finding)
		}
		toks := s.Int("max-num-batched-tokens", 0)
		if !toks.Set || !toks.Known {
			continue
		}
		depth := ""
		if env, ok := s.Inv.LookupEnv(vllm.DeepEPQPDepthEnv); ok {
			if !env.Value.Known {
				continue
			}
			depth = env.Value.Text
		}
		v := s.Rel.DeepEPLLTokens(name, toks.N, depth)
		if !v.Refused {
			continue
		}
		p.ReportVersioned(s, toks.At, v.Hint("--max-num-batched-tokens", "in the engine's environment"),
			"%s with --max-num-batched-tokens %d cannot run: %s", name, toks.N, v.Why(s.Rel, toks.N))
	}
}
