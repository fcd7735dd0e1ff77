package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkDCP: vllm.decode_context_parallel_size as vLLM takes it
// (vllm.Release.DCP): the flag exists in the release, the tensor size is a
// multiple of it (DCP splits each TP group, it adds no GPUs), and the
// model's attention can be split by token: MLA up to the tensor size; GQA
// only from the release that runs it (FlashAttention), with more TP ranks
// than KV heads and at most tensor / KV heads.
func checkDCP(c *checker) {
	v := c.d.VLLM.DecodeContextParallelSize
	if v == nil || *v <= 1 || !c.ok(p("vllm", "decode_context_parallel_size")) {
		return
	}
	dcp, path := *v, p("vllm", "decode_context_parallel_size")
	if c.relOK && c.rel.DCP().Flag == vllm.Absent {
		c.errorf(CodeDCP, path, "use vLLM "+vllm.DCPSince().String()+" or later, or leave decode_context_parallel_size out",
			"vLLM %s has no --decode-context-parallel-size (first release %s): it refuses the flag", c.rel, vllm.DCPSince())
		return
	}
	par := c.d.Parallelism
	if par.Auto || !c.ok(p("parallelism")) {
		return
	}
	if tp := par.Tensor; tp%dcp != 0 {
		c.errorf(CodeDCP, path, "use a size that divides tensor ("+joinInts(divisors(tp))+")",
			"decode_context_parallel_size %d does not divide tensor %d: DCP splits each tensor-parallel group and adds no GPUs, so vLLM needs tensor %% dcp == 0", dcp, tp)
		return
	}
	if c.model == nil {
		return
	}
	if stateHybrid(c.model) {
		if c.relOK && !c.rel.Version.Less(hybridDCPRefusedFrom) && c.rel.Version.Less(hybridDCPRefusedUntil) {
			c.errorf(CodeDCP, path, "leave decode_context_parallel_size out for this model on vLLM "+c.rel.String(),
				"%s keeps per-sequence state beside its attention, so vLLM lays its KV cache out in several groups, and vLLM %s stops at start-up with DCP > 1 on such a layout, right after sizing it (\"Hybrid KV cache groups with multiple block sizes do not support context parallelism\": %s)",
				modelLabel(c), c.rel, srcHybridDCP)
		} else {
			c.warnf(CodeDCPPacked, path, "check vLLM's \"GPU KV cache size\" line against check's, and that the release starts with DCP on this model",
				"%s keeps per-sequence state beside its attention: vlaunch splits its attention pages by token (vLLM's spec rule) and keeps the state whole, but whether vLLM %s runs DCP on such a layout is not read (0.20.0-0.24.0 refuse it: %s)",
				modelLabel(c), c.rel, srcHybridDCP)
		}
	} else if packedKV(c.model) {
		c.warnf(CodeDCPPacked, path, "check vLLM's \"GPU KV cache size\" line against check's; vlaunch counts this model's KV cache as if decode_context_parallel_size were 1",
			"%s keeps sliding-window or compressed caches that vLLM packs in shared pages: vlaunch sizes its KV cache without decode context parallelism (its memory model splits only plain attention pages and a state hybrid's attention pages by token)", modelLabel(c))
	}
	if c.model.IsMLA() {
		checkDCPBackend(c, path)
		return
	}
	if c.relOK && c.rel.DCP().GQA == vllm.Absent {
		c.errorf(CodeDCP, path, "use vLLM "+vllm.DCPGQASince().String()+" or later (FlashAttention), or leave decode_context_parallel_size out",
			"vLLM %s runs decode context parallelism only for MLA models; %s has %d KV heads (GQA from %s, PR #24864)", c.rel, modelLabel(c), c.model.NumKVHeads, vllm.DCPGQASince())
		return
	}
	if limit := vllm.DCPLimit(par.Tensor, c.model.NumKVHeads, false); dcp > limit {
		c.errorf(CodeDCP, path, "DCP only removes the KV heads' replication: raise tensor above the KV heads first, then dcp up to tensor / KV heads",
			"decode_context_parallel_size %d at tensor %d with %s's %d KV heads: vLLM needs tensor > KV heads and dcp <= tensor / KV heads (%d)",
			dcp, par.Tensor, modelLabel(c), c.model.NumKVHeads, limit)
		return
	}
	checkDCPBackend(c, path)
}

