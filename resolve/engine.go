package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// EngineSettings are the raw engine settings (as written in a spec or given
// as quick-form flags) that resolution turns into effective values.
type EngineSettings struct {
	Weights, KVCacheDType, All2All             string
	Util                                       *float64
	MaxModelLen                                int
	MaxNumSeqs, MaxNumBatchedTokens, BlockSize *int
	EnforceEager, EnableDBO, EnableEPLB        bool
	Redundant                                  int
	Env                                        map[string]string
	// APIServerCount is vllm.api_server_count (nil: unset).
	APIServerCount *int
	// DCP is vllm.decode_context_parallel_size (nil: unset, vLLM's 1).
	DCP *int
	// Speculative is vllm.speculative (nil: off); Draft its draft model's
	// architecture when one is named.
	Speculative *spec.Speculative
	Draft       *catalog.Model
	// ExtraArgs is vllm.extra_args (the pool's, merged, in a P/D spec):
	// resolveLoRA reads the LoRA flags from it.
	ExtraArgs []string
}

// DefaultBlockSize is vLLM's --block-size default, which attention
// backends that do not force their own keep.
const DefaultBlockSize = 16

// resolveEngine fills dtypes, release defaults and what depends on the
// layout (the all2all backend, CUDA graphs).
func (d *Deployment) resolveEngine(e EngineSettings) error {
	if err := d.resolveDTypes(e.Weights, e.KVCacheDType); err != nil {
		return err
	}
	eng := &d.Engine
	eng.GPUMemoryUtilization = set(d.Defaults.GPUMemoryUtilization, SourceRelease, "vLLM "+d.Version.Value+" default")
	if e.Util != nil {
		eng.GPUMemoryUtilization = set(*e.Util, SourceSpec, "")
	}
	if u, r := eng.GPUMemoryUtilization.Value, gpuMemoryUtilizationRange(); !r.Contains(u) {
		return fieldErr("vllm.gpu_memory_utilization", fmt.Sprintf("gpu_memory_utilization %g is outside %s", u, r),
			"vLLM's default is 0.9 (0.92 in newer releases)")
	}
	d.resolveLengths(e)
	eng.All2AllAsked, eng.Env = e.All2All, e.Env // the ROCm MLA backend reads vllm.env
	if err := d.resolveBlockSize(e.BlockSize); err != nil {
		return err
	}
	if e.APIServerCount != nil {
		eng.APIServersAsked = *e.APIServerCount
	}
	eng.EnableDBO, eng.EnableEPLB, eng.NumRedundantExperts, eng.EnforceEager = e.EnableDBO, e.EnableEPLB, e.Redundant, e.EnforceEager
	eng.DCP = set(1, SourceRelease, "vLLM's default: decode context parallelism off")
	if e.DCP != nil && *e.DCP > 0 {
		eng.DCP = set(*e.DCP, SourceSpec, "")
	}
	if l := d.Layout; l.TP <= 0 || l.PP <= 0 || l.DP <= 0 {
		return fieldErr("parallelism", "tensor, pipeline and data parallel sizes must be positive", "")
	}
	eng.KVCacheMemoryBytes = readKVCacheMemoryBytes(d.Release, e.ExtraArgs)
	eng.LoRA = resolveLoRA(d.Release, d.Version.Value, e.ExtraArgs)
	eng.LoRA.Embeddings = loraEmbeddings(d.Model, d.Release)
	if eng.LoRA.Storage == "" {
		eng.LoRA.Storage = "bf16" // lora_dtype auto: the model's activation dtype
		if eng.WeightsDType.Value == "fp16" || d.Model.TorchDType == "float16" {
			eng.LoRA.Storage = "fp16"
		}
	}
	d.resolveForLayout()
	return d.resolveSpeculative(e.Speculative, e.Draft)
}

// gpuMemoryUtilizationRange is what vLLM accepts for the utilization.
func gpuMemoryUtilizationRange() vllm.Range {
	r, _ := vllm.FlagRange("gpu-memory-utilization")
	return r
}

// resolveForLayout re-derives what depends on the layout.
func (d *Deployment) resolveForLayout() {
	d.resolveAll2All()
	d.applyBatchDefaults()
	d.Engine.CUDAGraphs = cudaGraphs(d.Release, d.Engine, d.Layout)
	d.resolveAPIServers()
}

