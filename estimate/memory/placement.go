package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// Component names, in the order the report lists them (input.Comp*: the
// storage rule and the step model use the same names).
const (
	CompEmbedding   = input.CompEmbedding
	CompLMHead      = input.CompLMHead
	CompAttention   = input.CompAttention
	CompMLACopies   = input.CompMLACopies
	CompIndexer     = input.CompIndexer
	CompDenseMLP    = input.CompDenseMLP
	CompRouted      = input.CompRouted
	CompRedundant   = input.CompRedundant
	CompShared      = input.CompShared
	CompRouter      = input.CompRouter
	CompNorms       = input.CompNorms
	CompHyperConn   = input.CompHyperConn
	CompLatentProj  = input.CompLatentProj
	CompRoPECache   = input.CompRoPECache
	CompEncoder     = input.CompEncoder
	CompDeepStack   = input.CompDeepStack
	vocabPadPerRank = vllm.VocabPaddingSize // vLLM pads the vocabulary to this multiple
)

// Share is one component's parameters on one GPU, with the vLLM rule that
// put them there.
type Share struct {
	Component string `json:"component"`
	// ParamsTotal is the model-wide count (all layers, all ranks).
	ParamsTotal float64 `json:"params_total"`
	// ParamsPerGPU is what the binding GPU holds.
	ParamsPerGPU float64 `json:"params_per_gpu"`
	Placement    string  `json:"placement"`
	// StoredPerGPU counts the elements stored, padding included, when vLLM
	// pads the tensors (MXFP4 experts); 0 means ParamsPerGPU.
	StoredPerGPU float64 `json:"stored_per_gpu,omitempty"`
}

func share(component string, total, perGPU float64, placement string) Share {
	return Share{Component: component, ParamsTotal: total, ParamsPerGPU: perGPU, Placement: placement}
}

// Stored is the number of elements the GPU stores for the component.
func (s Share) Stored() float64 {
	if s.StoredPerGPU > 0 {
		return s.StoredPerGPU
	}
	return s.ParamsPerGPU
}

// Stage is a pipeline stage's slice of decoder layers [First, End).
type Stage struct {
	Index, First, End int
}

// Layers is the number of decoder layers on the stage.
func (s Stage) Layers() int { return s.End - s.First }

// PPStages splits layers the way vLLM's get_pp_indices does: every stage
// gets layers/pp and the remainder goes one each to the stages just before
// the last (VLLM_PP_LAYER_PARTITION unset).
func PPStages(layers, pp int) []Stage {
	pp = max(pp, 1)
	parts := make([]int, pp)
	for i := range parts {
		parts[i] = layers / pp
	}
	for i := 2; i < 2+layers%pp; i++ {
		parts[pp-i]++
	}
	out := make([]Stage, pp)
	start := 0
	for i, n := range parts {
		out[i] = Stage{Index: i, First: start, End: start + n}
		start += n
	}
	return out
}

// layerMix counts the softmax-attention, dense-MLP and MoE layers of a
// stage (hybrids' linear-attention and Mamba layers are neither attention
// nor, in Nemotron-H, an MLP).
func layerMix(m *catalog.Model, s Stage) (attn, dense, moe int) {
	for i := s.First; i < s.End; i++ {
		if m.HasAttention(i) {
			attn++
		}
		if m.IsMoELayer(i) {
			moe++
		}
		if m.HasDenseMLP(i) {
			dense++ // Gemma 4: beside the experts
		}
	}
	return
}

// linearLayers counts the stage's Gated DeltaNet layers (0 but for hybrids).
func linearLayers(m *catalog.Model, s Stage) int {
	n := 0
	for i := s.First; i < s.End; i++ {
		if m.IsLinearLayer(i) {
			n++
		}
	}
	return n
}

// mambaLayers counts the stage's Mamba-2 layers (0 but for Nemotron-H).
func mambaLayers(m *catalog.Model, s Stage) int {
	n := 0
	for i := s.First; i < s.End; i++ {
		if m.IsMambaLayer(i) {
			n++
		}
	}
	return n
}

