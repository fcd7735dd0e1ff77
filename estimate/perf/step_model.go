package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// activationPassesPerLayer is how many times a token's hidden state is
// read or written in HBM per decoder layer outside the GEMM weights (two
// norms, residual adds, attention and MLP inputs/outputs): a named, rough
// count whose cost is small next to weights and KV.
const activationPassesPerLayer = 8

// StepModel (read-only once built: safe for concurrent use) is a StepSetup with every per-step constant precomputed, so one
// step costs a few dozen floating-point operations (the simulator evaluates
// it once per engine step).
type StepModel struct {
	S StepSetup

	hidden        float64
	layers        float64 // decoder layers per pipeline stage
	moeLayers     float64 // MoE layers per stage
	attnLayers    float64 // layers with softmax attention (a KV cache) per stage
	fullLayers    float64 // full-attention layers per stage
	slidingLayers float64
	window        float64

	denseParamsGPU  float64 // attention + dense MLP + shared + router, per GPU per stage
	lmHeadParamsGPU float64
	denseBytesGPU   float64 // their weights, per GPU per stage (+ LM head)
	expertParams    float64 // one expert in one layer
	expertBytes     float64
	expertsPerGPU   float64 // (E + redundant) / shard (a fraction of width without EP)
	experts, topK   float64
	// zeroRemap marks LongCat-Flash's zero experts, whose picks vLLM runs
	// as weight-0 pairs on expert 0 (catalog.Model.ZeroExpertPairsRemapped):
	// topK pairs per token still, but the experts a step reads are
	// expert 0 and the real picks' (expertWork).
	zeroRemap bool
	// moeSliceWidth is the expert's intermediate width on one GPU where the
	// experts are TP-sharded over more than one GPU (moe_intermediate_size
	// / (TP × DP) without EP), zero otherwise: the width moeWidthFactor
	// reads.
	moeSliceWidth float64

	kvBytesTokLayer float64 // KV bytes per token per layer on one GPU
	stateBytesSeq   float64 // a hybrid's recurrent state per sequence per stage on one GPU
	tpReduces       float64 // TP all-reduces per stage's forward pass
	attnDecCoef     float64
	attnDecPad      float64 // padded over real query rows of the decode kernel (flashMLAPadFactor)
	attnPreCoef     float64
	decompCoef      float64
	// dsv4 is DeepSeek-V4's windowed and compressed attention (dsv4.go);
	// nil for every other model.
	dsv4 *dsv4Attention
	// mhc is DeepSeek-V4's hyper-connections (mhc.go); nil for every
	// other model.
	mhc *mhcShape
	// swa is FlashAttention 3's extra cost of a windowed layer's decode
	// call past its window (swafloor.go); nil where it does not apply.
	swa *WindowedAttnFloor

	route     Routing
	bytesCopy float64 // dispatch + combine bytes per token copy
	// eagerLayers is the stage's decoder layers weighted by their
	// operation count against a dense GQA layer (eagerOps).
	eagerLayers float64
	// kernels is the number of kernels one stage's forward pass runs
	// (stageKernels).
	kernels float64
	// hiddenGEMMFork and hiddenPostFork are the stage's kernels that
	// DeepSeek-V4's aux streams take off the critical path (dsv4Hidden-
	// Kernels): the input-GEMM fork's, at a forward of at most vllm.
	// DSV4MultiStreamGEMMTokenThreshold tokens, and the post-GEMM fork's,
	// at any size. Zero for every other model or engine.
	hiddenGEMMFork, hiddenPostFork float64
	// actPairsPerGPU is the share of a step's token-expert pairs whose
	// activations one GPU reads and writes: 1/EP with whole experts, all of
	// them with TP-sharded experts (every GPU runs its slice of each pair).
	actPairShare float64
	// actBytesPerPair is the activation traffic of one token-expert pair
	// on the GPU that runs it (moeActBytesPerPair).
	actBytesPerPair float64
	nodes           int // nodes spanned by one stage's EP group

	draft *draftModels // speculative decoding's draft passes (nil: none)

	// qkNormBytesTok is the per-head q/k norms' activation traffic per
	// token over the stage (qkNormBytesPerToken; zero without them).
	qkNormBytesTok float64
	// qkNormTP is the all-heads q/k norm's TP cost per attention layer
	// (qknormtp.go; zero where it does not apply).
	qkNormTP qkNormTP

	// gemms prices the dense projections from the measured GEMM tables
	// (UseGEMMTables; nil: the scalar roofline).
	gemms *denseGEMMs
	// fp4Split: the scalar roofline computes the dense FLOPs of
	// denseFP4ParamsGPU (the projections a ModelOpt NVFP4 checkpoint
	// stores in NVFP4, one GPU's, per stage) at the FP4 peak and the rest
	// (excluded projections, router, LM head) at the BF16 one
	// (UseNVFP4DenseGEMM on a GPU without an NVFP4 table).
	fp4Split          bool
	denseFP4ParamsGPU float64
}

