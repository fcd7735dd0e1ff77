package memory

import (
	"fmt"
	"slices"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// KVLayout is the KV-cache cost of one token on one GPU of a pipeline stage.
type KVLayout struct {
	// BytesPerToken is what vLLM divides the KV budget by: every attention
	// layer on the GPU counted as full attention (vLLM's hybrid allocator
	// sizes pages over all layers and prints tokens on that basis).
	BytesPerToken int64 `json:"bytes_per_token"`
	// BytesPerTokenPerLayer is one layer's share (with DSA, a layer that
	// keeps its indexer).
	BytesPerTokenPerLayer int64 `json:"bytes_per_token_per_layer"`
	Layers                int   `json:"layers"`
	// IndexerLayers are the DSA layers of Layers that keep their own
	// indexer key cache: all of them unless the model shares indices
	// (catalog.IndexCache); 0 without DSA.
	IndexerLayers int `json:"indexer_layers,omitempty"`
	// SlidingLayers of Layers use a sliding window of SlidingWindow tokens.
	SlidingLayers int    `json:"sliding_layers,omitempty"`
	SlidingWindow int    `json:"sliding_window,omitempty"`
	DType         string `json:"dtype"`
	Formula       string `json:"formula"`
	// DraftBytesPerToken is the speculative-decoding proposer's layers'
	// share of BytesPerToken (last pipeline stage; full attention).
	DraftBytesPerToken int64 `json:"draft_bytes_per_token,omitempty"`
	// JoinedDraftBytesPerToken is the proposer's share of BytesPerToken
	// when its layers joined the target's cache groups (withProposer):
	// already in Caches, so no term of its own (DraftBytesPerToken 0).
	JoinedDraftBytesPerToken int64 `json:"joined_draft_bytes_per_token,omitempty"`
	// LinearLayers are the stage's Gated DeltaNet layers and MambaLayers
	// its Mamba-2 layers: not in Layers, they cache no tokens but a fixed
	// state per sequence.
	LinearLayers int `json:"linear_layers,omitempty"`
	MambaLayers  int `json:"mamba_layers,omitempty"`
	// StateBytesPerSeq is that state on this GPU for one sequence, whatever
	// its length (vLLM's hybrid KV-cache manager allocates it per request);
	// 0 for every model without linear-attention layers.
	StateBytesPerSeq int64 `json:"state_bytes_per_seq,omitempty"`
	// Caches are DeepSeek-V4's paged caches on the stage (catalog.
	// Model.DeepseekV4Caches); when set, SequenceBytes sums them and the
	// per-layer fields above describe their mean.
	Caches []catalog.PagedCache `json:"caches,omitempty"`
	// Packing is how vLLM lays Caches out (packingDSV4, packingUniformPage).
	Packing string `json:"packing,omitempty"`
	// HybridBlock is the attention block vLLM sets for a Mamba-2 or Gated
	// DeltaNet hybrid so that one attention page holds one layer's state
	// (hybridStatePacking); 0 for every other model.
	HybridBlock int `json:"hybrid_block,omitempty"`
	// StatePages is the pages each state group holds per sequence (1 in
	// mamba_cache_mode none, 2 in align: vllm.Release.StatePagesPerRequestFor);
	// 0 without state groups.
	StatePages int `json:"state_pages,omitempty"`
	// DCP is the decode context parallel size (0 or 1: off): each GPU of
	// a DCP group stores every DCP-th token of a sequence (vLLM PR #23734's
	// interleaving), so a sequence of n tokens holds ceil(n / DCP) of them
	// here (vllm.DCPLogSource: max_memory_usage_bytes counts
	// cdiv(max_model_len, dcp) per rank). Applied to the unpacked layouts'
	// attention (Cost) and to the whole-sequence attention pages of a
	// state hybrid (uniformPage.cost); sliding-window pages (vLLM asserts
	// "DCP not support sliding window") and DeepSeek-V4's ignore it.
	DCP int `json:"dcp,omitempty"`
	// modelLayers, set on a pipeline stage of a hybrid, are the whole
	// model's layers of each of Caches' kinds, which vLLM groups
	// (KVLayout.pack); nil where Caches are the whole model.
	modelLayers []int
	// chunk is the tokens scheduled but not yet processed that a
	// sliding-window layer holds beside its window (inFlightTokens): one
	// prefill chunk of max_num_batched_tokens up to 0.25.1, every batch in
	// flight from 0.26.0.
	chunk int
	// batches is the batches in flight whose tokens chunk counts (1; from
	// 0.26.0 the pipeline size, or 2 with async scheduling): a decoding
	// sequence has one token in each (RunCost).
	batches int
	// running selects the running count in Cost (RunCost).
	running bool
}

// inFlightTokens is what a sliding-window group of the input's release
// keeps per request beside its last window − 1 tokens
// (vllm.Release.SlidingWindowInFlight): max_num_batched_tokens, times the
// batches in flight from 0.26.0 (two with async scheduling at PP 1, which
// charges a Gemma 4 at max_model_len 16,384 and 8,192 batched tokens the
// whole request in its windowed groups).
func inFlightTokens(in *input.Input) int {
	n, _, _ := in.Release().SlidingWindowInFlight(in.MaxNumBatchedTokens, in.AsyncScheduling(), in.Layout.PP)
	return n
}

// inFlightBatches is the batches whose tokens inFlightTokens counts.
func inFlightBatches(in *input.Input) int {
	return max(1, inFlightTokens(in)/max(in.MaxNumBatchedTokens, 1))
}

// KVBytes returns the KV cost per token on a GPU of stage s.
//
//	GQA/MHA: 2 (K and V) × max(1, kv_heads/TP) × head_dim × layers × dtype bytes
//	MLA:     (kv_lora_rank + qk_rope_head_dim) × layers × dtype bytes, the same
//	         on every TP rank (the latent is replicated, not split)
//
// On a pipeline stage of a hybrid whose caches vLLM packs in uniform pages,
// the groups are the whole model's, projected onto the stage
// (vllm.Release.KVGroupsFromWholeModel).
func KVBytes(in *input.Input, s Stage) KVLayout {
	kv := kvBytes(in, s)
	if d := in.DCPSize(); d > 1 {
		kv.DCP = d
	}
	return kv
}

// kvBytes is KVBytes without decode context parallelism.
func kvBytes(in *input.Input, s Stage) KVLayout {
	kv := stageKV(in, s)
	m := in.Model
	if m.DSV4 != nil || (s.First <= 0 && s.End >= m.NumLayers) {
		return kv
	}
	if p, _ := in.Release().KVGroupsFromWholeModel(); p == vllm.Absent {
		return kv
	}
	if whole := stageKV(in, Stage{First: 0, End: m.NumLayers}); whole.Packing == packingUniformPage {
		return kv.groupedWith(whole)
	}
	return kv
}

// stageKV is KVBytes with the stage's own layers grouped.
func stageKV(in *input.Input, s Stage) KVLayout {
	m := in.Model
	if m.DSV4 != nil {
		return deepseekV4KV(in, s)
	}
	if m.HasLayerAttention() {
		return layeredKV(in, s)
	}
	b := dtypeBytes(in.KVCacheDType)
	kv := KVLayout{Layers: s.Layers(), DType: in.KVCacheDType, SlidingWindow: m.SlidingWindow, chunk: inFlightTokens(in), batches: inFlightBatches(in)}
	for i := s.First; i < s.End; i++ {
		if m.IsSlidingLayer(i) {
			kv.SlidingLayers++
		}
	}
	if kv.SlidingLayers == 0 {
		kv.SlidingWindow = 0
	}
	for i := s.First; i < s.End; i++ {
		if !m.HasAttention(i) {
			kv.Layers-- // Gated DeltaNet, Mamba-2, and Nemotron-H's MLP/MoE layers
		}
	}
	kv.LinearLayers, kv.MambaLayers = linearLayers(m, s), mambaLayers(m, s)
	kv.StateBytesPerSeq = int64(kv.LinearLayers)*gdnStateBytes(in) + int64(kv.MambaLayers)*mambaStateBytes(in)
	switch {
	case m.IsSparseAttention():
		main, idx := m.MLACacheBytes(b), m.IndexerCacheBytes()
		kv.BytesPerTokenPerLayer = int64(main + idx)
		kv.IndexerLayers = m.IndexerLayers(s.First, s.End)
		kv.Formula = fmt.Sprintf("MLA with DeepSeek sparse attention: latent + RoPE key %d B (%s) + indexer key %d B (FP8 + fp32 scale) = %d B × %d layers, replicated on every TP rank",
			main, map[bool]string{true: "fp8_ds_mla", false: fmt.Sprintf("%d + %d values × %d B", m.KVLoraRank, m.QKRopeHeadDim, b)}[b == 1], idx, main+idx, kv.Layers)
		if kv.IndexerLayers < kv.Layers {
			kv.Formula = fmt.Sprintf("MLA with DeepSeek sparse attention and IndexCache: latent + RoPE key %d B (%s) × %d layers + indexer key %d B (FP8 + fp32 scale) × the %d layers that keep their indexer, replicated on every TP rank",
				main, map[bool]string{true: "fp8_ds_mla", false: fmt.Sprintf("%d + %d values × %d B", m.KVLoraRank, m.QKRopeHeadDim, b)}[b == 1], kv.Layers, idx, kv.IndexerLayers)
		}
	case m.MiniMaxM3 != nil:
		minimaxM3KV(in, s, &kv, b)
	case m.IsMLA():
		kv.BytesPerTokenPerLayer = int64(m.MLACacheBytes(b))
		kv.Formula = fmt.Sprintf("MLA: (kv_lora_rank %d + qk_rope_head_dim %d) × %d B × %d layers, replicated on every TP rank",
			m.KVLoraRank, m.QKRopeHeadDim, b, kv.Layers)
	default:
		heads := int(KVHeadsPerRank(m, in.Layout.TP))
		kv.BytesPerTokenPerLayer = int64(2 * heads * m.HeadDim * b)
		kv.Formula = fmt.Sprintf("2 (K,V) × %d KV heads per GPU × head_dim %d × %d B × %d layers", heads, m.HeadDim, b, kv.Layers)
	}
	kv.BytesPerToken = kv.BytesPerTokenPerLayer*int64(kv.Layers) + minimaxM3IndexKeyBytes(m, kv)
	if m.IsSparseAttention() {
		// Layers sharing another's indices (IndexCache) hold no indexer key.
		kv.BytesPerToken -= int64(kv.Layers-kv.IndexerLayers) * int64(m.IndexerCacheBytes())
	}
	if kv.SlidingLayers > 0 && kv.SlidingLayers < kv.Layers && kv.LinearLayers+kv.MambaLayers == 0 {
		kv.Caches, kv.Packing = slidingCaches(kv, max(in.BlockSize, 1)), packingUniformPage
		kv.Formula += "; " + packUniformPage(kv.Caches).describe()
	}
	if kv.SlidingLayers == 0 && kv.LinearLayers+kv.MambaLayers > 0 && kv.DraftBytesPerToken == 0 {
		// One layer's state (vLLM's MambaSpec page), the same in every
		// state layer of a model.
		per := gdnStateBytes(in)
		if kv.MambaLayers > 0 {
			per = mambaStateBytes(in)
		}
		if block, caches := hybridStatePacking(in, kv, per); caches != nil {
			kv.Caches, kv.Packing, kv.HybridBlock = caches, packingUniformPage, block
			kv.StatePages, _, _ = in.Release().StatePagesPerRequestFor(kv.MambaLayers > 0)
		}
	}
	if kv.LinearLayers > 0 {
		conv, tmp := m.GDNStateElems(in.Layout.TP)
		kv.Formula += fmt.Sprintf(" (full-attention layers only); + %d %s layers' state per sequence, %d B each: conv %d × %d B + recurrent %d × %d B",
			kv.LinearLayers, m.LinearAttentionName(), gdnStateBytes(in), conv, dtypeBytes(in.ActDType()), tmp, ssmStateBytes(in))
	}
	if kv.MambaLayers > 0 {
		conv, tmp := m.MambaStateElems(in.Layout.TP)
		kv.Formula += fmt.Sprintf(" (attention layers only); + %d Mamba-2 layers' state per sequence, %d B each: conv %d × %d B + temporal %d × %d B",
			kv.MambaLayers, mambaStateBytes(in), conv, dtypeBytes(in.ActDType()), tmp, ssmStateBytes(in))
	}
	if kv.HybridBlock > 0 {
		kv.Formula += fmt.Sprintf("; vLLM's attention block raised to %d tokens for the state pages, %d state page(s) per sequence and group", kv.HybridBlock, kv.StatePages)
	}
	return kv
}

// slidingCaches are the two cache kinds of a model whose sliding-window and
// full-attention layers share one KV shape (gpt-oss, Gemma 2 and 3): vLLM's
// hybrid allocator groups them as any hybrid (packingUniformPage), in groups
// of as many layers as the fewer kind has, the last group of the other kind
// padded. With as many sliding as full layers (gpt-oss) that is the plain
// count; Gemma 3's 52 sliding and 10 full layers make 6 sliding groups (60
// layers' pages) and 1 full one, which is what its log's "GPU KV cache size"
// and "Maximum concurrency" count (published/vllm-memory-logs.yaml,
// gemma3-27b-llmd-h100-tp1).
func slidingCaches(kv KVLayout, block int) []catalog.PagedCache {
	page := kv.BytesPerTokenPerLayer * int64(block)
	return []catalog.PagedCache{
		{Name: "sliding-window layers", Layers: kv.SlidingLayers, BlockTokens: block, PageBytes: page, Window: kv.SlidingWindow},
		{Name: "full-attention layers", Layers: kv.Layers - kv.SlidingLayers, BlockTokens: block, PageBytes: page},
	}
}

// mambaStateBytes is one Mamba-2 layer's state for one sequence on one GPU:
// the conv state in the activation dtype, the temporal state in
// mamba_ssm_cache_dtype where the checkpoint sets it (Nemotron-3 Nano:
// float32), else the activation dtype.
func mambaStateBytes(in *input.Input) int64 {
	conv, tmp := in.Model.MambaStateElems(in.Layout.TP)
	return conv*int64(dtypeBytes(in.ActDType())) + tmp*int64(ssmStateBytes(in))
}

// gdnStateBytes is one Gated DeltaNet layer's state for one sequence on one
// GPU: the conv state in the activation dtype (vLLM's mamba_cache_dtype
// auto) and the recurrent state in mamba_ssm_dtype where the checkpoint
// sets it (Qwen3.5: float32), else the activation dtype.
func gdnStateBytes(in *input.Input) int64 {
	conv, tmp := in.Model.GDNStateElems(in.Layout.TP)
	return conv*int64(dtypeBytes(in.ActDType())) + tmp*int64(ssmStateBytes(in))
}

func ssmStateBytes(in *input.Input) int {
	if g := in.Model.GDN; g != nil && g.SSMDType != "" {
		return dtypeBytes(g.SSMDType)
	}
	if g := in.Model.Mamba; g != nil && g.SSMDType != "" {
		return dtypeBytes(g.SSMDType)
	}
	return dtypeBytes(in.ActDType())
}

// SequenceBytes is what one sequence of n tokens occupies, as vLLM's KV
// specs count it (max_memory_usage_bytes): full-attention layers hold
// ceil(n / block) blocks; sliding-window layers hold the window plus the
// tokens in flight, min(window − 1 + inFlightTokens, n) tokens, in
// whole blocks plus one; linear-attention layers their fixed state
// (StateBytesPerSeq, 0 for other models).
func (kv KVLayout) SequenceBytes(n, blockSize int) int64 {
	return kv.Cost(blockSize).Bytes(n)
}

// withProposer adds the proposer's KV layout d (speculative decoding) to
// the last stage's kv as vLLM lays it out: the proposer's attention layers
// are registered in the same forward context as the target's
// (vllm/v1/worker/gpu_model_runner.py get_kv_cache_spec collects them with
// get_layers_from_vllm_config over the one vllm_config, the drafter's
// too), so where both are laid out in uniform
// pages (sliding-window beside full attention) and each of the proposer's
// caches has the spec of one of the target's (window, block, page), its
// layers join that kind and vLLM groups the union — Step-3.x's three MTP
// layers are sliding and fill the target's 33 sliding layers' padding to
// 36. Otherwise (no such match, a pipeline stage grouped from the whole
// model, state layers) its bytes are one more full-attention term
// (withDraft), as before.
func (kv KVLayout) withProposer(d KVLayout, formula string) KVLayout {
	if d.BytesPerToken <= 0 {
		return kv
	}
	if kv.Packing != packingUniformPage || d.Packing != packingUniformPage || kv.modelLayers != nil ||
		kv.LinearLayers+kv.MambaLayers+d.LinearLayers+d.MambaLayers > 0 || len(d.Caches) == 0 {
		return kv.withDraft(d.BytesPerToken, formula)
	}
	caches := append([]catalog.PagedCache(nil), kv.Caches...)
	for _, dc := range d.Caches {
		j := slices.IndexFunc(caches, func(c catalog.PagedCache) bool {
			return !c.State && !dc.State && c.Window == dc.Window && c.BlockTokens == dc.BlockTokens && c.PageBytes == dc.PageBytes
		})
		if j < 0 {
			return kv.withDraft(d.BytesPerToken, formula)
		}
		caches[j].Layers += dc.Layers
	}
	kv.Caches = caches
	kv.Layers += d.Layers
	kv.SlidingLayers += d.SlidingLayers
	kv.BytesPerToken += d.BytesPerToken
	kv.JoinedDraftBytesPerToken = d.BytesPerToken
	if kv.Layers > 0 {
		kv.BytesPerTokenPerLayer = kv.BytesPerToken / int64(kv.Layers)
	}
	kv.Formula += "; + " + formula + ", grouped with the target's layers: " + packUniformPage(kv.Caches).describe()
	return kv
}

// withDraft adds the proposer's layers (speculative decoding) to the
// stage's cost per token.
func (kv KVLayout) withDraft(bytes int64, formula string) KVLayout {
	if bytes <= 0 {
		return kv
	}
	kv.DraftBytesPerToken = bytes
	kv.BytesPerToken += bytes
	kv.Formula += "; + " + formula
	return kv
}

func dtypeBytes(d string) int {
	switch d {
	case "fp8", "int8":
		return 1
	case "fp32":
		return 4
	}
	return 2
}
