// Package memory is the estimator's per-GPU memory model, the way vLLM
// budgets it: weights by component and placement (TP, PP, EP, EPLB,
// padding), storage per format, the profiled activation peak, memory outside
// PyTorch, the KV cache per token and the capacity in sequences, with the
// memory verdicts (EST1xx) and the derivations shown as notes.
package memory

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// WeightTerm is one component's weights on one GPU: its placement and how
// it is stored.
type WeightTerm struct {
	Share
	DTypeRule
	GiB float64 `json:"gib"`
}

// StageMemory is the budget of one GPU of one pipeline stage.
type StageMemory struct {
	Stage          Stage        `json:"stage"`
	Weights        []WeightTerm `json:"weights"`
	ParamsPerGPU   float64      `json:"params_per_gpu"`
	WeightsGiB     float64      `json:"weights_gib"`
	Activation     Activation   `json:"-"`
	NonTorch       []Term       `json:"non_torch"`
	NonTorchGiB    float64      `json:"non_torch_gib"`
	KV             KVLayout     `json:"kv"`
	AvailableKVGiB float64      `json:"available_kv_gib"`
	NumBlocks      int64        `json:"num_blocks"`
	KVTokens       int64        `json:"kv_tokens"`
	// KVGiven says AvailableKVGiB is --kv-cache-memory-bytes, not what
	// gpu_memory_utilization leaves; LeftByUtilizationGiB is then what it
	// would have left (the room the given pool must fit in to avoid an
	// out-of-memory error at start-up or later).
	KVGiven              bool    `json:"kv_given,omitempty"`
	LeftByUtilizationGiB float64 `json:"left_by_utilization_gib,omitempty"`
}

// PerGPU is the per-GPU memory table of the binding GPU (the one with the
// fewest KV blocks, which every rank then uses).
type PerGPU struct {
	DeviceGiB     float64 `json:"device_gib"`
	Utilization   float64 `json:"gpu_memory_utilization"`
	UsableGiB     float64 `json:"usable_gib"`
	WeightsGiB    float64 `json:"weights_gib"`
	ActivationGiB float64 `json:"activation_gib"`
	OtherGiB      float64 `json:"other_gib"`
	KVCacheGiB    float64 `json:"kv_cache_gib"`
	// HeadroomGiB is device − usable: what CUDA graphs (when vLLM does not
	// budget them) and other processes may use.
	HeadroomGiB float64 `json:"headroom_gib"`
	// CUDAGraphGiB is the expected graph pool allocated after the KV cache
	// (0 with enforce_eager or when already inside the budget).
	CUDAGraphGiB float64 `json:"cuda_graph_outside_budget_gib"`
	// KVCacheLowGiB is the low end of KVCacheGiB's band when known gaps
	// apply (Report.Gaps); 0 otherwise.
	KVCacheLowGiB float64 `json:"kv_cache_low_gib,omitempty"`
	// KVGiven says KVCacheGiB is --kv-cache-memory-bytes, reserved as given
	// (vLLM ignores gpu_memory_utilization then); LeftByUtilizationGiB is
	// what usable − weights − activation − other would have left.
	KVGiven              bool    `json:"kv_given,omitempty"`
	LeftByUtilizationGiB float64 `json:"left_by_utilization_gib,omitempty"`
}

// Report is everything the memory half of `vlaunch check` computes.
type Report struct {
	Params       catalog.ParamCounts `json:"params"`
	ParamsPerGPU float64             `json:"params_per_gpu"`
	WeightsDType string              `json:"weights_dtype"`
	Weights      []WeightTerm        `json:"weights"`
	PerGPU       PerGPU              `json:"per_gpu"`
	Activation   []Term              `json:"activation"`
	NonTorch     []Term              `json:"non_torch"`
	KV           KVLayout            `json:"kv"`
	// KVBytesPerToken is per GPU of the binding stage.
	KVBytesPerToken int64 `json:"kv_bytes_per_token"`
	BlockSize       int   `json:"block_size"`
	NumBlocks       int64 `json:"num_gpu_blocks"`
	// KVTokensPerRank is the tokens one GPU's KV pool holds (NumBlocks ×
	// block): what vLLM logs as "GPU KV cache size" per engine without
	// decode context parallelism.
	KVTokensPerRank int64 `json:"kv_tokens_per_rank"`
	// KVTokensLogged is what vLLM's "GPU KV cache size" line prints for a
	// packed layout (hybrids, Gemma 4, MiMo-V2-Flash, DeepSeek-V4:
	// KVLayout.ReportedTokens, by the release's rule), times the DCP size
	// with decode context parallelism (the tokens a DCP group holds
	// together); 0 where it is KVTokensPerRank.
	KVTokensLogged int64 `json:"kv_tokens_logged,omitempty"`
	// KVTokensTotal sums the DP ranks (each holds its own sequences).
	KVTokensTotal               int64         `json:"kv_tokens_total"`
	MaxConcurrencyAtMaxModelLen float64       `json:"max_concurrency_at_max_model_len"`
	Capacity                    Capacity      `json:"capacity"`
	Stages                      []StageMemory `json:"stages"`
	BindingStage                int           `json:"binding_stage"`
	// Gaps are memory vLLM was seen to use beyond the model for this kind
	// of deployment; they widen the KV band (PerGPU.KVCacheLowGiB).
	Gaps []Gap `json:"known_gaps,omitempty"`
	// PPKVCheck is the start-up check of a release that counts every
	// layer on every pipeline stage (vllm.Release.PPKVCheckWholeModel),
	// kept only where it refuses.
	PPKVCheck *PPKVCheck `json:"pp_kv_check,omitempty"`
}

