package vllm

import "strings"

// UseV1Env is the variable that chose between the V0 and V1 engines.
const UseV1Env = "VLLM_USE_V1"

// EngineEraWithEnv is the release's engine era as a server started with
// env runs it: where the release reads VLLM_USE_V1 (the env table's
// span for it, env_table_more.go) and has the engine it names, "1" makes
// V1 the engine it serves with (V1Default Present) and "0" V0 (V1Default
// Absent); otherwise, or without the variable, the release's default
// (EngineEra). qa44c F6: vllm PR #12569 ran VLLM_USE_V1=1 on 0.7.x, and
// check still took the V0 engine's scheduler defaults.
func (r Release) EngineEraWithEnv(env map[string]string) EngineEra {
	e := r.EngineEra()
	v, set := env[UseV1Env]
	if !set {
		return e
	}
	if _, read := r.Env(UseV1Env); !read {
		return e // the release no longer reads the switch
	}
	switch strings.TrimSpace(v) {
	case "1":
		if e.V1 != Absent {
			e.V1Default = Present
		}
	case "0":
		if e.V0 != Absent {
			e.V1Default = Absent
		}
	}
	return e
}

// V1OptInBatchDefaults are the V1 engine's scheduler defaults in a
// release where V1 is opted into (VLLM_USE_V1=1) rather than the default
// (before 0.8.0): EngineArgs._override_v1_engine_args in
// vllm/engine/arg_utils.py of the 0.7 line sets max_num_seqs 1024 and
// max_num_batched_tokens 2048 for the OpenAI API server (8192 for the LLM
// class), whatever the GPU; the GPU tiers of BatchDefaults came later.
// Read from a stored copy of that file; the exact tags that carry it are
// not verified beyond the 0.7 line.
func V1OptInBatchDefaults(apiServer bool) (maxNumSeqs, maxNumBatchedTokens int) {
	if apiServer {
		return 1024, 2048
	}
	return 1024, 8192
}
