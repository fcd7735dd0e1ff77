package catalog

import (
	"fmt"
	"strings"
)

// DeepSeek-V4 (deepseek_v4: DeepSeek-V4-Flash, DeepSeek-V4-Pro) as vLLM's
// vllm/model_executor/models/deepseek_v4.py and
// vllm/model_executor/layers/deepseek_v4_attention.py build it (read at
// vllm-project/vllm 023da1fc and 0a291a2e):
//
//   - attention: one 512-wide KV head (head_dim) shared by every query head
//     (MQA), q through a q_lora_rank latent (wq_a, q_norm, wq_b), the KV from
//     wkv and kv_norm, an output through o_groups grouped low-rank
//     projections (wo_a: o_lora_rank per group, then wo_b), one attention
//     sink per head; wq_a and wkv are one replicated linear, wq_b, wo_a and
//     wo_b split by head over TP;
//   - each layer's compress_ratios entry (0 or 1: sliding window only; 4:
//     C4A; 128: C128A) adds a compressor (wkv and wgate to coff × head_dim,
//     coff = 2 for ratio 4 else 1, an ape of ratio × coff × head_dim in
//     float32, a norm), replicated, unquantized; C4A layers also an indexer
//     (wq_b to index_n_heads × index_head_dim, weights_proj, k_norm, and a
//     compressor of its own at index_head_dim), replicated;
//   - every layer a MoE of n_routed_experts (FP4 experts where expert_dtype
//     is fp4: vLLM's Mxfp4MoEMethod), n_shared_experts shared experts of
//     moe_intermediate_size, a gate with e_score_correction_bias, except the
//     first num_hash_layers whose routing is a vocab_size × top-k table
//     (tid2eid) instead of the bias;
//   - hyper-connections: hc_mult residual streams mixed by float32 hc_attn
//     and hc_ffn parameters per layer ((2 + hc_mult) × hc_mult rows of
//     hc_mult × hidden_size, a base and 3 scales each) and an hc_head at the
//     top.

// DeepseekV4 is DeepSeek-V4's attention and routing shape; nil for every
// other model.
type DeepseekV4 struct {
	// CompressRatios has one entry per decoder layer (0 and 1: sliding
	// window only; 4 or 128).
	CompressRatios []int `json:"compress_ratios"`
	// Window is the sliding window every layer keeps (sliding_window).
	Window        int    `json:"sliding_window"`
	OGroups       int    `json:"o_groups"`
	OLoraRank     int    `json:"o_lora_rank"`
	HCMult        int    `json:"hc_mult"`
	NumHashLayers int    `json:"num_hash_layers,omitempty"`
	ExpertDType   string `json:"expert_dtype,omitempty"`
	IndexTopK     int    `json:"index_topk"`
	IndexNHeads   int    `json:"index_n_heads"`
	IndexHeadDim  int    `json:"index_head_dim"`
	// OtherQuant names a quantization_config key DeepSeek's own release
	// does not have (a re-quantized checkpoint's config_groups,
	// quant_algo …); "" for DeepSeek's block-FP8 config.
	OtherQuant string `json:"other_quant,omitempty"`
}

// dsv4QuantKeys are the keys of DeepSeek's own DeepSeek-V4 quantization
// config (block FP8 with UE8M0 scales).
var dsv4QuantKeys = map[string]bool{"activation_scheme": true, "fmt": true, "quant_method": true, "scale_fmt": true, "weight_block_size": true}

// dsv4NVFP4Keys are the keys nvidia's DeepSeek-V4-Flash-NVFP4 and
// -Pro-NVFP4 add to DeepSeek's FP8 config beside moe_quant_algo "NVFP4".
// vLLM's DeepseekV4FP8Config (an Fp8Config: it reads ignored_layers, not
// ignore) reads only moe_quant_algo of them (catalog/mixedprec.go,
// readMoEQuantAlgo); the others restate that the routed experts, and only
// they, are NVFP4 in groups of 16, with no KV-cache quantization (null).
var dsv4NVFP4Keys = map[string]bool{"moe_quant_algo": true, "config_groups": true, "group_size": true, "ignore": true,
	"kv_cache_quant_algo": true, "producer": true, "quant_algo": true, "quantized_layers": true}