// Placement computes the per-GPU parameter shares of one pipeline stage for
// the GPU holding the most routed experts (DP ranks are otherwise equal).
func Placement(in *input.Input, s Stage) []Share {
	m, l := in.Model, in.Layout
	pc := m.ParamCounts()
	attnN, denseN, moeN := layerMix(m, s)
	tp := float64(l.TP)
	h := float64(m.HiddenSize)
	var out []Share
	if s.Index == 0 {
		out = append(out, share(CompEmbedding, pc.Embedding, vocabPerRank(m.VocabSize, l.TP)*h,
			fmt.Sprintf("vocabulary split over TP=%d (padded to a multiple of %d per rank), first pipeline stage", l.TP, vocabPadPerRank)))
	}
	if s.Index == l.PP-1 && (!m.TieWordEmbeddings || l.PP > 1) {
		out = append(out, share(CompLMHead, max(pc.LMHead, pc.Embedding*boolF(m.TieWordEmbeddings)), vocabPerRank(m.VocabSize, l.TP)*h,
			fmt.Sprintf("vocabulary split over TP=%d, last pipeline stage", l.TP)))
	}
	linN, mamN := linearLayers(m, s), mambaLayers(m, s)
	rule := attentionRule(m, l.TP, attnN)
	if linN > 0 {
		rule += fmt.Sprintf("; %d %s layers (in_proj, conv1d, out_proj split by head over TP=%d)", linN, m.LinearAttentionName(), l.TP)
	}
	if mamN > 0 {
		rule += fmt.Sprintf("; %d Mamba-2 layers (in_proj, conv1d, out_proj split by head over TP=%d)", mamN, l.TP)
	}
	// Hybrids' linear-attention and Mamba mixers take attention's place in
	// their layers; their weights are counted with it.
	out = append(out, share(CompAttention, pc.Attention,
		float64(attnN)*attentionPerRank(m, l.TP)+float64(linN)*m.LinearAttentionParams(l.TP)+float64(mamN)*m.MambaParams(l.TP), rule))
	if m.IsMLA() && mlaCopiesKept(in) {
		copies := float64(attnN) * float64(m.KVLoraRank) * headsPerRank(m.NumHeads, l.TP) * float64(m.QKNopeHeadDim+m.VHeadDim)
		out = append(out, share(CompMLACopies, 0, copies,
			"W_UK/W_UV: vLLM's MLA keeps the quantized kv_b_proj's up-projections a second time, de-quantized, for the absorbed decode path"))
	}
	if m.IsSparseAttention() {
		// IndexCache: layers that reuse another layer's indices build no indexer.
		idxN := m.IndexerLayers(s.First, s.End)
		out = append(out, share(CompIndexer, pc.Indexer, float64(idxN)*pc.IndexerPerLayer,
			fmt.Sprintf("%d layers' DSA indexers (wq_b, wk, weights_proj, k_norm): replicated on every GPU", idxN)))
	} else if m.MiniMaxM3 != nil {
		out = append(out, minimaxM3IndexerShare(m, pc, s, l.TP))
	}
	if denseN > 0 && m.IntermediateSize > 0 {
		perGPU, rule := float64(denseN)*pc.DenseMLPPerLayer/tp, fmt.Sprintf("%d dense layers, split over TP=%d", denseN, l.TP)
		if m.NAS != nil {
			// Llama-Nemotron NAS: each layer's MLP of its own width (ffn_mult).
			perGPU = m.DenseMLPInLayers(s.First, s.End) / tp
			rule = fmt.Sprintf("%d dense layers of their own widths (block_configs ffn_mult), split over TP=%d", denseN, l.TP)
		}
		out = append(out, share(CompDenseMLP, pc.DenseMLP, perGPU, rule))
	}
	if moeN > 0 {
		out = append(out, expertShares(in, pc, moeN)...)
	}
	norms := float64(m.NormsInLayers(s.First, s.End)) * h
	if s.Index == l.PP-1 {
		norms += h
	}
	out = append(out, share(CompNorms, pc.Norms, norms, "replicated on every GPU"))
	if pc.HyperConnections > 0 {
		per, head := m.DSV4HyperConnections()
		hc := float64(s.Layers()) * per
		if s.Index == l.PP-1 {
			hc += head
		}
		out = append(out, share(CompHyperConn, pc.HyperConnections, hc, "hc_attn/hc_ffn mixers of every layer (and the hc_head on the last stage): replicated on every GPU"))
	}
	if e := m.Encoder; e != nil {
		out = append(out, share(CompEncoder, e.Params, e.PerGPU(l.TP), encoderRule(e, l.TP)))
		if n := deepStackElems(in); n > 0 {
			// A buffer, not parameters: stored elements only.
			out = append(out, Share{Component: CompDeepStack, StoredPerGPU: n,
				Placement: fmt.Sprintf("%d DeepStack buffers of max_num_batched_tokens %d × hidden_size %d, whole on every GPU",
					e.DeepStackLevels, in.MaxNumBatchedTokens, m.HiddenSize)})
		}
	}
	if n, pos, dim := ropeCacheElems(m); n > 0 && attnN > 0 && !ropeSharedWithTarget(in) {
		caches, what := 1.0, ""
		if g := m.MiMo; g != nil && g.SeparateSWARope {
			// MiMoV2Attention calls get_rope with rope_theta in the full
			// layers and swa_rope_theta in the sliding-window ones
			// (vllm/model_executor/models/mimo_v2.py): two bases, two
			// rotary embeddings, two caches of the same size.
			caches, what = 2, " × 2 (full and sliding-window layers' RoPE bases)"
		} else if dsv4RopeBases(m, s) == 2 {
			caches, what = 2, " × 2 (rope_theta for the sliding-window-only layers, compress_rope_theta for the compressed ones)"
		}
		out = append(out, share(CompRoPECache, 0, caches*n,
			fmt.Sprintf("RoPE's cos/sin cache, %d positions × %d rotary dimensions%s, whole on every GPU", pos, dim, what)))
	}
	return out
}

