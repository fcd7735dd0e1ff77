package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// GiB is 2^30 bytes, the unit vLLM logs memory in.
const GiB = float64(1 << 30)

// Named constants of the memory budget. Each is global (the same for every
// model, GPU and layout) and justified where it is declared.
const (
	// SamplerBytesPerLogit is the sampler's working set per vocabulary entry
	// of each sampled row during vLLM's profile run (_dummy_sampler_run with
	// top-k/top-p/temperature set) where a kernel (Triton or FlashInfer)
	// masks top-k/top-p: BF16 logits 2 + their FP32 copy 4 + probabilities
	// 4 + one FP32 working buffer (noise values) 4 + a boolean mask 1 = 15
	// bytes, read off 0.19 logs (vllm.KernelSamplerBytesPerLogit counts 14
	// from the code). Releases whose profile sorts instead add the sort's
	// extra working set (samplerBytesPerLogit).
	SamplerBytesPerLogit = 15
	// NonTorchBaseGiB is the memory outside PyTorch's allocator a single-GPU
	// engine shows after profiling (cuBLAS/cuBLASLt workspaces, CUDA runtime
	// allocations): vLLM logs 0.25–0.27 GiB on H100 (v0.19) and 0.35 GiB on an
	// RTX 3090 (V0).
	NonTorchBaseGiB = 0.26
	// CollectivesGiB is the extra non-torch memory once a GPU joins NCCL
	// groups (TP/PP, or DP+EP): communicator buffers (NCCL_BUFFSIZE per
	// channel and peer), NVLS buffers on NVSwitch systems and vLLM's custom
	// all-reduce IPC buffers. vLLM logs non-torch 2.07–2.10 GiB at TP=2
	// (three H100 runs, v0.19) and 2.53 GiB at TP=8×PP=2 (H20-3e, V0) against
	// 0.26 GiB alone: ≈1.8 GiB.
	CollectivesGiB = 1.8
	// PCIeCollectivesGiB replaces CollectivesGiB on GPUs joined by PCIe only
	// (catalog IntraNodeKind "pcie": L4, L40S, H100 PCIe): NCCL has no NVLS
	// there and vLLM's custom all-reduce is off without NVLink/P2P, leaving
	// NCCL's ring/tree buffers — NCCL_BUFFSIZE 4 MiB + LL128 ≈4.6 MiB + LL
	// 0.25 MiB per channel and peer, 2–4 channels on PCIe, for the TP and PP
	// communicators: ≈0.1 GiB. Found by the held-out case
	// dsv2lite-pr20665-l4-tp2pp2 (TP2×PP2 on L4), where 1.8 GiB made the
	// prediction 17% low (docs/calibration-memory-holdout.md); the value
	// itself is derived from NCCL's buffer sizes, not fitted to that case.
	PCIeCollectivesGiB = 0.1
	// CUDAGraphGiB is the typical CUDA-graph pool vLLM reports after capture
	// (0.93–1.98 GiB over six v0.19 runs, median ≈1.5 GiB). vLLM subtracts an
	// estimate only when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1;
	// otherwise the graphs come out of the (1 − utilization) headroom.
	CUDAGraphGiB = 1.5
	// GraphTermName names the non-torch term of the CUDA-graph estimate
	// when vLLM budgets it; the HTML chart's caption looks for it.
	GraphTermName = "CUDA graphs (vLLM estimate)"
	// actBytes is the activation dtype's size (BF16/FP16).
	actBytes = 2
)

// Term is one named memory term with its value and how it was derived.
type Term struct {
	Name    string  `json:"name"`
	GiB     float64 `json:"gib"`
	Formula string  `json:"formula"`
}

// Activation is vLLM's profiled peak activation: the dummy forward pass over
// max_num_batched_tokens and the dummy sampler run over max_num_seqs rows.
type Activation struct {
	ForwardGiB, SamplerGiB, MoEWorkspaceGiB float64
	// MarlinLayerGiB is an MoE layer's live set where the experts run
	// through Marlin's fused MoE with per-call whole-batch caches
	// (marlinMoELayer): one layer's transient peak, composed with the
	// forward pass by max, not added (0 elsewhere).
	MarlinLayerGiB float64
	// CutlassMXFP4LayerGiB is an MoE layer's live set where the experts run
	// through CutlassExpertsMxfp4 (cutlassMXFP4Layer), composed by max
	// like MarlinLayerGiB (0 elsewhere).
	CutlassMXFP4LayerGiB float64
	// EncoderOutputsGiB is the multimodal encoder's dummy outputs the
	// profile holds through the language model's run (encoderProfileGiB).
	EncoderOutputsGiB float64
	PeakGiB           float64
	Terms             []Term
}