// Ratio is layer i's compression ratio as vLLM applies it: max(1, entry).
func (d *DeepseekV4) Ratio(i int) int {
	if d == nil || i < 0 || i >= len(d.CompressRatios) {
		return 1
	}
	return max(1, d.CompressRatios[i])
}

// fillDeepseekV4 reads DeepSeek-V4's fields. The config's sliding_window
// and index_* fields are DeepSeek-V4's own (every layer's window, the C4A
// indexer): they are kept here, not in the fields the other families'
// sliding-window and DSA rules read.
func (c *hfConfig) fillDeepseekV4(m *Model) {
	if c.ModelType != "deepseek_v4" {
		return
	}
	d := &DeepseekV4{CompressRatios: c.CompressRatios, OGroups: c.OGroups, OLoraRank: c.OLoraRank, HCMult: c.HCMult,
		NumHashLayers: c.NumHashLayers, ExpertDType: c.ExpertDType, IndexTopK: c.IndexTopK, IndexNHeads: c.IndexNHeads, IndexHeadDim: c.IndexHeadDim}
	if c.SlidingWindow != nil {
		d.Window = *c.SlidingWindow
	}
	var other []string
	algo, _ := c.QuantizationConfig["moe_quant_algo"].(string)
	nvfp4 := strings.EqualFold(algo, "NVFP4")
	for k, v := range c.QuantizationConfig {
		if nvfp4 && dsv4NVFP4Keys[k] && (k != "kv_cache_quant_algo" || v == nil) {
			continue // nvidia's NVFP4-expert export: vLLM reads moe_quant_algo alone of these
		}
		if !dsv4QuantKeys[k] {
			other = append(other, k)
		}
	}
	if len(other) > 0 {
		sortStrings(other)
		d.OtherQuant = other[0]
	}
	if d.ExpertDType == "" {
		d.ExpertDType = "fp4" // vLLM's default when the config says nothing
	}
	m.DSV4 = d
	m.SlidingWindow, m.LayerTypes = 0, nil
	m.IndexTopK, m.IndexNHeads, m.IndexHeadDim = 0, 0, 0
	if c.QLoraRank != nil {
		m.QLoraRank = *c.QLoraRank
	}
	m.QKRopeHeadDim = c.QKRopeHeadDim
	m.ScoreCorrectionBias = true // the non-hash layers' gate bias
	m.AttentionSinks = true
}