// ropeSharedWithTarget reports whether in is an MTP proposer built from
// the target's own config, whose rotary embedding is the target's: get_rope
// keeps one instance per (head_size, rotary_dim, max_position,
// is_neox_style, rope_parameters, dtype) in the module-level _ROPE_DICT
// (vllm/model_executor/layers/rotary_embedding/__init__.py), the proposer
// is loaded after the target in the same worker, and its layers call
// get_rope with the same config values (DeepSeek-V4's MTP layer:
// DeepseekV4DecoderLayer, compress ratio 1, rope_theta, like the target's
// sliding-window layers; vllm/model_executor/models/deepseek_v4_mtp.py at
// vllm-project/vllm 023da1fc). No second cache is allocated.
func ropeSharedWithTarget(in *input.Input) bool {
	sp := in.Speculative
	return sp != nil && sp.Draft != nil && in.Model == sp.Draft.Layers && sp.Method == "mtp" && sp.DraftPath == ""
}

// dsv4RopeBases is the number of rotary embeddings DeepSeek-V4's layers of
// stage s build: DeepseekV4Attention passes rope_theta to get_rope in the
// layers of compress ratio 1 (sliding window only) and compress_rope_theta
// in the compressed ones (ratio 4 or 128), so a stage with both kinds
// holds two caches (vllm/model_executor/models/deepseek_v4.py at
// vllm-project/vllm 023da1fc). DeepSeek's configs set the two bases apart
// (10,000 and 160,000); 0 for other models.
func dsv4RopeBases(m *catalog.Model, s Stage) int {
	d := m.DSV4
	if d == nil {
		return 0
	}
	var plain, compressed bool
	for i := s.First; i < s.End; i++ {
		if d.Ratio(i) > 1 {
			compressed = true
		} else {
			plain = true
		}
	}
	if plain && compressed {
		return 2
	}
	return 1
}