// Estimate computes weights, activations, non-torch memory and the KV cache of
// every pipeline stage, takes the minimum number of KV blocks (vLLM makes
// every rank use the same number) and derives capacity.
func Estimate(in *input.Input) Report {
	stages := PPStages(in.Model.NumLayers, in.Layout.PP)
	r := Report{Params: in.Model.ParamCounts(), WeightsDType: in.WeightsDType, BlockSize: in.BlockSize}
	bind := -1
	alike := map[stageShape]StageMemory{}
	for _, s := range stages {
		k := shapeOf(in, s)
		sm, ok := alike[k]
		if !ok {
			sm = stageMemory(in, s)
			alike[k] = sm
		}
		sm.Stage = s
		r.Stages = append(r.Stages, sm)
		if bind < 0 || sm.NumBlocks < r.Stages[bind].NumBlocks {
			bind = len(r.Stages) - 1
		}
	}
	b := r.Stages[bind]
	r.BindingStage = bind
	r.Weights, r.ParamsPerGPU = b.Weights, b.ParamsPerGPU
	r.Activation, r.NonTorch, r.KV = b.Activation.Terms, b.NonTorch, b.KV
	r.KVBytesPerToken, r.NumBlocks = b.KV.BytesPerToken, b.NumBlocks
	r.KVTokensPerRank = b.NumBlocks * int64(in.BlockSize)
	if b.AvailableKVGiB > 0 {
		// A packed layout's log line follows the release's rule.
		asConc, _ := in.Release().KVTokensAsConcurrency()
		if t, ok := b.KV.ReportedTokens(b.AvailableKVGiB*GiB, in.MaxModelLen, asConc == vllm.Present); ok {
			r.KVTokensLogged = t
		}
	}
	if d := int64(in.DCPSize()); d > 1 && b.KV.Packing == "" {
		// "Multiplying the GPU KV cache size by the dcp_world_size"
		// (vllm.DCPLogSource): the log prints the rank's tokens × DCP, the
		// tokens its DCP group holds together. A packed layout's line
		// (ReportedTokens) is left as it is: from 0.21.0 it is
		// max_concurrency × max_model_len, whose pages per request count
		// DCP already for a state hybrid's attention (KVLayout.DCP);
		// sliding-window and DeepSeek-V4 pages are sized without DCP
		// (validate's SPEC136 says so).
		if r.KVTokensLogged == 0 {
			r.KVTokensLogged = r.KVTokensPerRank
		}
		r.KVTokensLogged *= d
	}
	r.KVTokensTotal = r.KVTokensPerRank * int64(in.Layout.DP)
	r.PerGPU = perGPU(in, b)
	r.Capacity = CapacityFor(in, b)
	r.MaxConcurrencyAtMaxModelLen = AtMaxModelLen(in, b)
	if p := ppKVCheck(in.Release(), r.Stages, in.MaxModelLen, in.BlockSize); p != nil && p.Refuses && UsePPKVCheck {
		r.PPKVCheck = p
	}
	if r.Gaps = knownGaps(in); len(r.Gaps) > 0 && b.KVGiven {
		// A given pool does not shrink with memory vLLM uses beyond the
		// model (it is reserved as asked): no low end.
		r.PerGPU.KVCacheLowGiB = r.PerGPU.KVCacheGiB
		r.Capacity.MaxSeqsPerRankLow, r.Capacity.FitsLow = r.Capacity.MaxSeqsPerRank, r.Capacity.Fits
	} else if len(r.Gaps) > 0 {
		low, seqs := lowEnd(in, b, gapGiB(r.Gaps))
		r.PerGPU.KVCacheLowGiB = low
		r.Capacity.MaxSeqsPerRankLow = seqs
		r.Capacity.FitsLow = low > 0 && seqs >= 1 && seqs >= r.Capacity.SeqsPerRank
	}
	return r
}