// checkDCPBackend applies vllm.Release.DCPBackend to the attention backend
// the engine runs: the one the spec forces (--attention-backend in
// vllm.extra_args where the release has the flag, else VLLM_ATTENTION_BACKEND
// in vllm.env where the release reads it), else the release's default for
// the GPU (Release.MLABackend, Release.GQABackend; vLLM's selector does not
// weigh DCP, so the default is what starts). A forced backend that refuses
// DCP in the release is an error (vLLM's start-up assertion), a default one
// a warning (the defaults are not read release by release); an unknown one
// an info.
func checkDCPBackend(c *checker, path []string) {
	if !c.relOK || c.model == nil {
		return
	}
	backend, how := forcedAttentionBackend(c)
	if backend == "" {
		sm := 0
		if c.gpu != nil {
			sm = c.gpu.ComputeMajor
		}
		if sm == 0 {
			return
		}
		if c.model.IsMLA() {
			backend, _ = c.rel.MLABackend(sm, strings.HasPrefix(c.d.VLLM.KVCacheDType, "fp8"), c.model.IsSparseAttention())
		} else {
			backend, _ = c.rel.GQABackend(sm)
		}
		if backend == "" {
			return
		}
		how = "vLLM's default for this GPU"
	}
	pr, f, _ := c.rel.DCPBackend(backend)
	switch pr {
	case vllm.Absent:
		hint := "force an attention backend that returns it"
		if ok := c.rel.DCPBackendsAccepted(c.model.IsMLA()); len(ok) > 0 {
			hint += " (in vLLM " + c.rel.Version.String() + ": " + strings.Join(ok, ", ") + ", where it runs on the GPU)"
		}
		hint += ", use a release where " + backend + " does, or leave decode_context_parallel_size out"
		report := c.errorf
		if forced, _ := forcedAttentionBackend(c); forced == "" {
			// The backend is vLLM's default as vlaunch reads it
			// (Release.MLABackend / GQABackend), not read release by
			// release: the refusal is as certain as that reading, a
			// warning; a backend the spec forces is an error.
			report = c.warnf
		}
		report(CodeDCP, path, hint,
			"vLLM %s refuses decode context parallelism on the %s attention backend (%s): vLLM asserts at start-up that every attention implementation returns the softmax LSE for decode, and %s does not in this release (%s)",
			c.rel, backend, how, backend, f.Cite)
	case vllm.Maybe:
		c.add(diag.Info, CodeDCP, path, "",
			"whether vLLM %s runs decode context parallelism on the %s attention backend (%s) is not pinned: vLLM refuses at start-up a backend whose implementation returns no softmax LSE for decode (%s)",
			c.rel, backend, how, f.Cite)
	}
}

// forcedAttentionBackend is the attention backend the spec forces and how:
// --attention-backend in vllm.extra_args (where the release has the flag),
// else VLLM_ATTENTION_BACKEND in vllm.env (where the release reads it).
func forcedAttentionBackend(c *checker) (backend, how string) {
	if _, ok := c.rel.Flag("attention-backend"); ok {
		args := c.d.VLLM.ExtraArgs
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, "--attention-backend="); ok && v != "" {
				return strings.ToUpper(v), "--attention-backend in vllm.extra_args"
			}
			if a == "--attention-backend" && i+1 < len(args) {
				return strings.ToUpper(args[i+1]), "--attention-backend in vllm.extra_args"
			}
		}
	}
	if v := c.d.VLLM.Env[vllm.AttentionBackendEnv]; v != "" && c.rel.ReadsAttentionBackendEnv() {
		return strings.ToUpper(v), vllm.AttentionBackendEnv + " in vllm.env"
	}
	return "", ""
}

// divisors are n's divisors above 1.
func divisors(n int) []int {
	var out []int
	for d := 2; d <= n; d++ {
		if n%d == 0 {
			out = append(out, d)
		}
	}
	return out
}

// srcHybridDCP cites vLLM's refusal of DCP on a multi-group KV cache.
const srcHybridDCP = "vllm/v1/core/kv_cache_utils.py resolve_kv_cache_block_sizes, called by vllm/v1/engine/core.py after _initialize_kv_caches, " +
	"raises it for more than one KV cache group when dcp or pcp > 1: read at the v0.20.0, v0.21.0, v0.22.0 and v0.24.0 tags; " +
	"v0.19.1's core.py computes the scheduler block without the check"

// hybridDCPRefusedFrom and hybridDCPRefusedUntil bound the releases read to
// refuse DCP on a multi-group layout (srcHybridDCP): 0.20.0 to 0.24.x.
var (
	hybridDCPRefusedFrom, _  = vllm.ParseVersion("0.20.0")
	hybridDCPRefusedUntil, _ = vllm.ParseVersion("0.25.0")
)

// stateHybrid reports a model with per-sequence state layers (Gated
// DeltaNet, Mamba-2, Kimi Delta Attention) and no sliding-window or
// compressed caches: vLLM groups its attention and state layers in shared
// pages, and the memory model splits the attention pages by token under
// DCP (estimate/memory KVLayout.DCP).
func stateHybrid(m *catalog.Model) bool {
	if m.GDN == nil && m.Mamba == nil && m.KimiLinear == nil || m.DSV4 != nil {
		return false
	}
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			return false
		}
	}
	return true
}

// packedKV reports a model whose KV cache vLLM lays out in packed pages
// (estimate/memory's packed layouts: DeepSeek-V4's compressed caches,
// Gated DeltaNet and Mamba-2 states, sliding-window beside full attention,
// per-layer attention kinds), which the memory model sizes without DCP.
func packedKV(m *catalog.Model) bool {
	if m.DSV4 != nil || m.GDN != nil || m.Mamba != nil || m.HasLayerAttention() {
		return true
	}
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			return true
		}
	}
	return false
}