// ropeCacheElems is the cos/sin cache vLLM's rotary embedding builds and
// keeps on the GPU with the model (register_buffer in
// RotaryEmbedding.__init__, vllm/model_executor/layers/rotary_embedding/
// base.py, read at commit 04458da; its size is max_position_embeddings ×
// rotary_dim, cast to the model dtype), which "Model loading took" counts:
// get_rope shares one instance among the layers. YaRN builds it over
// original_max_position_embeddings × factor positions (YaRNScalingRotary-
// Embedding), the others over max_position_embeddings. Negligible for most
// models (Llama-3.1-8B: 131,072 × 128 × 2 B = 32 MiB), it is 2.5 GiB for
// Llama-4-Scout's 10,485,760 positions (published/vllm-memory-logs.yaml,
// llama4-scout-llmd-h100-tp4). Models with a second RoPE for their local
// layers (Gemma 3 and 4) build a second cache, not counted (≤ 128 MiB).
//
// DeepSeek-V4 rotates only the last qk_rope_head_dim (64) of its 512-wide
// head: DeepseekV4Attention sets rope_parameters["rope_dim"] =
// qk_rope_head_dim and get_rope takes rotary_dim from it
// (vllm/model_executor/models/deepseek_v4.py at vllm-project/vllm
// 023da1fc), and its DeepseekV4ScalingRotaryEmbedding keeps the cache in
// float32 (input.StorageRule) over original_max_position_embeddings ×
// factor positions; DeepseekCompressor documents the layout as
// [max_pos, rope_head_dim] (vllm/model_executor/layers/
// deepseek_compressor.py).
func ropeCacheElems(m *catalog.Model) (elems float64, positions, dim int) {
	if m.KimiLinear != nil {
		// Kimi-K3's MLA layers are NoPE: vLLM's MultiHeadLatentAttention
		// builds no rotary embedding unless use_rope (the DSpark draft's),
		// and KDA has none (vllm/models/kimi_k3/nvidia/mla.py).
		return 0, 0, 0
	}
	if m.Mamba != nil {
		// Nemotron-H's attention has no positional encoding: vLLM's
		// NemotronHAttention builds qkv_proj, o_proj and Attention, no
		// rotary embedding (vllm/model_executor/models/nemotron_h.py, read
		// at commit 00b08dc), so no cos/sin cache is loaded.
		return 0, 0, 0
	}
	positions = m.MaxPositionEmbeddings
	if r := m.RopeScaling; r != nil && r.Type == "yarn" && r.OriginalMax > 0 && r.Factor > 0 {
		positions = int(float64(r.OriginalMax) * r.Factor)
	}
	dim = m.HeadDim
	if m.IsMLA() || (m.DSV4 != nil && m.QKRopeHeadDim > 0) {
		dim = m.QKRopeHeadDim
	} else if f := m.PartialRotaryFactor; f > 0 && f < 1 {
		dim = int(float64(m.HeadDim) * f)
	}
	if positions <= 0 || dim <= 0 {
		return 0, 0, 0
	}
	return float64(positions) * float64(dim), positions, dim
}

// mlaCopiesKept reports whether vLLM's MLA stores W_UK/W_UV as copies of
// kv_b_proj: only when kv_b_proj is quantized. process_weights_after_loading
// (vllm/attention/backends/mla/common.py in V0, v1/attention/backends/mla/
// common.py in V1, read at several commits up to the release with
// DCP and the DSA indexer) de-quantizes a quantized kv_b_proj into a new
// 16-bit tensor, but for an unquantized one returns layer.weight and takes
// W_UK/W_UV as transposed, split views of it: no extra memory.
func mlaCopiesKept(in *input.Input) bool {
	if sh := in.Model.Quant.Shares; sh != nil && in.WeightsFromCheckpoint && in.WeightsDType == in.Model.CheckpointDType() {
		// A 4-bit or ModelOpt checkpoint: kv_b_proj alone decides
		// (DeepSeek-V3.1-NVFP4 keeps it BF16, quantizing only o_proj).
		return sh.KVB > 0
	}
	r := StorageRule(in, CompAttention)
	return r.DType != "bf16" && r.DType != "fp16"
}