// deepseekV4Problem says what of a DeepSeek-V4 config cannot be sized (""
// when all of it can).
func (m *Model) deepseekV4Problem() string {
	d := m.DSV4
	if d == nil {
		return ""
	}
	if len(d.CompressRatios) < m.NumLayers {
		return fmt.Sprintf("compress_ratios has %d entries for %d layers", len(d.CompressRatios), m.NumLayers)
	}
	for _, r := range d.CompressRatios[:m.NumLayers] {
		if r != 0 && r != 1 && r != 4 && r != 128 {
			return fmt.Sprintf("compress_ratios entry %d: vLLM's DeepSeek-V4 attention supports 1, 4 and 128", r)
		}
	}
	switch {
	case m.HeadDim != 512 || m.QKRopeHeadDim <= 0 || m.QKRopeHeadDim >= m.HeadDim:
		return "head_dim 512 with a smaller qk_rope_head_dim: vLLM's DeepSeek-V4 cache layout (448 + 64) needs them"
	case m.QLoraRank <= 0 || d.OGroups <= 0 || d.OLoraRank <= 0 || m.NumHeads%d.OGroups != 0 || d.HCMult <= 0 || d.HCMult > 64:
		return "q_lora_rank, o_groups (dividing num_attention_heads), o_lora_rank, hc_mult: DeepSeek-V4 fields missing or not positive"
	case d.Window <= 0:
		return "sliding_window: DeepSeek-V4 keeps a sliding window in every layer"
	case d.ExpertDType != "fp4" && d.ExpertDType != "fp8":
		return fmt.Sprintf("expert_dtype %q: vLLM loads fp4 or fp8 experts", d.ExpertDType)
	case !m.IsMoE():
		return "n_routed_experts: DeepSeek-V4 routes every layer to experts"
	case m.Quant.MoEQuantAlgo == "NVFP4" && d.ExpertDType != "fp4":
		return fmt.Sprintf("moe_quant_algo NVFP4 with expert_dtype %q: vLLM's DeepseekV4FP8Config loads NVFP4 experts only when expert_dtype is fp4", d.ExpertDType)
	case d.OtherQuant != "" || (m.Quant.Method != "" && (m.Quant.Method != "fp8" || m.Quant.Format != "" || m.Quant.Algo != "")):
		// vLLM turns DeepSeek's own fp8 config into deepseek_v4_fp8 (FP8
		// linear layers, expert_dtype experts); other formats' module
		// names and exclusions for DeepSeek-V4 were not read.
		what := m.Quant.Method
		if d.OtherQuant != "" {
			what += " with " + d.OtherQuant
		}
		return fmt.Sprintf("quantization_config %q of a DeepSeek-V4 checkpoint: vlaunch sizes DeepSeek's own block-FP8 release (FP4 or FP8 experts) only", what)
	}
	for i := 0; i < m.NumLayers; i++ {
		if d.Ratio(i) == 4 && (d.IndexNHeads <= 0 || d.IndexHeadDim <= 0 || d.IndexTopK <= 0 || d.IndexHeadDim%indexerQuantBlock != 0) {
			return "index_topk, index_n_heads, index_head_dim (a multiple of 128): the C4A layers' indexer"
		}
	}
	return ""
}

// dsv4Mix is the hyper-connections' mixing rows, (2 + hc_mult) × hc_mult.
func (d *DeepseekV4) mix() float64 { return float64((2 + d.HCMult) * d.HCMult) }

// dsv4ReplicatedAttention is layer i's attention parameters every TP rank
// holds whole: wq_a and wkv (one replicated linear), q_norm, kv_norm, the
// compressor and, in C4A layers, the indexer with its compressor.
func (m *Model) dsv4ReplicatedAttention(i int) float64 {
	d := m.DSV4
	h, hd, ql := float64(m.HiddenSize), float64(m.HeadDim), float64(m.QLoraRank)
	n := h*(ql+hd) + ql + hd
	r := d.Ratio(i)
	if r > 1 {
		n += dsv4Compressor(h, hd, r)
	}
	if r == 4 {
		ih, id := float64(d.IndexNHeads), float64(d.IndexHeadDim)
		n += ql*ih*id + h*ih + 2*id + dsv4Compressor(h, id, r)
	}
	return n
}

// dsv4Compressor is one DeepseekCompressor: wkv and wgate from hidden to
// coff × dim each, the ape (ratio × coff × dim) and an RMSNorm of dim.
func dsv4Compressor(h, dim float64, ratio int) float64 {
	coff := 1.0
	if ratio == 4 {
		coff = 2
	}
	return h*2*coff*dim + float64(ratio)*coff*dim + dim
}

// dsv4SplitAttention is one layer's attention parameters split by head,
// held for heads query heads: wq_b, wo_a (its o_groups × o_lora_rank output
// split over TP with the heads), wo_b (row-split) and the sinks.
func (m *Model) dsv4SplitAttention(heads float64) float64 {
	d := m.DSV4
	h, hd, ql := float64(m.HiddenSize), float64(m.HeadDim), float64(m.QLoraRank)
	share := heads / float64(m.NumHeads)
	return ql*heads*hd + heads*hd*float64(d.OLoraRank) + float64(d.OGroups*d.OLoraRank)*h*share + heads
}

