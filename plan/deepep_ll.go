package plan

import (
	"fmt"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// deepEPLLRefused says why a resolved candidate's engine would fail at its
// first MoE forward pass: deepep_low_latency (named, or `auto`'s choice)
// with more max_num_batched_tokens than DeepEP's queue-depth assert allows
// (vllm.Release.DeepEPLLTokens; the check `vlaunch validate` makes,
// SPEC118). nil when it runs. The reason names only the limit, so every
// such candidate counts under one reason.
func deepEPLLRefused(dep *resolve.Deployment) error {
	e := dep.Engine
	v := dep.Release.DeepEPLLTokens(e.All2All.Value, e.MaxNumBatchedTokens.Value, e.Env[vllm.DeepEPQPDepthEnv])
	if !v.Refused {
		return nil
	}
	return fmt.Errorf("%s with max_num_batched_tokens above %d: DeepEP asserts %s (%d) ≥ 2·(tokens per rank + 1) from vLLM 0.20.0", vllm.BackendDeepEPLowLatency, v.Limit, vllm.DeepEPQPDepthEnv, v.Depth)
}