// expertShares places routed experts (EP split or flattened-TP sharded),
// redundant EPLB experts, shared experts and the router.
func expertShares(in *input.Input, pc catalog.ParamCounts, moeN int) []Share {
	m, l := in.Model, in.Layout
	mf := float64(moeN)
	ep := l.EPSize()
	var out []Share
	if l.EP {
		perRank := ceilDiv(m.NumExperts, ep)
		rule := fmt.Sprintf("%d of %d experts per GPU (EP = TP×DP = %d; %d//%d with the remainder spread, max rank shown), %d MoE layers",
			perRank, m.NumExperts, ep, m.NumExperts, ep, moeN)
		if in.EnableEPLB && in.NumRedundantExperts > 0 {
			perRank = m.NumExperts / ep
			rule = fmt.Sprintf("%d of %d logical experts per GPU (EP = %d), %d MoE layers", perRank, m.NumExperts, ep, moeN)
		}
		p, st := expertParamsPerRank(in, 1)
		out = append(out, Share{CompRouted, pc.RoutedExperts, mf * float64(perRank) * p, rule + kimiPadText(in) + mxfp4PadText(in, 1), mf * float64(perRank) * st})
		if in.EnableEPLB && in.NumRedundantExperts > 0 {
			phys := (m.NumExperts + in.NumRedundantExperts) / ep
			red := phys - perRank
			out = append(out, Share{CompRedundant, 0, mf * float64(red) * p,
				fmt.Sprintf("EPLB: %d redundant experts over %d ranks = %d extra per GPU per MoE layer", in.NumRedundantExperts, ep, red), mf * float64(red) * st})
		}
	} else {
		p, st := expertParamsPerRank(in, ep)
		rule := fmt.Sprintf("all %d experts on the GPU, %d MoE layers", m.NumExperts, moeN)
		if ep > 1 {
			rule = fmt.Sprintf("all %d experts on every GPU, each split over TP×DP = %d ranks (no expert parallel: flattened TP), %d MoE layers", m.NumExperts, ep, moeN)
		}
		out = append(out, Share{CompRouted, pc.RoutedExperts, mf * float64(m.NumExperts) * p, rule + kimiPadText(in) + mxfp4PadText(in, ep), mf * float64(m.NumExperts) * st})
	}
	if pc.SharedPerLayer > 0 {
		out = append(out, share(CompShared, pc.SharedExperts, mf*pc.SharedPerLayer/float64(l.TP),
			fmt.Sprintf("replicated per DP rank, split over TP=%d", l.TP)))
	}
	out = append(out, share(CompRouter, pc.Router, mf*pc.RouterPerLayer, "replicated on every GPU"))
	if pc.LatentPerLayer > 0 {
		names := "fc1/fc2_latent_proj"
		if m.KimiLinear != nil {
			names = "routed_expert_down_proj/up_proj"
		}
		out = append(out, share(CompLatentProj, pc.LatentProj, mf*pc.LatentPerLayer,
			fmt.Sprintf("%s (hidden %d ↔ latent %d) of %d MoE layers: ReplicatedLinear, whole on every GPU", names, m.HiddenSize, m.MoELatentSize, moeN)))
	}
	return out
}