// dsv4AttentionParams is the mean over the layers of one layer's attention
// for heads query heads (the layers differ by their compressors and
// indexers; the mean keeps the model's total exact).
func (m *Model) dsv4AttentionParams(heads float64) float64 {
	var sum float64
	for i := 0; i < m.NumLayers; i++ {
		sum += m.dsv4ReplicatedAttention(i)
	}
	return sum/float64(max(m.NumLayers, 1)) + m.dsv4SplitAttention(heads)
}

// dsv4Router is the gates of all layers: hidden × experts each, plus the
// e_score_correction_bias, or the tid2eid table (vocab × top-k) in the
// first num_hash_layers.
func (m *Model) dsv4Router() float64 {
	d := m.DSV4
	e := float64(m.NumExperts)
	hash := float64(min(d.NumHashLayers, m.NumLayers))
	return float64(m.NumLayers)*float64(m.HiddenSize)*e + (float64(m.NumLayers)-hash)*e + hash*float64(m.VocabSize*m.ExpertsPerToken)
}

// DSV4HyperConnections counts the hyper-connection parameters (float32):
// per layer hc_attn and hc_ffn (fn, base, 3 scales each), and the hc_head.
func (m *Model) DSV4HyperConnections() (perLayer, head float64) {
	d := m.DSV4
	if d == nil {
		return 0, 0
	}
	hc, h := float64(d.HCMult), float64(m.HiddenSize)
	perLayer = 2 * (d.mix()*hc*h + d.mix() + 3)
	head = hc*hc*h + hc + 1
	return perLayer, head
}

// PagedCache is one kind of per-layer cache vLLM's KV-cache manager pages
// (one KVCacheSpec), for a run of layers: a page covers BlockTokens token
// positions and takes PageBytes (padded as vLLM pads it); a cache with a
// Window keeps only that many recent positions (a sliding-window spec), the
// others the whole sequence.
type PagedCache struct {
	Name        string `json:"name"`
	Layers      int    `json:"layers"`
	BlockTokens int    `json:"block_tokens"`
	PageBytes   int64  `json:"page_bytes"`
	Window      int    `json:"window,omitempty"`
	// State marks a fixed state per sequence (Mamba-2, Gated DeltaNet):
	// one page per request whatever its length.
	State bool `json:"state,omitempty"`
}

// DeepSeek-V4's cache geometry (vLLM: MLAAttentionSpec and
// SlidingWindowMLASpec in vllm/v1/kv_cache_interface.py; DeepseekV4SWACache
// in vllm/v1/attention/backends/mla/sparse_swa.py; DeepseekV4MLAAttention,
// DeepseekV4IndexerCache in vllm/model_executor/layers/
// deepseek_v4_attention.py; CompressorStateCache in vllm/model_executor/
// layers/deepseek_compressor.py):
const (
	// dsv4EntryBytes is one fp8_ds_mla entry: 448 B of FP8 NoPE, 64 BF16
	// RoPE values (128 B), 7 UE8M0 scales and a pad byte.
	dsv4EntryBytes = 584
	// dsv4PageAlign is FlashMLA's alignment: every DeepSeek-V4 page is
	// rounded up to a multiple of 576 bytes (_apply_alignment_padding).
	dsv4PageAlign = 576
	// dsv4SWABlock is the SWA cache's block (64 tokens, fixed so that its
	// page matches a C4A page: 256 / 4 entries).
	dsv4SWABlock = 64
	// dsv4Block is the compressed layers' logical block: 256 token
	// positions, 256 / ratio stored entries (the shape the SWA and
	// compressor caches are sized to share).
	dsv4Block = 256
	// dsv4StateBytes is a compressor state's float32 (KV and score halves).
	dsv4StateBytes = 4
)

