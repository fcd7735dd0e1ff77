package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// deepseekV4KV is DeepSeek-V4's cache on a GPU of stage s: the stage's
// paged caches (catalog.Model.DeepseekV4Caches), the same on every TP rank,
// packed as vLLM packs them (dsv4Packing). A sequence's bytes depend on its
// length in ways no single per-token figure describes (the windows and the
// compressors' states cost a window plus the tokens in flight whatever the
// length); BytesPerToken is therefore what vLLM's log divides by: the bytes
// of one max_model_len sequence over max_model_len ("GPU KV cache size" is
// max_concurrency × max_model_len, vllm/v1/core/kv_cache_utils.py
// _report_kv_cache_config).
func deepseekV4KV(in *input.Input, s Stage) KVLayout {
	caches := in.Model.DeepseekV4Caches(s.First, s.End)
	kv := KVLayout{Layers: s.Layers(), DType: "fp8_ds_mla", Caches: caches, Packing: packingDSV4, chunk: inFlightTokens(in), batches: inFlightBatches(in)}
	var parts []string
	for _, c := range caches {
		w := "whole sequence"
		if c.Window > 0 {
			w = fmt.Sprintf("window %d + the tokens in flight", c.Window)
		}
		parts = append(parts, fmt.Sprintf("%s: %d layers × %d B per %d-token page (%s)", c.Name, c.Layers, c.PageBytes, c.BlockTokens, w))
	}
	p := dsv4Pack(caches)
	if l := max(in.MaxModelLen, 1); p.tupleBytes > 0 {
		var c SeqCost
		kv.dsv4Cost(&c)
		kv.BytesPerToken = (c.Bytes(l) + int64(l) - 1) / int64(l)
	}
	if kv.Layers > 0 {
		kv.BytesPerTokenPerLayer = kv.BytesPerToken / int64(kv.Layers)
	}
	kv.Formula = fmt.Sprintf("DeepSeek-V4 (fp8_ds_mla whatever --kv-cache-dtype says, replicated on every TP rank): %s; "+
		"packed by vLLM into %d groups of %d layer tuples of %d B (one page of each whole-sequence cache), every page of every group a tuple's bytes; "+
		"per token: one max_model_len sequence over max_model_len",
		strings.Join(parts, "; "), p.groups(), p.tuples, p.tupleBytes)
	return kv
}

// dsv4Packing is how vLLM lays DeepSeek-V4's caches out
// (group_and_unify_kv_cache_specs, _get_kv_cache_groups_uniform_groups and
// _max_memory_usage_bytes_from_groups in vllm/v1/core/kv_cache_utils.py):
// the whole-sequence caches form one group whose layer tuple holds one page
// of each of their page sizes; the windowed caches are grouped by (block,
// window), each group split into sub-groups of at most the tuple count
// (_approximate_gcd of the groups' layer counts, at least the first's) with
// their pages padded to a tuple slot; and every page any group allocates
// for a request costs tuples × the tuple's bytes.
type dsv4Packing struct {
	tupleBytes int64
	tuples     int
	// full is the whole-sequence group's block; windowed its groups, each
	// with its sub-group count.
	full     int
	windowed []dsv4Group
}

type dsv4Group struct {
	block, window, subgroups int
}

func (p dsv4Packing) groups() int {
	n := 1
	for _, g := range p.windowed {
		n += g.subgroups
	}
	return n
}

func dsv4Pack(caches []catalog.PagedCache) dsv4Packing {
	var p dsv4Packing
	sizes := map[int64]bool{}
	fullLayers := 0
	type key struct{ block, window int }
	layers := map[key]int{}
	var order []key
	for _, c := range caches {
		if c.Window == 0 {
			if !sizes[c.PageBytes] {
				sizes[c.PageBytes] = true
				p.tupleBytes += c.PageBytes
			}
			fullLayers = max(fullLayers, c.Layers)
			p.full = c.BlockTokens
			continue
		}
		k := key{c.BlockTokens, c.Window}
		if _, ok := layers[k]; !ok {
			order = append(order, k)
		}
		// Caches of one (block, window) with different page sizes are one
		// group with as many tuples as each has layers (vLLM asserts they
		// are equal).
		layers[k] = max(layers[k], c.Layers)
	}
	if p.tupleBytes == 0 {
		return p
	}
	counts := []int{fullLayers}
	for _, k := range order {
		counts = append(counts, layers[k])
	}
	d := approximateGCD(counts, fullLayers)
	p.tuples = fullLayers
	for _, k := range order {
		n := layers[k]
		sub := ceilDiv(n, d)
		p.windowed = append(p.windowed, dsv4Group{block: k.block, window: k.window, subgroups: sub})
		p.tuples = max(p.tuples, ceilDiv(n, sub)) // layer_tuples[i::sub]: the first takes the remainder
	}
	return p
}

// approximateGCD is vLLM's _approximate_gcd: the d in [lower, max(values)]
// that rounds the values up to multiples of it with the least total
// padding, the larger d on ties.
func approximateGCD(values []int, lower int) int {
	hi := 0
	for _, v := range values {
		hi = max(hi, v)
	}
	lo := max(1, lower)
	if lo > hi {
		return lo
	}
	best, bestPad := lo, -1
	for d := lo; d <= hi; d++ {
		pad := 0
		for _, v := range values {
			pad += (d - v%d) % d
		}
		if bestPad < 0 || pad < bestPad || (pad == bestPad && d > best) {
			best, bestPad = d, pad
		}
	}
	return best
}

// dsv4Cost adds to c what one sequence of n tokens takes in DeepSeek-V4's
// caches as vLLM counts it (max_memory_usage_pages of each group, whole-
// sequence groups ceil(n / block) pages, windowed ones the window minus one
// plus the tokens in flight (inFlightTokens), at most n, in pages plus one), every page a layer
// tuple's bytes times the tuple count. Without whole-sequence caches (a
// pipeline stage of window-only layers) it is the caches' own pages.
func (kv KVLayout) dsv4Cost(c *SeqCost) {
	// window adds a windowed cache's pages: the window minus one plus the
	// tokens in flight, at most n, in pages, plus one.
	window := func(bytes int64, window, block int) {
		c.Fixed += bytes
		if cp := kv.windowCap(c, window, bytes, block); cp > 0 {
			c.Terms = append(c.Terms, KVTerm{Bytes: bytes, Block: max(block, 1), Cap: cp})
		}
	}
	p := dsv4Pack(kv.Caches)
	if p.tupleBytes == 0 {
		for _, pc := range kv.Caches {
			window(int64(pc.Layers)*pc.PageBytes, pc.Window, pc.BlockTokens)
		}
		return
	}
	unit := int64(p.tuples) * p.tupleBytes
	c.Terms = append(c.Terms, KVTerm{Bytes: unit, Block: max(p.full, 1)})
	for _, g := range p.windowed {
		window(int64(g.subgroups)*unit, g.window, g.block)
	}
}