// PeakActivation derives the activation peak of a GPU of stage s.
//
// Forward (freed before sampling): T × (3·hidden + the widest per-token
// intermediate on the GPU) × 2 B, where T = max_num_batched_tokens and the
// widest intermediate is max(dense MLP 3·I/TP, attention q/k/v/o widths).
// The three hidden-sized tensors are the residual, the layer input and its
// output, all alive at the MLP's down projection.
//
// Sampler (last stage only): S × vocab × SamplerBytesPerLogit, S =
// min(max_num_seqs, T), plus the T × hidden hidden states still referenced.
//
// MoE workspace: the fused-MoE kernels keep their workspaces in buffers
// shared across layers and calls (SharedResizableBuffer), so they stay
// allocated through the sampler run: M × top_k × (3·N + hidden) × 2 B with N
// the per-GPU expert width and M the tokens the experts see (see moeTokens).
//
// Where the experts run through Marlin's fused MoE with caches allocated per
// call for the whole batch (marlinMoELayer) there is no shared workspace:
// the caches live only inside one MoE layer's call, so that layer's live
// set is one more candidate for the peak, beside the forward pass's widest
// layer, not a term added to it.
//
// Multimodal encoder outputs: the dummy encoder outputs the profile holds
// through both runs, where the release pads them (encoderProfileGiB).
//
// Where the experts run through CutlassExpertsMxfp4 (cutlassMXFP4Layer) the
// same holds for its per-call tensors; its workspaces stay added.
//
// Peak = max(forward, Marlin or CUTLASS MXFP4 MoE layer, sampler + hidden
// states) + MoE workspace + encoder outputs.
func PeakActivation(in *input.Input, s Stage) Activation {
	m := in.Model
	t := float64(in.MaxNumBatchedTokens)
	h := float64(m.HiddenSize)
	widest, what := widestIntermediate(in)
	a := Activation{}
	a.ForwardGiB = t * (3*h + widest) * actBytes / GiB
	formula := fmt.Sprintf("%d tokens × (3 × hidden %d + %s %.0f) × 2 B", in.MaxNumBatchedTokens, m.HiddenSize, what, widest)
	// Under piecewise compilation the split graph holds the old residual
	// and what crosses the attention op through the MLP's piece; beside
	// the new residual, that exceeds the residual and output slots
	// counted here by held − 2 × hidden where positive (pieceInputs).
	if held, heldWhat := pieceInputs(in); held > 2*h {
		a.ForwardGiB += t * (held - 2*h) * actBytes / GiB
		formula += fmt.Sprintf(" + %d tokens × (held across the attention op: %s = %.0f, − 2 × hidden) × 2 B", in.MaxNumBatchedTokens, heldWhat, held)
	}
	a.Terms = append(a.Terms, Term{termForward, a.ForwardGiB, formula})
	hiddenGiB := t * h * actBytes / GiB
	if s.Index == in.Layout.PP-1 {
		rows := min(in.MaxNumSeqs, in.MaxNumBatchedTokens)
		perLogit, path := samplerBytesPerLogit(in, rows)
		a.SamplerGiB = float64(rows) * float64(m.VocabSize) * float64(perLogit) / GiB
		a.Terms = append(a.Terms, Term{termSampler, a.SamplerGiB + hiddenGiB,
			fmt.Sprintf("%d rows × vocab %d × %d B%s + hidden states %d × %d × 2 B", rows, m.VocabSize, perLogit, path, in.MaxNumBatchedTokens, m.HiddenSize)})
	}
	marlin, marlinOK := marlinMoELayer(in)
	cutlass, cutlassWS, cutlassOK := cutlassMXFP4Layer(in)
	switch {
	case cutlassOK && UseCutlassMXFP4Layer:
		a.CutlassMXFP4LayerGiB, a.MoEWorkspaceGiB = cutlass.GiB, cutlassWS.GiB
		a.Terms = append(a.Terms, cutlass, cutlassWS)
	case marlinOK && UseMarlinMoELayer:
		a.MarlinLayerGiB = marlin.GiB
		a.Terms = append(a.Terms, marlin)
	case m.IsMoE() && !v0Engine(in):
		mt, why := moeTokens(in)
		n := moeWidthPerGPU(in)
		k := float64(m.ExpertsPerToken)
		a.MoEWorkspaceGiB = mt * k * (3*n + h) * actBytes / GiB
		formula := fmt.Sprintf("%.0f tokens (%s) × top-k %d × (3 × expert width %.0f + hidden %d) × 2 B", mt, why, m.ExpertsPerToken, n, m.HiddenSize)
		if marlinOK {
			// Said, not hidden: this release runs the experts through
			// Marlin, whose caches this term stands in for (UseMarlinMoELayer).
			formula += fmt.Sprintf("; vLLM runs these experts through Marlin, which allocates its caches per call for the whole batch instead "+
				"(that MoE layer %.2f GiB, caches included): this workspace is still charged in its place, the layers' peaks not yet modelled", marlin.GiB)
		}
		a.Terms = append(a.Terms, Term{termMoEWorkspace, a.MoEWorkspaceGiB, formula})
	}
	if gib, formula := encoderProfileGiB(in); gib > 0 {
		a.EncoderOutputsGiB = gib
		a.Terms = append(a.Terms, Term{termEncoderOutputs, gib, formula})
	}
	a.PeakGiB = max(a.ForwardGiB, a.MarlinLayerGiB, a.CutlassMXFP4LayerGiB, a.SamplerGiB+hiddenGiB*boolF(a.SamplerGiB > 0)) + a.MoEWorkspaceGiB + a.EncoderOutputsGiB
	return a
}