// NewStepModel precomputes the constants of s.
func NewStepModel(s StepSetup) *StepModel {
	m := s.Model
	p := m.ParamCounts()
	s.TP, s.PP, s.DP = max(1, s.TP), max(1, s.PP), max(1, s.DP)
	pp := float64(s.PP)
	tp := float64(s.TP)
	sm := &StepModel{S: s, hidden: float64(m.HiddenSize)}
	sm.layers = float64(m.NumLayers) / pp
	sm.moeLayers = float64(m.MoELayerCount()) / pp
	full, _ := layerContexts(m, 0)
	attn := attentionLayers(m)
	sm.attnLayers = float64(attn) / pp
	sm.fullLayers = float64(full) / pp
	sm.slidingLayers = float64(attn-full) / pp
	sm.stateBytesSeq = stateBytesPerSeq(m, s.TP) / pp
	sm.tpReduces = tpReducesPerStage(m, pp)
	sm.window = float64(m.BoundedWindow()) // sliding window, or DSA's top-k
	sm.swa = newWindowedFloor(m, &s)

	for _, d := range denseParts(m, tp) {
		sm.denseParamsGPU += d.params / pp
	}
	// The LM head lives on the last stage only; a step runs PP stages, so
	// each stage carries 1/PP of it on average.
	sm.lmHeadParamsGPU = lmHeadParams(p) / tp / pp
	sm.denseBytesGPU = sm.denseParamsGPU*s.denseBytes() + sm.lmHeadParamsGPU*s.lmHeadBytes()
	// DeepSeek-V4's hyper-connections: every layer mixes its hc_mult
	// residual streams with float32 hc_attn_fn and hc_ffn_fn (mixes =
	// F.linear(x_flat, hc_fn) over hc_mult × hidden inputs, DeepSeek's
	// reference model.py hc_pre as catalog.DSV4HyperConnections counts it),
	// whole on every GPU, read at 4 B per parameter once per step with the
	// dense weights. Their FLOPs (TF32) and the streams' traffic are the
	// mHC term (mhc.go), not the dense GEMMs'.
	if hc := p.HyperConnections / pp; hc > 0 {
		sm.denseBytesGPU += hc * 4
	}
	sm.mhc = newMHCShape(m, pp)
	if m.IsMoE() {
		sm.expertParams = p.ExpertPerLayerEach
		sm.expertBytes = p.ExpertPerLayerEach * s.expertBytesPerParam()
		sm.experts, sm.topK = float64(m.NumExperts), float64(m.ExpertsPerToken)
		sm.zeroRemap = m.ZeroExpertPairsRemapped()
		phys := sm.experts
		if s.EP {
			phys += float64(s.RedundantExperts)
		}
		sm.expertsPerGPU = phys / float64(s.EPSize())
		if !s.EP && s.EPSize() > 1 {
			sm.moeSliceWidth = float64(m.MoEIntermediateSize) / float64(s.EPSize())
		}
		sm.actPairShare = 1
		if s.EP {
			sm.actPairShare = 1 / float64(s.EPSize())
		}
		sm.actBytesPerPair = moeActBytesPerPair(m, &s)
	}
	sm.eagerLayers = eagerLayers(m, s.WeightDType) / pp
	if s.SGLang && UseSGLangStep3p5Ops {
		k, r := sglangStep3p5Extra(m, s.TP)
		sm.eagerLayers += k / eagerOpsRef / pp
		sm.tpReduces += r / pp
	}
	// SGLang's per-head q/k norms and their copies (sglangqknorm.go).
	sm.eagerLayers += sglangQKNormKernels(m, &s, sm.attnLayers) / eagerOpsRef
	sm.kernels = stageKernels(sm.eagerLayers) - sglangQKNormAltStream(m, &s, sm.attnLayers)
	if s.DSV4Streams {
		sm.hiddenGEMMFork, sm.hiddenPostFork = dsv4StageHiddenKernels(m)
		sm.hiddenGEMMFork /= pp
		sm.hiddenPostFork /= pp
	}
	if sm.mhc != nil {
		sm.kernels += mhcStageKernels
	}
	if sm.gemms = newDenseGEMMs(&s); sm.gemms != nil {
		// The tables' latencies include each GEMM's launch: no gap on top.
		sm.kernels = max(0, sm.kernels-sm.gemms.kernels)
	} else if s.nvfp4Roofline() {
		sm.denseFP4ParamsGPU = nvfp4DenseParams(&s, tp) / pp
		sm.fp4Split = true
	}
	// The per-head q/k norms the census lacks (qknorm.go).
	sm.kernels += qkNormKernels(m, &s, sm.attnLayers)
	// The all-heads q/k norm's statistics all-reduce at TP > 1 (qknormtp.go).
	sm.qkNormTP = qkNormTPCost(m, &s)
	sm.kernels += sm.qkNormTP.kernels * sm.attnLayers
	// The KV write where no measured attention call holds it (kvwrite.go).
	sm.kernels += kvWriteKernels(m, &s, sm.attnLayers)
	sm.qkNormBytesTok = qkNormBytesPerToken(m, &s, sm.attnLayers)
	sm.kvBytesTokLayer = kvBytesPerTokenLayerGPU(&s)
	sm.attnDecCoef = attnDecodeCoef(m) / tp
	// FlashMLA computes a rank's query rows in 64-row tiles (mlapad.go).
	sm.attnDecPad = flashMLAPadFactor(&s)
	sm.attnPreCoef = attnPrefillCoef(m) / tp
	sm.decompCoef = mlaDecompressCoef(m) / tp
	if sm.dsv4 = newDSV4Attention(m, pp); sm.dsv4 != nil {
		// Per attended entry, on every TP rank alike (one KV head,
		// replicated; padded query heads).
		sm.kvBytesTokLayer = sm.dsv4.entryBytes
		sm.attnDecCoef = dsv4AttnCoef(m, s.TP)
		sm.attnPreCoef = sm.attnDecCoef
	}
	sm.initNetwork()
	sm.draft = newDraftModels(s)
	return sm
}

