package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// Packings of KVLayout.Caches: how vLLM lays the caches out and counts a
// request's bytes.
const (
	// packingDSV4 is DeepSeek-V4's layer tuples (kv_dsv4.go).
	packingDSV4 = "deepseek_v4"
	// packingUniformPage is vLLM's general hybrid layout
	// (unify_kv_cache_spec_page_size and _get_kv_cache_groups_uniform_page_size
	// in vllm/v1/core/kv_cache_utils.py): a smaller page's block is
	// multiplied until it matches the largest page, each cache kind's layers
	// are split into groups of group_size layers (the fewest layers of a
	// kind, or the most where that is under 1.5 × the fewest), the last
	// group padded, and a request's pages of every group cost group_size ×
	// the page (_max_memory_usage_bytes_from_groups).
	packingUniformPage = "uniform_page"
)

// uniformPage is a uniform-page packing worked out.
type uniformPage struct {
	page int64
	// groupSize is the layers vLLM puts in a group, from the whole model's
	// layer counts; unitLayers the layers of this stage's busiest group
	// (groupSize but on a pipeline stage), whose pages make one block.
	groupSize, unitLayers int
	kinds                 []uniformKind
	// stage marks a pipeline stage's share of the whole model's groups.
	stage bool
}

type uniformKind struct {
	blockTokens, window, groups int
	// layers is the kind's layer count in the whole model; groups ×
	// groupSize − layers are the padding layers vLLM warns about.
	layers int
	state  bool
}

func packUniformPage(caches []catalog.PagedCache) uniformPage {
	return packUniformPageIn(caches, nil)
}