// cudaGraphs: vLLM captures CUDA graphs unless enforce_eager, or the
// backend's kernels are not graph-compatible with DP > 1 (DeepEP's normal
// kernels: vLLM forces eager mode / cudagraph_mode NONE); the rule is
// vllm.Release.CUDAGraphs.
func cudaGraphs(r vllm.Release, e Engine, l Layout) Setting[bool] {
	switch {
	case e.EnforceEager:
		return set(false, SourceSpec, "enforce_eager")
	case !r.CUDAGraphs(e.All2All.Value, l.DP, false):
		return set(false, SourceDerived, "vLLM runs "+e.All2All.Value+" without CUDA graphs when DP > 1")
	}
	return set(true, SourceRelease, "")
}

func (d *Deployment) resolveLengths(e EngineSettings) {
	eng := &d.Engine
	eng.MaxModelLen = set(e.MaxModelLen, SourceSpec, "")
	if e.MaxModelLen <= 0 {
		eng.MaxModelLen = set(d.Model.MaxModelLen(), SourceDerived, "the model's "+d.Model.MaxModelLenSource())
	}
	eng.MaxNumSeqs = set(0, SourceRelease, "")
	if e.MaxNumSeqs != nil && *e.MaxNumSeqs > 0 {
		eng.MaxNumSeqs = set(*e.MaxNumSeqs, SourceSpec, "")
	}
	eng.MaxNumBatchedTokens = set(0, SourceRelease, "")
	if e.MaxNumBatchedTokens != nil && *e.MaxNumBatchedTokens > 0 {
		eng.MaxNumBatchedTokens = set(*e.MaxNumBatchedTokens, SourceSpec, "")
	}
	d.applyBatchDefaults()
}

// applyBatchDefaults derives the batch limits the spec leaves to vLLM, in
// EngineArgs' order: the release's defaults for the GPU; from 0.21.0
// deepep_low_latency or nixl_ep with EP and DP > 1 caps the token default
// at 256 (vllm.Release.BatchedDPMoEDefault, PR #39107); the token default
// is clamped to max_num_seqs × max_model_len (§4.9); then, from 0.11.0, an
// unset max_num_seqs to max_num_batched_tokens, whoever set that
// (vllm.Release.SeqsCappedByBatchedTokens). It runs again once the layout
// and the all-to-all backend are known (resolveForLayout).
func (d *Deployment) applyBatchDefaults() {
	eng := &d.Engine
	seqs, toks, why := d.releaseBatchDefaults()
	seqsSet, toksSet := eng.MaxNumSeqs.From != SourceRelease, eng.MaxNumBatchedTokens.From != SourceRelease
	// The token cap: the release's (or batched-DP MoE) default, which vLLM
	// clamps to max_num_seqs × max_model_len (§4.9).
	lim, tokWhy, _ := d.Release.CappedBatchDefaults(vllm.BatchLimits{Seqs: seqs, Tokens: toks},
		vllm.BatchLimits{Seqs: eng.MaxNumSeqs.Value, Tokens: eng.MaxNumBatchedTokens.Value}, seqsSet, toksSet, eng.All2All.Value, d.Layout.EP, d.Layout.DP)
	if tokWhy != "" {
		why = "vLLM " + d.Version.Value + " " + tokWhy
	}
	if !toksSet {
		eng.MaxNumBatchedTokens = set(min(lim.Tokens, lim.Seqs*max(eng.MaxModelLen.Value, 1)), SourceRelease, why)
	}
	if !seqsSet {
		lim, _, seqsWhy := d.Release.CappedBatchDefaults(vllm.BatchLimits{Seqs: seqs, Tokens: toks},
			vllm.BatchLimits{Tokens: eng.MaxNumBatchedTokens.Value}, false, true, eng.All2All.Value, d.Layout.EP, d.Layout.DP)
		if seqsWhy != "" {
			why += "; " + seqsWhy
		}
		eng.MaxNumSeqs = set(lim.Seqs, SourceRelease, why)
	}
}