// encoderProfileGiB is the dummy multimodal encoder outputs vLLM's profile
// run keeps through the language model's dummy run and the sampler run
// (vllm.Release.EncoderProfilePlaceholders), where the release holds them
// at the item's placeholder length: items × the largest item's prompt
// tokens × the encoder's embedding width × 2 B. Modelled for Qwen3-VL's
// video, its largest item (12,288 embeddings × 12.5 prompt tokens each =
// 153,600 against 16,384 for the largest image), with one item unless
// max_num_batched_tokens holds more (the encoder budget is the larger of
// the two; items = budget // tokens per item). Releases where the padding
// is not pinned (after 0.11.0 PR #30475 held embeddings only; before it the
// padding's first release) are charged too, as the unpinned profile sampler
// is, so the KV pool is not over-promised. Not modelled: other encoders,
// --limit-mm-per-prompt (video taken as enabled, vLLM's default), and a
// max_model_len below the largest video (vLLM then profiles fewer frames).
func encoderProfileGiB(in *input.Input) (float64, string) {
	e := in.Model.Encoder
	if e == nil || e.Kind != "qwen3_vl" || e.DeepStackLevels == 0 || e.EmbedWidth <= 0 || e.MaxVideoEmbeds <= 0 ||
		in.MaxModelLen < e.MaxVideoEmbeds {
		return 0, ""
	}
	p, _ := in.Release().EncoderProfilePlaceholders()
	if p == vllm.Absent {
		return 0, ""
	}
	_, items, tokens := EncoderProfile(in)
	gib := float64(items) * float64(tokens) * float64(e.EmbedWidth) * actBytes / GiB
	unpinned := ""
	if p != vllm.Present {
		// As for the profile sampler: where the release is not pinned,
		// the larger charge, so the KV pool is not over-promised.
		unpinned = "; whether this release pads is not pinned (PR #30475 stores embeddings only), charged so the KV pool is not over-promised"
	}
	return gib, fmt.Sprintf("%d video item × (%d embeddings × %.1f prompt tokens = %d, the item's placeholder length) × embedding width %d "+
		"(out_hidden_size × (1 + DeepStack levels)) × 2 B, held through the dummy run%s", items, e.MaxVideoEmbeds, vllm.Qwen3VLVideoTokensPerEmbed, tokens, e.EmbedWidth, unpinned)
}