// densePart is one memory component's parameters (input.Comp*) that a
// step streams as dense weights on one GPU, over all layers.
type densePart struct {
	comp   string
	params float64
}

// denseParts splits the dense weights one GPU reads each step by the
// memory model's components, so the step model's parameter count and the
// storage it weighs them by (StorageBytesOf) come from one partition:
// attention, dense MLP, shared experts, router and norms are TP-split;
// DSA's indexer is replicated, not TP-split; so are a latent MoE's
// fc1/fc2_latent_proj (vLLM's NemotronHMoE: ReplicatedLinear, run by
// every GPU on every token before and after the routed experts).
// DeepSeek-V4 splits only wq_b, wo_a, wo_b and the sinks by head;
// wq_a/wkv, the compressors and the C4A indexers are replicated. MLA
// likewise splits q_b, kv_b and o by head and replicates the latent
// down-projections: vLLM's DeepseekV2MLAAttention builds q_a_proj and
// kv_a_proj_with_mqa as ReplicatedLinear (later fused as
// fused_qkv_a_proj, a MergedColumnParallelLinear with disable_tp=True), so
// every TP rank runs them on every token (catalog.Model.AttentionParams
// with one rank's heads, as the memory model places them).
func denseParts(m *catalog.Model, tp float64) []densePart {
	p := m.ParamCounts()
	attn := p.Attention / tp
	if m.DSV4 != nil || m.IsMLA() {
		attn = m.AttentionParams(float64(m.NumHeads)/tp, 1) * float64(m.NumLayers)
	}
	return []densePart{
		{input.CompAttention, attn},
		{input.CompDenseMLP, p.DenseMLP / tp},
		{input.CompShared, p.SharedExperts / tp},
		{input.CompRouter, p.Router / tp},
		{input.CompNorms, p.Norms / tp},
		{input.CompIndexer, indexerParamsGPU(m, p, tp)},
		{input.CompLatentProj, p.LatentProj},
	}
}