// EntryBytes is one cached key of DeepSeek-V4's attention, a sliding-window
// or a compressed entry alike (the fp8_ds_mla layout): what its decode
// kernel reads per attended entry.
func (d *DeepseekV4) EntryBytes() int { return dsv4EntryBytes }

// IndexerEntryBytes is one C4A indexer key: index_head_dim FP8 values and
// one fp32 scale per 128.
func (d *DeepseekV4) IndexerEntryBytes() int {
	return d.IndexHeadDim + d.IndexHeadDim/indexerQuantBlock*4
}

// LayersByRatio counts layers [first, end) by compression ratio as vLLM
// applies it (1: sliding window only; 4: C4A; 128: C128A).
func (d *DeepseekV4) LayersByRatio(first, end int) (swaOnly, c4, c128 int) {
	for i := max(first, 0); i < end; i++ {
		switch d.Ratio(i) {
		case 4:
			c4++
		case 128:
			c128++
		default:
			swaOnly++
		}
	}
	return swaOnly, c4, c128
}

func alignPage(b int64) int64 { return (b + dsv4PageAlign - 1) / dsv4PageAlign * dsv4PageAlign }

// DeepseekV4Caches lists the caches of layers [first, end) of a
// DeepSeek-V4 model, as vLLM allocates them whatever --kv-cache-dtype says
// (its DeepSeek-V4 attention runs only the fp8_ds_mla layout), the same on
// every TP rank (one KV head, replicated):
//
//   - every layer: the sliding window's keys, 584-byte entries in 64-token
//     pages, window sliding_window;
//   - C4A / C128A layers: the compressed keys, one 584-byte entry per ratio
//     tokens, 256-token pages;
//   - C4A layers: the indexer's keys, index_head_dim FP8 values and one
//     fp32 scale per 128 per 4 tokens, 256-token pages;
//   - each compressor's state (C4A: attention and indexer; C128A: attention):
//     2 × coff × dim float32 per token, pages of 4 tokens (ratio 4) or 8
//     (ratio 128), window coff × ratio.
func (m *Model) DeepseekV4Caches(first, end int) []PagedCache {
	d := m.DSV4
	if d == nil {
		return nil
	}
	count := map[int]int{}
	n := 0
	for i := max(first, 0); i < min(end, m.NumLayers); i++ {
		count[d.Ratio(i)]++
		n++
	}
	if n == 0 {
		return nil
	}
	out := []PagedCache{{Name: "sliding-window keys", Layers: n, BlockTokens: dsv4SWABlock,
		PageBytes: alignPage(dsv4SWABlock * dsv4EntryBytes), Window: d.Window}}
	for _, r := range []int{4, 128} {
		l := count[r]
		if l == 0 {
			continue
		}
		coff := 1
		stateBlock := 8
		if r == 4 {
			coff, stateBlock = 2, 4
		}
		out = append(out, PagedCache{Name: fmt.Sprintf("C%dA compressed keys", r), Layers: l, BlockTokens: dsv4Block,
			PageBytes: alignPage(int64(dsv4Block / r * dsv4EntryBytes))})
		out = append(out, PagedCache{Name: fmt.Sprintf("C%dA compressor state", r), Layers: l, BlockTokens: stateBlock,
			PageBytes: alignPage(int64(stateBlock * 2 * coff * m.HeadDim * dsv4StateBytes)), Window: coff * r})
		if r == 4 {
			idx := d.IndexerEntryBytes()
			out = append(out, PagedCache{Name: "C4A indexer keys", Layers: l, BlockTokens: dsv4Block,
				PageBytes: alignPage(int64(dsv4Block / r * idx))})
			out = append(out, PagedCache{Name: "C4A indexer compressor state", Layers: l, BlockTokens: stateBlock,
				PageBytes: alignPage(int64(stateBlock * 2 * coff * d.IndexHeadDim * dsv4StateBytes)), Window: coff * r})
		}
	}
	return out
}