// releaseBatchDefaults are the release's default max_num_seqs and
// max_num_batched_tokens for the GPU, before any cap or clamp.
func (d *Deployment) releaseBatchDefaults() (seqs, toks int, why string) {
	seqs, toks = d.Release.BatchDefaults(d.GPU.Name, d.GPU.MemoryGiB(), true)
	why = "vLLM " + d.Version.Value + " default for " + d.GPU.Name
	if u := d.Release.BatchDefaultsUnverified(d.GPU.Name, d.GPU.MemoryGiB()); u != "" {
		why += " (" + u + ")"
	}
	// VLLM_USE_V1 in vllm.env picks the engine where the release reads it
	// (qa44c F6: VLLM_USE_V1=1 on 0.7.x was still given V0's defaults).
	switch era := d.Release.EngineEraWithEnv(d.Engine.Env); {
	case era.V0Default():
		seqs, toks = legacyV0BatchDefaults(d.Engine.MaxModelLen.Value)
		why = "vLLM V0 engine default"
	case d.Release.EngineEra().V0Default():
		seqs, toks = vllm.V1OptInBatchDefaults(true)
		why = "vLLM " + d.Version.Value + " V1 engine default (" + vllm.UseV1Env + "=1 in vllm.env)"
	}
	return seqs, toks, why
}

func (d *Deployment) resolveBlockSize(b *int) error {
	d.Engine.BlockSizeFlag = 0
	// An architecture rule comes first: DeepSeek-V4's backends are its own
	// (vllm.Release.ArchitectureBlockSize), not the generic MLA backend a
	// kv_lora_rank would suggest.
	if a, ok := d.Release.ArchitectureBlockSize(d.Model.ModelType); ok {
		return d.resolveArchBlockSize(b, a)
	}
	if d.Model.IsMLA() {
		return d.resolveMLABlockSize(b)
	}
	if b != nil && *b > 0 {
		d.Engine.BlockSize = set(*b, SourceSpec, "")
		return nil
	}
	d.Engine.BlockSize = set(DefaultBlockSize, SourceRelease, "")
	return nil
}

// resolveArchBlockSize: an architecture whose attention backends take one
// kernel block size (vllm.Release.ArchitectureBlockSize: MiniMax-M3's
// sparse and indexer backends, 128 tokens; DeepSeek-V4's compressed MLA
// backend, 256) runs with a --block-size that is
// a multiple of it and is refused with any other; when the spec sets none
// and vLLM would not pick a fitting one itself (it takes the first, dense
// layer's 16), the block is the kernel size and the bundle must write it
// (BlockSizeFlag).
func (d *Deployment) resolveArchBlockSize(b *int, a vllm.ArchBlockSize) error {
	if b != nil && *b > 0 {
		if note := a.Unverified(*b); note != "" {
			// The release's kernel sizes were not read: size the spec's
			// block and let validate say it is unverified.
			d.Engine.UserBlock = &vllm.UserBlock{Given: *b, Action: vllm.UserBlockRefused, Unread: true, Why: note, Source: a.Source}
			d.Engine.BlockSize = set(*b, SourceSpec, "")
			return nil
		}
		if why := a.Refusal(*b); why != "" {
			return fieldErr("vllm.block_size", fmt.Sprintf("block_size %d cannot serve %s: %s", *b, d.Model.ID, why),
				fmt.Sprintf("set block_size to %d (or a multiple of it), or leave it unset", a.Kernel))
		}
		d.Engine.BlockSize = set(*b, SourceSpec, "")
		return nil
	}
	if a.ChosenByVLLM {
		why := "vLLM picks it for the architecture's attention backends"
		if a.PickedBy != "" {
			why = "vLLM " + d.Version.Value + " picks it: " + a.PickedBy
		}
		d.Engine.BlockSize = set(a.Kernel, SourceRelease, why)
		return nil
	}
	why := a.WhyWritten
	if why == "" {
		why = fmt.Sprintf("the architecture's attention backends take only %d-token kernel blocks and vLLM's own choice (the first layer's backend's %d) stops with \"No common block size for %d.\": written as --block-size %d", a.Kernel, DefaultBlockSize, DefaultBlockSize, a.Kernel)
	}
	d.Engine.BlockSize = set(a.Kernel, SourceDerived, why)
	d.Engine.BlockSizeFlag = a.Kernel
	return nil
}