// packUniformPageIn packs a pipeline stage's caches whose kinds hold
// model[i] layers of caches[i]'s kind in the whole model (nil: the caches
// are the whole model). vLLM forms the groups from the whole model's
// counts and deals a kind's layers to its groups round-robin
// (vllm.Release.KVGroupsFromWholeModel), so a stage holding a contiguous
// run of c.Layers of a kind's layers has at most ceil(c.Layers / groups)
// of them in one group; its block is that many layers' pages, and every
// group, even one with no layer on the stage, counts in its token count
// and concurrency. On the whole model the busiest group is groupSize.
func packUniformPageIn(caches []catalog.PagedCache, model []int) uniformPage {
	p := uniformPage{stage: model != nil}
	for _, c := range caches {
		p.page = max(p.page, c.PageBytes)
	}
	count := func(i int) int {
		if model != nil {
			return model[i]
		}
		return caches[i].Layers
	}
	lo, hi := 0, 0
	for i := range caches {
		n := count(i)
		if n <= 0 {
			continue
		}
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	p.groupSize = lo
	if float64(hi) < 1.5*float64(lo) {
		p.groupSize = hi
	}
	for i, c := range caches {
		if count(i) <= 0 || c.PageBytes <= 0 {
			continue
		}
		// vLLM raises a block whose page divides the largest; a page that
		// does not divide it is padded up (releases differ: the older ones
		// refuse the model), which keeps the block.
		block := c.BlockTokens
		if p.page%c.PageBytes == 0 {
			block *= int(p.page / c.PageBytes)
		}
		groups := ceilDiv(count(i), max(p.groupSize, 1))
		p.unitLayers = max(p.unitLayers, ceilDiv(max(c.Layers, 0), groups))
		p.kinds = append(p.kinds, uniformKind{blockTokens: block, window: c.Window, groups: groups, layers: count(i), state: c.State})
	}
	return p
}

// cost adds one request's pages to c: every group's pages (whole-sequence
// kinds ceil(n / block), windowed ones the window minus one plus the
// tokens in flight (KVLayout.windowCap), at most n, in pages plus one, state
// kinds statePages) × group_size × the page.
func (p uniformPage) cost(c *SeqCost, kv KVLayout, statePages int) {
	unit := int64(p.unitLayers) * p.page
	for _, k := range p.kinds {
		bytes := int64(k.groups) * unit
		switch {
		case k.state:
			c.Fixed += bytes * int64(max(statePages, 1)) // MambaSpec: 1 (none) or 2 (align)
		case k.window > 0:
			c.Fixed += bytes
			c.Terms = append(c.Terms, KVTerm{Bytes: bytes, Block: max(k.blockTokens, 1), Cap: kv.windowCap(c, k.window, bytes, k.blockTokens)})
		default:
			// With decode context parallelism a rank keeps every DCP-th
			// token, so a page holds block × DCP tokens of the sequence:
			// AttentionSpec.max_memory_usage_bytes counts
			// cdiv(cdiv(max_model_len, dcp), block) pages (vllm/v1/
			// kv_cache_interface.py at v0.24.0), the rule the unpacked
			// layouts follow (KVLayout.Cost). A state page is per sequence
			// and does not shrink. vLLM 0.20.0-0.24.0 stop such a start-up
			// after sizing it (resolve_kv_cache_block_sizes: "Hybrid KV
			// cache groups ... do not support context parallelism"); a
			// fork's Kimi-K3 TP 16 + DCP 8 log prints these figures
			// (TestKimiK3DCPForkLogKVFromGivenMemory).
			c.Terms = append(c.Terms, KVTerm{Bytes: bytes, Block: max(k.blockTokens, 1) * max(kv.DCP, 1)})
		}
	}
}

func (p uniformPage) describe() string {
	var parts []string
	for _, k := range p.kinds {
		if k.state {
			parts = append(parts, fmt.Sprintf("%d state group(s)", k.groups))
			continue
		}
		w := "whole sequence"
		if k.window > 0 {
			w = fmt.Sprintf("window %d", k.window)
		}
		parts = append(parts, fmt.Sprintf("%d group(s) of %d-token blocks (%s)", k.groups, k.blockTokens, w))
	}
	pad := ""
	if n := p.paddingLayers(); n > 0 {
		pad = fmt.Sprintf("; %d padding layer(s), as vLLM's \"Add N padding layers\" warning counts them", n)
	}
	if p.stage {
		return fmt.Sprintf("vLLM's hybrid layout, grouped over the whole model: %s of %d layers each, at most %d of them on this stage, every page %d B%s", strings.Join(parts, ", "), p.groupSize, p.unitLayers, p.page, pad)
	}
	return fmt.Sprintf("vLLM's hybrid layout: %s of %d layers each, every page %d B%s", strings.Join(parts, ", "), p.groupSize, p.page, pad)
}

// paddingLayers counts the empty slots of the groups over the whole model:
// per kind, groups × group size − its layers, the "Add N padding layers"
// vLLM's _get_kv_cache_groups_uniform_page_size warns about (one warning
// per kind; here their sum).
func (p uniformPage) paddingLayers() int {
	n := 0
	for _, k := range p.kinds {
		n += max(k.groups*p.groupSize-k.layers, 0)
	}
	return n
}

// layeredKV is the cache on a GPU of stage s of a model whose layers differ
// in their attention shapes (Gemma 4's global layers, MiMo-V2-Flash's
// sliding-window and full layers: catalog.Model.LayerKV): its sliding-window
// and full-attention layers as two cache kinds of one block size, K and V of
// their own head sizes, packed as vLLM packs them (packingUniformPage).
// BytesPerToken counts every layer as full attention, as for the other
// sliding-window models.
func layeredKV(in *input.Input, s Stage) KVLayout {
	m := in.Model
	b := int64(dtypeBytes(in.KVCacheDType))
	tp := max(in.Layout.TP, 1)
	block := max(in.BlockSize, 1)
	kv := KVLayout{Layers: s.Layers(), DType: in.KVCacheDType, SlidingWindow: m.SlidingWindow, chunk: inFlightTokens(in), batches: inFlightBatches(in), Packing: packingUniformPage}
	slide := catalog.PagedCache{Name: "sliding-window layers", BlockTokens: block, Window: m.SlidingWindow}
	full := catalog.PagedCache{Name: "full-attention layers", BlockTokens: block}
	var parts [2]string
	for i := s.First; i < s.End; i++ {
		heads, kd, vd := m.LayerKV(i)
		kvr := max(1, ceilDiv(heads, tp))
		perToken := int64(kvr) * int64(kd+vd) * b
		kv.BytesPerToken += perToken
		c, k := &full, 1
		if m.IsSlidingLayer(i) {
			c, k = &slide, 0
			kv.SlidingLayers++
		}
		c.Layers++
		c.PageBytes = perToken * int64(block)
		parts[k] = fmt.Sprintf("%d KV heads per GPU × (K %d + V %d)", kvr, kd, vd)
	}
	for _, c := range []catalog.PagedCache{slide, full} {
		if c.Layers > 0 {
			kv.Caches = append(kv.Caches, c)
		}
	}
	if kv.SlidingLayers == 0 {
		kv.SlidingWindow = 0
	}
	if kv.Layers > 0 {
		kv.BytesPerTokenPerLayer = kv.BytesPerToken / int64(kv.Layers)
	}
	kv.Formula = fmt.Sprintf("%d sliding-window layers × %s + %d full-attention layers × %s, × %d B; %s",
		slide.Layers, parts[0], full.Layers, parts[1], b, packUniformPage(kv.Caches).describe())
	return kv
}

// hybridStatePacking lays out a Gated DeltaNet or Mamba-2 hybrid's stage as
// vLLM's HybridAttentionMambaModelConfig.verify_and_update_config does
// (vllm/model_executor/models/config.py; later releases do the same in
// Platform.update_block_size_for_backend, vllm/platforms/interface.py):
// the attention block grows to the smallest multiple of the kernel's
// alignment (16 tokens; 32 for head size 256 on Blackwell, FlashInfer; 64
// for MLA — "Other MLA backends: kernel_block_size 64 alignment", 128
// under CUTLASS_MLA, which vlaunch does not model — Kimi-K3's MLA beside
// its KDA state) whose page (block × one token's cache in one layer) holds one layer's
// state, a larger --block-size is kept, and each layer's state page is
// padded to the attention page. The attention layers and the state layers
// are then grouped as any hybrid (packingUniformPage); without prefix
// caching (mamba_cache_mode none) a sequence holds one state page per
// state group, two in align mode (vllm.Release.StatePagesPerRequest). It
// returns the block vLLM uses and the caches, or 0 and nil
// when the stage has no attention or no state.
func hybridStatePacking(in *input.Input, kv KVLayout, stateLayerBytes int64) (int, []catalog.PagedCache) {
	attnLayers := kv.Layers
	stateLayers := kv.LinearLayers + kv.MambaLayers
	if attnLayers <= 0 || stateLayers <= 0 || kv.BytesPerTokenPerLayer <= 0 || stateLayerBytes <= 0 {
		return 0, nil
	}
	align := int64(16)
	switch {
	case in.Model.IsMLA():
		align = 64
	case in.GPU.Blackwell() && in.Model.HeadDim == 256:
		align = 32
	}
	one := kv.BytesPerTokenPerLayer
	block := align * ((stateLayerBytes + align*one - 1) / (align * one))
	block = max(block, int64(in.BlockSize))
	page := block * one
	return int(block), []catalog.PagedCache{
		{Name: "attention layers", Layers: attnLayers, BlockTokens: int(block), PageBytes: page},
		{Name: "state layers (padded)", Layers: stateLayers, BlockTokens: int(block), PageBytes: page, State: true},
	}
}

// ReportedTokens is the "GPU KV cache size" vLLM's log prints for a packed
// layout (Packing set) with avail bytes of KV memory: the blocks it makes
// (avail over one block of every layer of a group: page × group size, or
// DeepSeek-V4's tuples) either divided among the groups times the smallest
// block (asConcurrency false: up to 0.20.x) or as max_concurrency ×
// max_model_len (0.21.0 on; vllm.Release.KVTokensAsConcurrency). ok is
// false for an unpacked layout, whose one group makes both rules agree.
func (kv KVLayout) ReportedTokens(avail float64, maxModelLen int, asConcurrency bool) (tokens int64, ok bool) {
	var blockBytes int64
	var groups, minBlock int
	switch kv.Packing {
	case packingUniformPage:
		p := kv.pack()
		blockBytes = p.page * int64(p.unitLayers)
		for _, k := range p.kinds {
			groups += k.groups
			if minBlock == 0 || k.blockTokens < minBlock {
				minBlock = k.blockTokens
			}
		}
	case packingDSV4:
		p := dsv4Pack(kv.Caches)
		blockBytes = p.tupleBytes * int64(p.tuples)
		groups = p.groups()
		for _, c := range kv.Caches {
			if minBlock == 0 || c.BlockTokens < minBlock {
				minBlock = c.BlockTokens
			}
		}
	default:
		return 0, false
	}
	if blockBytes <= 0 || groups <= 0 || avail <= 0 {
		return 0, true
	}
	blocks := int64(avail / float64(blockBytes))
	if !asConcurrency {
		return blocks / int64(groups) * int64(minBlock), true
	}
	perRequest := (kv.SequenceBytes(maxModelLen, 1) - kv.DraftBytesPerToken*int64(maxModelLen) + blockBytes - 1) / blockBytes
	if perRequest <= 0 {
		return 0, true
	}
	return int64(float64(blocks) / float64(perRequest) * float64(maxModelLen)), true
}

// pack is the layout's uniform-page packing: over the stage's own caches,
// or, on a pipeline stage of a hybrid, over the whole model's groups
// (modelLayers set by KVBytes).
func (kv KVLayout) pack() uniformPage {
	return packUniformPageIn(kv.Caches, kv.modelLayers)
}

// groupedWith lays a pipeline stage out in the whole model's groups
// (vllm.Release.KVGroupsFromWholeModel): whole's cache kinds, each with the
// stage's layers of that kind (0 where the stage has none: the group still
// holds blocks for every request).
func (kv KVLayout) groupedWith(whole KVLayout) KVLayout {
	sliding := false
	for _, c := range whole.Caches {
		sliding = sliding || c.Window > 0
	}
	caches := make([]catalog.PagedCache, len(whole.Caches))
	model := make([]int, len(whole.Caches))
	for i, c := range whole.Caches {
		model[i] = c.Layers
		switch {
		case c.State:
			c.Layers = kv.LinearLayers + kv.MambaLayers
		case c.Window > 0:
			c.Layers = kv.SlidingLayers
		case sliding:
			c.Layers = kv.Layers - kv.SlidingLayers
		default:
			c.Layers = kv.Layers
		}
		caches[i] = c
	}
	var stageOnly string
	if kv.Packing == packingUniformPage {
		stageOnly = kv.pack().describe()
	}
	kv.Caches, kv.modelLayers, kv.Packing = caches, model, packingUniformPage
	if kv.HybridBlock == 0 {
		kv.HybridBlock, kv.StatePages = whole.HybridBlock, whole.StatePages
	}
	if stageOnly != "" && strings.Contains(kv.Formula, stageOnly) {
		kv.Formula = strings.Replace(kv.Formula, stageOnly, kv.pack().describe(), 1)
	} else {
		kv.Formula += "; " + kv.pack().describe()
	}
	return kv
}