// expertParamsPerRank is one routed expert's parameters on a rank that holds
// 1/shards of its intermediate dimension, and the elements stored once vLLM's
// MXFP4 MoE padding is applied.
func expertParamsPerRank(in *input.Input, shards int) (params, stored float64) {
	m := in.Model
	params = expertElems(m, float64(m.ExpertHidden()), float64(m.MoEIntermediateSize)/float64(shards))
	if pi := m.KimiPaddedMoEIntermediate(in.Layout.TP); pi > m.MoEIntermediateSize {
		// Kimi-K3's experts are built (and stored) at the padded width.
		return params, expertElems(m, float64(m.ExpertHidden()), float64(pi)/float64(shards))
	}
	if in.WeightsDType != "mxfp4" || in.Model.Quant.Format == catalog.FormatMXFP4 {
		// compressed-tensors MXFP4 experts are not padded: vLLM's
		// CompressedTensorsW4A4Mxfp4MoEMethod.create_weights allocates
		// intermediate_size_per_partition and hidden_size as given
		// (compressed_tensors_moe_w4a4_mxfp4.py read at 00882314), where
		// gpt-oss's Mxfp4MoEMethod rounds them up first.
		return params, params
	}
	pad := mxfp4Padding(in)
	h := float64(roundUp(m.ExpertHidden(), pad.hidden))
	im := float64(roundUp(ceilDiv(m.MoEIntermediateSize, shards), pad.inter))
	return params, expertElems(m, h, im)
}

// kimiPadText says that Kimi-K3's experts are stored at a padded width ("" when not).
func kimiPadText(in *input.Input) string {
	m := in.Model
	if pi := m.KimiPaddedMoEIntermediate(in.Layout.TP); pi > m.MoEIntermediateSize {
		return fmt.Sprintf("; stored %d wide, not %d: vLLM's KimiMoE pads a TP rank's share to at least 256 (256 × TP %d)", pi, m.MoEIntermediateSize, in.Layout.TP)
	}
	return ""
}

// mxfp4PadText says how gpt-oss's MXFP4 experts are padded, with shards
// ranks sharing each expert, and flags a padding assumed for want of the
// release's kernel ("" when the experts are not padded MXFP4).
func mxfp4PadText(in *input.Input, shards int) string {
	m := in.Model
	if in.WeightsDType != "mxfp4" || m.Quant.Format == catalog.FormatMXFP4 || m.KimiPaddedMoEIntermediate(in.Layout.TP) > m.MoEIntermediateSize {
		return ""
	}
	pad := mxfp4Padding(in)
	h, i := roundUp(m.ExpertHidden(), pad.hidden), roundUp(ceilDiv(m.MoEIntermediateSize, shards), pad.inter)
	kernel := string(pad.kernel)
	if kernel == "" {
		kernel = "ROCm's MXFP4 MoE (any kernel: the release pads alike)"
	}
	s := fmt.Sprintf("; MXFP4 experts stored %d × %d (hidden × intermediate per rank), padded for %s (vllm.Release.MXFP4ExpertPadding)", h, i, kernel)
	if pad.standIn {
		s = fmt.Sprintf("; MXFP4 experts counted %d × %d (hidden × intermediate per rank): %s's create_weights pads only the intermediate, to 64, "+
			"but logs of this path load more; Marlin's padding stands in as the measured figure (memory.tritonLoadedStandIn)", h, i, pad.kernel)
	}
	if pad.assumed {
		s = fmt.Sprintf("; MXFP4 experts stored %d × %d (hidden × intermediate per rank): ASSUMED %s's padding, the release's kernel on this GPU is not pinned", h, i, pad.kernel)
	}
	return s
}

// expertElems is one expert of width im over hidden h: gate, up and down
// (up and down for Nemotron-H's relu² experts), with gpt-oss's biases.
func expertElems(m *catalog.Model, h, im float64) float64 {
	n := m.FFNMatrices() * h * im
	if m.ExpertBias {
		n += 2*im + h
	}
	return n
}

func attentionPerRank(m *catalog.Model, tp int) float64 {
	return m.AttentionParams(headsPerRank(m.NumHeads, tp), KVHeadsPerRank(m, tp))
}

