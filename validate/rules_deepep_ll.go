package validate

import (
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkDeepEPLLTokens: from vLLM 0.20.0 DeepEP low-latency's per-rank
// token capacity is max_num_batched_tokens, and DeepEP asserts
// NVSHMEM_QP_DEPTH ≥ 2·(capacity + 1) before every low-latency dispatch
// (vllm.Release.DeepEPLLTokens): a spec above the limit starts an engine
// that fails at its first MoE forward pass. It reads the assembled
// deployment, so the backend is the one that runs — `auto`'s choice
// included, which the message names as such.
func checkDeepEPLLTokens(c *checker) {
	if c.dep == nil {
		return
	}
	e := c.dep.Engine
	toks := e.MaxNumBatchedTokens.Value
	v := c.dep.Release.DeepEPLLTokens(e.All2All.Value, toks, e.Env[vllm.DeepEPQPDepthEnv])
	if !v.Refused {
		return
	}
	path := p("vllm", "max_num_batched_tokens")
	if e.MaxNumBatchedTokens.From != resolve.SourceSpec {
		path = p("vllm", "all2all_backend")
	}
	c.errorf(CodeBackend, path, v.Hint("vllm.max_num_batched_tokens", "in vllm.env"),
		"%s with max_num_batched_tokens %d cannot run: %s", backendOrigin(e), toks, v.Why(c.dep.Release, toks))
}

// backendOrigin names the running all-to-all backend and who chose it:
// `auto` says that it resolved so.
func backendOrigin(e resolve.Engine) string {
	switch e.All2All.From {
	case resolve.SourceAuto:
		return "all2all_backend auto, which resolves to " + e.All2All.Value + " here (" + e.All2All.Why + "),"
	case resolve.SourceEnv:
		return "all-to-all backend " + e.All2All.Value + " (" + e.All2All.Why + ")"
	case resolve.SourceRelease:
		return "all-to-all backend " + e.All2All.Value + " (the release's default)"
	}
	return "all2all_backend " + e.All2All.Value
}