// EncoderProfile is the multimodal encoder profile vLLM runs for a model
// whose encoder vlaunch sizes (Qwen3-VL's largest item, its video:
// vllm.Qwen3VLVideoTokensPerEmbed prompt tokens per embedding): the
// encoder cache budget (the larger of max_num_batched_tokens and the
// item's tokens), the items profiled (budget // item tokens, at least one)
// and the item's tokens, as vLLM logs "Encoder cache will be initialized
// with a budget of … tokens, and profiled with … items". Zeros for a model
// whose encoder profile vlaunch does not size.
func EncoderProfile(in *input.Input) (budget, items, itemTokens int) {
	e := in.Model.Encoder
	if e == nil || e.Kind != "qwen3_vl" || e.MaxVideoEmbeds <= 0 {
		return 0, 0, 0
	}
	itemTokens = int(float64(e.MaxVideoEmbeds) * vllm.Qwen3VLVideoTokensPerEmbed)
	return max(in.MaxNumBatchedTokens, itemTokens), max(1, in.MaxNumBatchedTokens/itemTokens), itemTokens
}

// samplerBytesPerLogit is the profile sampler's working set per logit for
// the release and the sampled rows: SamplerBytesPerLogit where a kernel
// masks top-k/top-p, plus the PyTorch sort's extra working set
// (vllm.SortSamplerBytesPerLogit − vllm.KernelSamplerBytesPerLogit, derived
// from the code) where the profile sorts or may sort — 0.11.1 to 0.17.x
// unless VLLM_USE_FLASHINFER_SAMPLER=1, and the unpinned releases, are
// charged the larger working set so the KV pool is not over-promised. The second value names
// the sort path for the formula ("" for the kernel path).
func samplerBytesPerLogit(in *input.Input, rows int) (int, string) {
	v, set := in.Env[vllm.FlashInferSamplerVariable]
	ps := in.Release().ProfileSampler(rows, v, set)
	if ps.Sorts == vllm.Absent {
		return SamplerBytesPerLogit, ""
	}
	return SamplerBytesPerLogit + vllm.SortSamplerBytesPerLogit - vllm.KernelSamplerBytesPerLogit, " (" + ps.Path + ")"
}

// widestIntermediate is the largest per-token tensor width inside a layer on
// one GPU, apart from the MoE workspace.
func widestIntermediate(in *input.Input) (float64, string) {
	m, tp := in.Model, in.Layout.TP
	nh := headsPerRank(m.NumHeads, tp)
	var attn float64
	if m.IsMLA() {
		qk := float64(m.QKNopeHeadDim + m.QKRopeHeadDim)
		attn = nh * (2*qk + 2*float64(m.VHeadDim))
	} else {
		attn = (2*nh + 2*KVHeadsPerRank(m, tp)) * float64(m.HeadDim)
	}
	dense := 0.0
	if m.IntermediateSize > 0 && (!m.IsMoE() || m.FirstKDenseReplace > 0) {
		dense = 3 * float64(m.IntermediateSize) / float64(tp)
	}
	if dense >= attn {
		return dense, "dense MLP 3 × intermediate / TP"
	}
	return attn, "attention q/k/v/o widths"
}

// moeWidthPerGPU is an expert's intermediate width on one GPU: whole experts
// under EP, 1/(TP×DP) of it otherwise (flattened TP).
func moeWidthPerGPU(in *input.Input) float64 {
	shards := 1
	if !in.Layout.EP {
		shards = in.Layout.EPSize()
	}
	return float64(ceilDiv(in.Model.MoEIntermediateSize, shards))
}

// moeTokens is how many tokens a GPU's fused-MoE kernel is sized for in the
// profile run: its own batch without DP; with DP and EP, the backends with
// chunked dispatch (vllm.Kernels.ChunkedDispatch: DeepEP, pplx) receive at
// most dispatchTokensPerRank tokens from each rank, while the others gather
// every DP rank's batch (capped by the fused-MoE chunk).
func moeTokens(in *input.Input) (float64, string) {
	t := in.MaxNumBatchedTokens
	dp := in.Layout.DP
	fusedChunk := in.EnvInt("VLLM_FUSED_MOE_CHUNK_SIZE")
	switch {
	case in.All2AllBackend == "":
		return float64(min(t, fusedChunk)), "the rank's own batch"
	case backendKernels(in).ChunkedDispatch:
		per, by := dispatchTokensPerRank(in)
		return float64(per * dp), fmt.Sprintf("%d per rank (%s) × DP %d", per, by, dp)
	}
	return float64(min(t*dp, fusedChunk)), fmt.Sprintf("all-gathered from DP %d, fused-MoE chunk %d", dp, fusedChunk)
}