func attentionRule(m *catalog.Model, tp, layers int) string {
	if m.DSV4 != nil {
		return fmt.Sprintf("%d DeepSeek-V4 attention layers: wq_b, wo_a, wo_b split by head over TP=%d; wq_a/wkv, compressors and indexers replicated", layers, tp)
	}
	if m.IsMLA() {
		return fmt.Sprintf("%d MLA layers: heads split over TP=%d; q_a and kv_a (latent) projections replicated", layers, tp)
	}
	kv := KVHeadsPerRank(m, tp)
	rule := fmt.Sprintf("%d layers: %g query heads and %g KV heads per GPU (TP=%d)", layers, headsPerRank(m.NumHeads, tp), kv, tp)
	if s := m.Step3p5; s != nil && s.SWAHeads != m.NumHeads {
		rule += fmt.Sprintf(" (Step-3.x's sliding-window layers: %g query heads per GPU)", headsPerRank(s.SWAHeads, tp))
	}
	if tp > m.NumKVHeads {
		rule += "; KV heads replicated because TP > KV heads"
	}
	return rule
}

// KVHeadsPerRank is max(1, kv_heads / TP): vLLM replicates KV heads when TP
// exceeds their number (input.KVHeadsPerRank).
func KVHeadsPerRank(m *catalog.Model, tp int) float64 { return input.KVHeadsPerRank(m, tp) }

func headsPerRank(heads, tp int) float64 { return input.HeadsPerRank(heads, tp) }

func vocabPerRank(vocab, tp int) float64 {
	return float64(roundUp(ceilDiv(vocab, tp), vocabPadPerRank))
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return a
	}
	return (a + b - 1) / b
}

func roundUp(a, m int) int { return ceilDiv(a, m) * m }

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// deepStackElems is the DeepStack buffers Qwen3-VL's wrapper allocates
// in its __init__ (Qwen3VLForConditionalGeneration.deepstack_input_embeds,
// vllm/model_executor/models/qwen3_vl.py read at commit 002d7b9: one
// torch.zeros(max_num_batched_tokens, text hidden_size) per DeepStack
// level, in the model dtype, on every rank), which "Model loading took"
// counts: 3 × 16,384 × 4,096 × 2 B = 0.375 GiB for Qwen3-VL-8B at 16,384
// batched tokens.
func deepStackElems(in *input.Input) float64 {
	e := in.Model.Encoder
	if e == nil || e.DeepStackLevels <= 0 || in.MaxNumBatchedTokens <= 0 {
		return 0
	}
	return float64(e.DeepStackLevels) * float64(in.MaxNumBatchedTokens) * float64(in.Model.HiddenSize)
}

// encoderRule says where a vision encoder's parameters sit. The wrappers
// read (gemma3_mm.py, gemma4_mm.py, qwen3_vl.py) build the tower in their
// __init__ with no pipeline-stage condition, so every stage holds it; the
// part vLLM shards (catalog.Encoder.ShardedParams) is split over TP, unless
// TP does not divide the encoder's heads where vLLM checks them
// (catalog.Encoder.SplitOverTP). Not modelled: --mm-encoder-tp-mode data
// (the encoder whole on every GPU) and a start-up that skips the tower (every modality it serves limited to
// 0 with --limit-mm-per-prompt, or --language-model-only, in the releases
// that skip it).
func encoderRule(e *catalog.Encoder, tp int) string {
	if e.ShardedParams == 0 || tp == 1 {
		return fmt.Sprintf("%s; %s", e.Rule, e.Derivation)
	}
	if !e.SplitOverTP(tp) {
		return fmt.Sprintf("%s; TP=%d does not divide its %d heads, so vLLM runs the encoder data parallel, whole on every GPU; %s",
			e.Rule, tp, e.Heads, e.Derivation)
	}
	return fmt.Sprintf("%s: %.0f of %.0f parameters split over TP=%d; %s", e.Rule, e.ShardedParams, e.Params, tp, e.Derivation)
}
