package pd

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Transfer is the KV hand-off of one request: NIXL reads the prompt's KV
// from the prefill rank that computed it into the decode rank that
// continues it, whole, after the prefill (not layer by layer).
type Transfer struct {
	// BytesPerToken is one copy of the whole model's KV per token (every
	// layer; GQA heads unsplit), Formula how memory's KV layout gives it.
	BytesPerToken int64  `json:"bytes_per_token"`
	Formula       string `json:"formula"`
	// Tokens is the prompt in whole decode blocks (what NIXL moves).
	Tokens int `json:"tokens"`
	// BytesPerRequest is one copy of the prompt's KV.
	BytesPerRequest float64 `json:"bytes_per_request"`
	// PerPrefillRankBytes and PerDecodeRankBytes split it by each side's
	// TP and PP (an MLA latent is replicated on every TP rank: each decode
	// TP rank pulls a whole copy); WireBytes is what all the decode
	// ranks of the instance pull.
	PerPrefillRankBytes float64 `json:"per_prefill_rank_bytes"`
	PerDecodeRankBytes  float64 `json:"per_decode_rank_bytes"`
	WireBytes           float64 `json:"wire_bytes"`
	// Link is "inter-node NICs" or "NVLink" (the pools share a node);
	// LinkGBytesPerS is the bandwidth one request's transfer can use
	// alone, NodeGBytesPerS one node's NICs together.
	Link           string  `json:"link"`
	LinkGBytesPerS float64 `json:"link_gbytes_per_s"`
	NodeGBytesPerS float64 `json:"node_gbytes_per_s"`
	LatencyS       float64 `json:"latency_s"`
	// AloneS is latency + wire bytes / link: one transfer on idle NICs.
	AloneS float64 `json:"alone_s"`
	// Utilization is the busier side's NICs' load at the operating rate;
	// TimeS the mean transfer time with the NICs fairly shared.
	Utilization float64 `json:"nic_utilization"`
	TimeS       float64 `json:"time_s"`
	// Saturated marks a rate at or above what the NICs carry: transfers
	// queue without bound in an open loop (TimeS is then the lone
	// transfer's; a closed loop's wait comes from Little's law).
	Saturated bool `json:"saturated,omitempty"`
	// MaxRatePerS is the most requests per second the NICs carry.
	MaxRatePerS float64 `json:"max_rate_per_s"`
}

// wholeModelKV is one copy of the whole model's KV per token in the decode
// pool's cache dtype: memory's KV layout over every layer with the heads
// unsplit (TP 1), so MLA and GQA come out exact.
func wholeModelKV(dec *input.Input) memory.KVLayout {
	v := *dec
	v.Layout.TP = 1
	return memory.KVBytes(&v, memory.Stage{First: 0, End: dec.Model.NumLayers})
}

// perRankKV is one rank's share of a token's KV at the pool's TP and PP:
// memory's layout at that TP over every layer, divided by PP.
func perRankKV(pool *input.Input, dtype string) float64 {
	v := *pool
	v.KVCacheDType = dtype
	kv := memory.KVBytes(&v, memory.Stage{First: 0, End: pool.Model.NumLayers})
	return float64(kv.BytesPerToken) / float64(max(1, pool.Layout.PP))
}

// interNode is the inter-node network of a pool's nodes: one node's NICs
// together in GB/s, and the latency, with check's default when the spec
// gives none (perf.DefaultInterGbitPerGPU per GPU).
func interNode(in *input.Input) (nodeGBps float64, nics int, latS float64) {
	n := in.Network
	gbit, nics, lat := n.InterGbitPerSPerNIC, n.NICsPerNode, n.InterLatencyUs
	if gbit <= 0 {
		gbit, nics, lat = perf.DefaultInterGbitPerGPU, max(1, in.Layout.GPUsPerNode), perf.DefaultInterLatencyUs
	}
	nics = max(1, nics)
	return gbit / 8 * float64(nics), nics, lat * 1e-6
}

// newTransfer sizes the hand-off of a prompt of n tokens between the pools.
// sameNode says the pools share a node (NVLink); pNodes and dNodes are the
// pools' node counts, over which the transfers spread.
func newTransfer(pre, dec *input.Input, n int, sameNode bool, pNodes, dNodes int) Transfer {
	kv := wholeModelKV(dec)
	bs := max(1, dec.BlockSize)
	t := Transfer{BytesPerToken: kv.BytesPerToken, Formula: kv.Formula, Tokens: (max(0, n) + bs - 1) / bs * bs}
	tok := float64(t.Tokens)
	t.BytesPerRequest = float64(kv.BytesPerToken) * tok
	t.PerPrefillRankBytes = perRankKV(pre, dec.KVCacheDType) * tok
	t.PerDecodeRankBytes = perRankKV(dec, dec.KVCacheDType) * tok
	t.WireBytes = t.PerDecodeRankBytes * float64(max(1, dec.Layout.TP)*max(1, dec.Layout.PP))
	if sameNode {
		t.Link, t.LatencyS = "NVLink", dec.Network.IntraLatencyUs*1e-6
		t.LinkGBytesPerS = dec.Network.IntraGBytesPerS * float64(max(1, dec.Layout.TP*dec.Layout.PP))
		t.NodeGBytesPerS = t.LinkGBytesPerS
	} else {
		node, nics, lat := interNode(dec)
		t.Link, t.LatencyS, t.NodeGBytesPerS = "inter-node NICs", lat, node
		// A transfer runs over the NICs its decode rank's GPUs sit on:
		// with fewer NICs than GPUs, GPUs share one (a lone transfer still
		// gets a whole NIC).
		gpn := max(1, dec.Layout.GPUsPerNode)
		own := float64(dec.Layout.TP*dec.Layout.PP) * float64(nics) / float64(gpn)
		t.LinkGBytesPerS = node / float64(nics) * min(float64(nics), max(1, own))
		t.MaxRatePerS = float64(max(1, min(pNodes, dNodes))) * node * 1e9 / max(1, t.WireBytes)
	}
	if t.LinkGBytesPerS > 0 {
		t.AloneS = t.LatencyS + t.WireBytes/(t.LinkGBytesPerS*1e9)
	}
	t.TimeS = t.AloneS
	return t
}

// at is the transfer at rate requests/s: the NICs are shared fairly
// between the transfers in flight (processor sharing), so the mean time
// is the lone transfer's stretched by 1/(1 − utilisation); at or above
// full utilisation the NICs bind (Saturated, TimeS the lone transfer's).
func (t Transfer) at(rate float64) Transfer {
	if t.MaxRatePerS <= 0 {
		return t
	}
	t.Utilization = rate / t.MaxRatePerS
	if t.Utilization >= 1 {
		t.Saturated = true
		return t
	}
	t.TimeS = t.LatencyS + (t.AloneS-t.LatencyS)/(1-t.Utilization)
	return t
}

// describe is the transfer in one line for the notes.
func (t Transfer) describe() string {
	return fmt.Sprintf("KV hand-off: %d tokens × %d B/token (%s) = %.1f MB per request; %.1f MB per prefill rank, %.1f MB per decode rank, %.1f MB pulled in all over %s (%.2f GB/s for one transfer)",
		t.Tokens, t.BytesPerToken, t.Formula, t.BytesPerRequest/1e6, t.PerPrefillRankBytes/1e6, t.PerDecodeRankBytes/1e6, t.WireBytes/1e6, t.Link, t.LinkGBytesPerS)
}