// resolveMLABlockSize: an MLA model's block size is the one its attention
// backend forces (vllm.MLABlockSize) when the spec sets none, or what the
// release does with the spec's (vllm.Release.MLAUserBlockSize: kept,
// overridden up to 0.17.x, run on another backend or refused from 0.18.0);
// the backend is the release's choice for the GPU, the KV dtype and the
// model (vllm.Release.MLABackend).
func (d *Deployment) resolveMLABlockSize(b *int) error {
	sm := 0
	if d.GPU != nil {
		sm = d.GPU.ComputeMajor
	}
	fp8KV := d.Engine.KVCacheDType.Value == "fp8"
	sparse := d.Model.IsSparseAttention()
	backend, _ := d.Release.MLABackend(sm, fp8KV, sparse)
	d.Engine.MLABackend = backend
	if d.GPU != nil && d.GPU.Vendor == "amd" && !sparse {
		if err, ok := d.resolveROCmMLABlock(b); ok {
			return err
		}
	}
	if b != nil && *b > 0 {
		return d.resolveMLAUserBlock(d.Release.MLAUserBlockSize(backend, sparse, sm, fp8KV, *b))
	}
	if size, forced, why := d.Release.MLAUnsetBlockSize(backend); forced {
		d.Engine.BlockSize = set(size, SourceDerived, why)
		return nil
	}
	d.Engine.BlockSize = set(DefaultBlockSize, SourceRelease, "the "+backend+" backend keeps vLLM's default")
	return nil
}

// resolveROCmMLABlock is resolveMLABlockSize on an AMD GPU, whose MLA
// backend follows AITER in vllm.env (vllm.Release.ROCmMLABlock); ok is
// false for a release whose ROCm rule was not read.
func (d *Deployment) resolveROCmMLABlock(b *int) (err error, ok bool) {
	n := 0
	if b != nil && *b > 0 {
		n = *b
	}
	aiter := vllm.ROCmAiterMLAOn(d.Engine.Env)
	u, ok := d.Release.ROCmMLABlock(aiter, n)
	if !ok {
		return nil, false
	}
	refused := u.Action == vllm.UserBlockRefused && !u.Unread
	switch {
	case refused && n > 0:
		return fieldErr("vllm.block_size", fmt.Sprintf("block_size %d cannot serve %s: %s", n, d.Model.ID, u.Why),
			"leave block_size unset (16), or set VLLM_ROCM_USE_AITER: \"1\" in vllm.env for ROCM_AITER_MLA"), true
	case refused:
		return fieldErr("vllm.env", fmt.Sprintf("%s cannot start with AITER on and vLLM's default block size: %s", d.Model.ID, u.Why),
			"set vllm.block_size: 1 (AMD's recipe for this release), or VLLM_ROCM_USE_AITER_MLA: \"0\" for TRITON_MLA"), true
	}
	d.Engine.MLABackend = u.Backend
	if n > 0 {
		d.Engine.BlockSize = set(n, SourceSpec, "")
		if u.Unread {
			d.Engine.UserBlock = &u
		}
		return nil, true
	}
	d.Engine.BlockSize = set(DefaultBlockSize, SourceRelease, "the "+u.Backend+" backend keeps vLLM's default")
	return nil, true
}

// resolveMLAUserBlock applies the release's answer to the spec's
// block_size: a refusal in a release read is the spec's error; in one not
// read the spec's size is sized and validate says it is unverified.
func (d *Deployment) resolveMLAUserBlock(u vllm.UserBlock) error {
	if u.Action == vllm.UserBlockRefused && !u.Unread {
		return fieldErr("vllm.block_size", fmt.Sprintf("block_size %d cannot serve %s: %s", u.Given, d.Model.ID, u.Why),
			"leave block_size unset, or set a multiple of 64 (vLLM's own choice for this model's backend)")
	}
	if u.Action != vllm.UserBlockKept {
		d.Engine.UserBlock = &u // a size every release read keeps needs no note
	}
	switch {
	case u.Action == vllm.UserBlockOverridden:
		d.Engine.BlockSize = set(u.Runs, SourceDerived, fmt.Sprintf("block_size %d overridden: %s", u.Given, u.Why))
	case u.Action == vllm.UserBlockSwitched:
		d.Engine.MLABackend = u.Backend
		d.Engine.BlockSize = set(u.Given, SourceSpec, u.Why)
	default:
		d.Engine.BlockSize = set(u.Given, SourceSpec, "")
	}
	return nil
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
