package resolve

import (
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// poolOverride ties a field of a pool's vllm block (spec.PoolVLLM) to the
// engine setting it decides, so that the setting can say it is the pool's.
type poolOverride struct {
	// Key is the field's path under the pool's vllm block, as the spec
	// spells it (spec.PoolVLLM.Writes).
	Key string
	// From is the source the setting has when the field decided it: a
	// setting whose From differs came from elsewhere (a release default, a
	// backend that forces its own value) and keeps its own Why.
	From Source
	// Origin is the setting's From and Why (nil when the engine has none:
	// no speculative decoding).
	Origin func(e *Engine) (*Source, *string)
}

// poolOverrides are the pool fields that decide a Setting. The other
// fields of spec.PoolVLLM (enable_dbo, enable_eplb, num_redundant_experts,
// extra_args, the rest of env) feed no Setting, so no Why records them
// (TestPoolOverridesCoverPoolVLLM lists them).
var poolOverrides = []poolOverride{
	{"gpu_memory_utilization", SourceSpec, func(e *Engine) (*Source, *string) { return e.GPUMemoryUtilization.origin() }},
	{"kv_cache_dtype", SourceSpec, func(e *Engine) (*Source, *string) { return e.KVCacheDType.origin() }},
	{"all2all_backend", SourceSpec, func(e *Engine) (*Source, *string) { return e.All2All.origin() }},
	{"env." + vllm.All2AllEnv, SourceEnv, func(e *Engine) (*Source, *string) { return e.All2All.origin() }},
	{"max_num_seqs", SourceSpec, func(e *Engine) (*Source, *string) { return e.MaxNumSeqs.origin() }},
	{"max_num_batched_tokens", SourceSpec, func(e *Engine) (*Source, *string) { return e.MaxNumBatchedTokens.origin() }},
	{"block_size", SourceSpec, func(e *Engine) (*Source, *string) { return e.BlockSize.origin() }},
	{"api_server_count", SourceSpec, func(e *Engine) (*Source, *string) { return e.APIServers.origin() }},
	{"decode_context_parallel_size", SourceSpec, func(e *Engine) (*Source, *string) { return e.DCP.origin() }},
	{"enforce_eager", SourceSpec, func(e *Engine) (*Source, *string) { return e.CUDAGraphs.origin() }},
	{"speculative.mean_acceptance_length", SourceSpec, func(e *Engine) (*Source, *string) {
		if e.Speculative == nil {
			return nil, nil
		}
		return e.Speculative.Acceptance.origin()
	}},
}

// markPoolOverrides makes every setting the pool's vllm block decided say
// so: its Why names the pool's field (PoolOverrideWhy) instead of the
// top level's wording. A field the pool writes but that did not decide the
// setting (an `auto` all2all_backend, a block size the attention backend
// forces, an api_server_count the release has no flag for) is left alone:
// its From says what did.
func markPoolOverrides(role string, pool spec.PoolVLLM, e *Engine) {
	for _, o := range poolOverrides {
		if !pool.Writes(o.Key) {
			continue
		}
		if from, why := o.Origin(e); from != nil && *from == o.From {
			*why = PoolOverrideWhy(role, o.Key)
		}
	}
}

// PoolOverrideWhy is the Why of a setting a pool's vllm block overrides:
// where the value was written ("disaggregation.decode.vllm.max_num_seqs,
// the decode pool's override"). No parentheses: reports and the bundle's
// README put a Why in parentheses of their own.
func PoolOverrideWhy(role, key string) string {
	return "disaggregation." + role + ".vllm." + key + ", the " + role + " pool's override"
}