// stageShape is all a stage's memory depends on besides the input: whether
// it is the first stage (the embedding) or the last (LM head, sampler,
// draft model) and how many of its layers are of each kind (Placement,
// PeakActivation and KVBytes read nothing else of the stage). Stages of one
// shape are estimated once: a pipeline longer than the model has layers
// (`vlaunch plan` on thousands of nodes tries PP up to the node count) is
// mostly empty stages, and an even split has a handful of shapes.
type stageShape struct {
	first, last                       bool
	attn, dense, moe, sliding, linear int
	mamba                             int
}

func shapeOf(in *input.Input, s Stage) stageShape {
	k := stageShape{first: s.Index == 0, last: s.Index == in.Layout.PP-1}
	k.attn, k.dense, k.moe = layerMix(in.Model, s)
	k.linear, k.mamba = linearLayers(in.Model, s), mambaLayers(in.Model, s)
	for i := s.First; i < s.End; i++ {
		if in.Model.IsSlidingLayer(i) {
			k.sliding++
		}
	}
	return k
}

func stageMemory(in *input.Input, s Stage) StageMemory {
	sm := StageMemory{Stage: s}
	last := s.Index == in.Layout.PP-1
	shares := Placement(in, s)
	// Room for the draft's and LoRA's terms too: a plan estimates
	// thousands of candidates, and the slice's regrowth was a quarter of
	// its allocations.
	terms := make([]WeightTerm, 0, len(shares)+4)
	for _, sh := range shares {
		rule := StorageRule(in, sh.Component)
		terms = append(terms, WeightTerm{Share: sh, DTypeRule: rule, GiB: sh.Stored() * rule.BytesPerParam / GiB})
	}
	if last {
		terms = append(terms, draftTerms(in)...)
	}
	if lt, ok := loraTerm(in, s); ok {
		terms = append(terms, lt)
	}
	if len(terms) > 0 {
		sm.Weights = terms // the terms themselves (nil when there are none, as before)
	}
	for _, wt := range terms {
		sm.WeightsGiB += wt.GiB
		if wt.Component != CompMLACopies && wt.Component != CompRoPECache && wt.Component != CompLoRASlots && !isDraft(wt.Component) {
			sm.ParamsPerGPU += wt.ParamsPerGPU
		}
	}
	sm.Activation = PeakActivation(in, s)
	sm.NonTorch = NonTorch(in)
	for _, t := range sm.NonTorch {
		sm.NonTorchGiB += t.GiB
	}
	sm.KV = KVBytes(in, s)
	if last {
		sm.KV = sm.KV.withProposer(draftKV(in))
	}
	usable := deviceGiB(in.GPU) * in.GPUMemoryUtilization
	sm.AvailableKVGiB = usable - sm.WeightsGiB - sm.Activation.PeakGiB - sm.NonTorchGiB
	if in.KVCacheMemoryBytes > 0 {
		// --kv-cache-memory-bytes: vLLM's worker returns it as the KV
		// memory after a profile run that only compiles, whatever
		// gpu_memory_utilization would leave (vllm/v1/worker/gpu_worker.py
		// determine_available_memory at v0.11.0 and v0.24.0).
		sm.LeftByUtilizationGiB = sm.AvailableKVGiB
		sm.AvailableKVGiB = float64(in.KVCacheMemoryBytes) / GiB
		sm.KVGiven = true
	}
	if sm.AvailableKVGiB > 0 && sm.KV.BytesPerToken > 0 {
		blockBytes := float64(sm.KV.BytesPerToken) * float64(in.BlockSize)
		sm.NumBlocks = int64(math.Floor(sm.AvailableKVGiB * GiB / blockBytes))
		sm.KVTokens = sm.NumBlocks * int64(in.BlockSize)
	}
	return sm
}

// graphsBudgeted reports whether vLLM subtracts its CUDA-graph estimate
// from the KV pool for in: by default from 0.20.0 (valfix41: a 0.20.0 log), otherwise as
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS says where the release reads it
// (vllm.Release.GraphMemoryProfiling).
func graphsBudgeted(in *input.Input) bool {
	v, set := in.Env[vllm.GraphMemoryVariable]
	return in.Release().GraphMemoryProfiling().Subtracts(v, set)
}

func perGPU(in *input.Input, b StageMemory) PerGPU {
	dev := deviceGiB(in.GPU)
	p := PerGPU{DeviceGiB: dev, Utilization: in.GPUMemoryUtilization, UsableGiB: dev * in.GPUMemoryUtilization,
		WeightsGiB: b.WeightsGiB, ActivationGiB: b.Activation.PeakGiB, OtherGiB: b.NonTorchGiB, KVCacheGiB: b.AvailableKVGiB,
		KVGiven: b.KVGiven, LeftByUtilizationGiB: b.LeftByUtilizationGiB}
	p.HeadroomGiB = dev - p.UsableGiB
	if in.CUDAGraphs && !graphsBudgeted(in) {
		p.CUDAGraphGiB = CUDAGraphGiB
	}
	return p
}