// dispatchTokensPerRank is the per-rank token capacity vLLM builds the MoE
// all-to-all buffers and batched workspaces for (FusedMoEConfig.max_num_tokens,
// vllm.Release.MoEDispatchTokens): before 0.20.0 the DP chunk,
// min(max_num_batched_tokens, VLLM_MOE_DP_CHUNK_SIZE), a larger batch being
// dispatched in chunks; from 0.20.0 (PR #39107 removed the chunking)
// max_num_batched_tokens whole. The text names the source for the formulas.
func dispatchTokensPerRank(in *input.Input) (int, string) {
	t := in.MaxNumBatchedTokens
	if in.Release().MoEDispatchTokens().ByBatchedTokens {
		return t, "max_num_batched_tokens"
	}
	return min(t, in.EnvInt("VLLM_MOE_DP_CHUNK_SIZE")), "VLLM_MOE_DP_CHUNK_SIZE"
}

// backendKernels is what vllm knows about the kernels of the backend in
// effect (the zero Kernels when none runs or the name is unknown).
func backendKernels(in *input.Input) vllm.Kernels {
	k, _ := vllm.BackendKernels(in.All2AllBackend)
	return k
}

// NonTorch lists the memory vLLM sees outside PyTorch's allocator. The
// terms' texts say where each figure comes from in words a user can check
// (they named Go constants, NonTorchBaseGiB and CollectivesGiB, before).
func NonTorch(in *input.Input) []Term {
	terms := []Term{{"cuBLAS / CUDA runtime", NonTorchBaseGiB, "measured: vLLM logs 0.25–0.27 GiB outside PyTorch on one GPU (docs/calibration-memory.md)"}}
	l := in.Layout
	switch {
	case l.TP*l.PP == 1 && (l.DP == 1 || !in.Model.IsMoE()):
	case in.GPU != nil && in.GPU.IntraNodeKind == "pcie":
		terms = append(terms, Term{"NCCL ring buffers (PCIe)", PCIeCollectivesGiB,
			fmt.Sprintf("GPU in NCCL groups (TP %d, PP %d, DP %d) over PCIe: no NVLS, no custom all-reduce; from NCCL's buffer sizes (docs/calibration-memory.md)", l.TP, l.PP, l.DP)})
	default:
		terms = append(terms, Term{"NCCL + custom all-reduce", CollectivesGiB,
			fmt.Sprintf("GPU in NCCL groups (TP %d, PP %d, DP %d): measured, vLLM logs ≈1.8 GiB more once a GPU joins them (docs/calibration-memory.md)", l.TP, l.PP, l.DP)})
	}
	if t, ok := all2allBuffers(in); ok {
		terms = append(terms, t)
	}
	terms = append(terms, fiARNormTerms(in)...)
	if in.CUDAGraphs && graphsBudgeted(in) {
		why := vllm.GraphMemoryVariable + "=1"
		if _, set := in.Env[vllm.GraphMemoryVariable]; !set {
			why = "vLLM " + in.Release().Version.String() + " profiles CUDA-graph memory by default (since " + in.Release().GraphMemoryProfiling().DefaultSince + ")"
		}
		terms = append(terms, Term{GraphTermName, CUDAGraphGiB, why})
	}
	return terms
}