// lmHeadParams is the LM head matrix (tied embeddings still multiply it).
func lmHeadParams(p catalog.ParamCounts) float64 {
	if p.LMHead > 0 {
		return p.LMHead
	}
	return p.Embedding
}

// kvBytesPerTokenLayerGPU is the KV one token occupies in one layer on one
// GPU: MLA latent + rope key replicated on every TP rank; GQA K and V of the
// rank's KV heads (replicated when TP exceeds the KV heads).
func kvBytesPerTokenLayerGPU(s *StepSetup) float64 {
	m, e := s.Model, kvElemBytes(s.KVDType)
	if m.IsMLA() {
		return float64(m.MLACacheBytes(int(e)))
	}
	heads := math.Max(1, math.Ceil(float64(m.NumKVHeads)/float64(s.TP)))
	return 2 * heads * float64(m.HeadDim) * e
}

// initNetwork derives the all-to-all routing and per-copy bytes.
func (sm *StepModel) initNetwork() {
	s, m := &sm.S, sm.S.Model
	g := s.a2aGroupGPUs()
	sm.nodes = (s.EPSize() + g - 1) / g
	if !m.IsMoE() || s.A2A == vllm.TrafficNone {
		return
	}
	sm.route = ExpectedRouting(m.NumExperts, m.ExpertsPerToken, m.NGroup, m.TopKGroup, s.EPSize(), g)
	// A latent MoE dispatches and combines its tokens at moe_latent_size:
	// vLLM's MoE runner projects them (routed_input_transform) before
	// moe_forward, which dispatches, and back after the combine.
	w := float64(m.ExpertHidden())
	dispatch := w * 2
	if s.FP8Dispatch {
		dispatch = w * (1 + 4.0/128)
	}
	sm.bytesCopy = dispatch + w*2
}

// moeActBytesPerPair is the HBM traffic of one token-expert pair outside
// the expert weights, from the data flow of vLLM's fused-MoE path (a
// census of its buffers, not a measurement): the token read by the first
// grouped GEMM (FP8 with FP8 weights, else BF16), its gate/up output
// written and read by the activation (BF16, 2 × I values), the activation's
// output written, quantized and read by the second GEMM (I values, ≈ 3 B
// each with FP8), and the second GEMM's output (hidden size, BF16) written
// and read back by the reduction over the token's experts. I is the
// expert's intermediate width on this GPU (divided by TP when the experts
// are TP-sharded). With whole experts under EP the reduction happens in
// the combine, so the output is written once: 3·H + 14·I against
// 5·H + 14·I. H is the width the experts work at (catalog.Model.
// ExpertHidden): a latent MoE's routed experts take and give
// moe_latent_size values (vLLM's FusedMoE runner applies
// routed_input_transform = fc1_latent_proj before the experts and
// routed_output_transform = fc2_latent_proj after the reduction).
func moeActBytesPerPair(m *catalog.Model, s *StepSetup) float64 {
	h := float64(m.ExpertHidden())
	inter := float64(m.MoEIntermediateSize)
	if !s.EP { // TP-sharded experts (over the TP × DP GPUs)
		inter /= float64(max(1, s.TP*s.DP))
	}
	in := 2.0
	if s.WeightDType == "fp8" || s.WeightDType == "int8" {
		in = 1 // W8A8: the activations are quantized to 8 bits too
	}
	out := 2 * h // written once
	if !s.EP {
		out = 4 * h // written, then read back by the reduction
	}
	return in*h + out + 14*inter
}