// all2allBuffers sizes the communication buffers of the backend in effect
// (vllm.Buffers says which layout it reserves):
//
//	DeepEP normal: VLLM_DEEPEP_BUFFER_SIZE_MB of NVLink buffer, and as much
//	               RDMA buffer when the EP group spans nodes;
//	low-latency:   DeepEP's LowLatencyLayout: 2 (double-buffered) × 2
//	               (send + receive) × experts × tokens per rank × message,
//	               a message being one BF16 hidden vector + 16 B header;
//	               tokens per rank as lowLatencyTokens says.
func all2allBuffers(in *input.Input) (Term, bool) {
	b := in.All2AllBackend
	switch backendKernels(in).Buffers {
	case vllm.BuffersDeepEPNormal:
		mb := in.EnvInt("VLLM_DEEPEP_BUFFER_SIZE_MB")
		n := 1.0
		if in.Layout.Nodes > 1 {
			n = 2
		}
		return Term{"DeepEP HT buffers", n * float64(mb) / 1024,
			fmt.Sprintf("%g × VLLM_DEEPEP_BUFFER_SIZE_MB %d (NVLink%s)", n, mb, map[bool]string{true: " + RDMA", false: ""}[n == 2])}, true
	case vllm.BuffersLowLatency:
		tok, by := lowLatencyTokens(in)
		msg := float64(2*in.Model.HiddenSize + 16)
		bytes := 2 * 2 * float64(in.Model.NumExperts) * float64(tok) * msg
		formula := fmt.Sprintf("2 × 2 × %d experts × %d tokens (%s) × (2 × hidden %d + 16) B", in.Model.NumExperts, tok, by, in.Model.HiddenSize)
		if limit, depth, ok := vllm.DeepEPLLTokenLimit(in.Env[vllm.DeepEPQPDepthEnv]); b == vllm.BackendDeepEPLowLatency && ok && tok > limit {
			// Said beside the figure (validate refuses the spec, SPEC118):
			// DeepEP asserts NVSHMEM_QP_DEPTH ≥ 2 × (tokens + 1) at the first
			// dispatch; vLLM builds the buffer without a check.
			formula += fmt.Sprintf("; above DeepEP's low-latency limit of %d tokens per rank at NVSHMEM_QP_DEPTH %d (its dispatch asserts depth ≥ 2 × (tokens + 1)), which vLLM does not check", limit, depth)
		}
		return Term{b + " buffers", bytes / GiB, formula}, true
	}
	return Term{}, false
}

// lowLatencyTokens is the num_max_dispatch_tokens_per_rank the low-latency
// buffers are built for: VLLM_MOE_DP_CHUNK_SIZE before 0.20.0 (the buffer is
// built for the chunk whatever the batch), max_num_batched_tokens from 0.20.0
// (vllm.Release.MoEDispatchTokens). The text names the source.
func lowLatencyTokens(in *input.Input) (int, string) {
	if in.Release().MoEDispatchTokens().ByBatchedTokens {
		return in.MaxNumBatchedTokens, "max_num_batched_tokens"
	}
	return in.EnvInt("VLLM_MOE_DP_CHUNK_SIZE"), "VLLM_MOE_DP_CHUNK_SIZE"
}

// deviceGiB is the CUDA-runtime total vLLM multiplies by the utilization.
func deviceGiB(g *catalog.GPU) float64 { return g.MemoryMiB / 1024 }

// The activation terms' names: PeakActivation writes them, ActivationRule
// reads them back.
const (
	termForward     = "forward pass"
	termSampler     = "sampler"
	termMarlinLayer = "Marlin MoE layer"
	// termCutlassMXFP4Layer is declared in cutlass_mxfp4.go.
	termMoEWorkspace   = "fused-MoE workspace"
	termEncoderOutputs = "multimodal encoder profile outputs"
)

// ActivationRule says how the activation peak's terms combine, as
// PeakActivation combines them: the largest of the forward pass, the
// sampler and (where Marlin runs the experts) the Marlin MoE layer, plus the
// fused-MoE workspace and the encoder outputs where they are charged. The
// renderers print it beside the peak so the label never names a term the
// peak does not hold.
func (r *Report) ActivationRule() string {
	inMax := []string{"forward"}
	var added []string
	for _, t := range r.Activation {
		switch t.Name {
		case termSampler:
			inMax = append(inMax, "sampler")
		case termMarlinLayer:
			inMax = append(inMax, "Marlin MoE layer")
		case termCutlassMXFP4Layer:
			inMax = append(inMax, "CUTLASS MXFP4 MoE layer")
		case termMoEWorkspace:
			added = append(added, "fused-MoE workspace")
		case termEncoderOutputs:
			added = append(added, "encoder outputs")
		}
	}
	rule := "max(" + strings.Join(inMax, ", ") + ")"
	if len(inMax) == 1 {
		rule = inMax[0]
	}
	for _, a := range added {
		rule += " + " + a
	}
	return rule
}
