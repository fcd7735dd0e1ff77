package pd

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/vllm"
)

// UseConnectorSemantics: the KV hand-off is priced by what the deployment's
// connector does (vllm.KVHandoffOf, read in each connector's source), not
// always as NixlConnector's read of the whole request after the prefill:
//
//   - NixlConnector, NixlPullConnector, NixlPushConnector (NIXL over UCX,
//     the whole request after its prefill; the push posts the same
//     descriptors as WRITEs) and every connector whose semantics are
//     unknown (LMCacheConnectorV1, LMCacheMPConnector, MultiConnector, …)
//     keep NIXL's pricing, bit for bit; an unknown one gets a note saying so;
//   - a connector that moves the whole request after its prefill over
//     another transport (MooncakeConnector's transfer engine, MoRIIO in
//     read mode) keeps that timing at line rate: the per-descriptor
//     posting cost (postCosts) is measured for NIXL over UCX only;
//   - a layer-wise push (P2pNcclConnector PUT_ASYNC, MoRIIO's write mode)
//     sends each layer's KV as the forward computes it: only what the sends
//     exceed of the compute they overlap is exposed (Overlap);
//     P2pNcclConnector's synchronous PUT blocks the forward on each layer's
//     send, exposing all of it. P2pNccl's decode engine loads the KV inside
//     the forward that schedules the request (SyncLoad): no read is noticed
//     at a step's end (noticedRead).
//
// false prices every connector as NixlConnector, as before.
var UseConnectorSemantics = true

// Overlap is how a layer-wise push hides behind the prefill's forward.
//
// The forward computes L layers in ComputeS, layer k ready at k·ComputeS/L;
// one sender sends them in order, each s = PerLayerS + WireS/L. The last
// send ends at max over k of (k·c/L + (L − k + 1)·s) — linear in k, so at
// k = L (c + s) or k = 1 (c/L + L·s) — which exceeds the forward by
//
//	exposed = max(s, L·s − c·(L − 1)/L)
//
// (a sender that blocks the forward, Overlaps false: L·s). CopyS is added:
// the gathers and scatters of StagingCopies, each a read and a write of the
// rank's share of the prompt's KV at the GPU's HBM bandwidth.
type Overlap struct {
	Layers int `json:"layers"`
	// ComputeS is the forward of the step that finishes the prompt (its last
	// chunk, alone in the step: the least it can overlap).
	ComputeS float64 `json:"compute_s"`
	// PerLayerS is each layer's fixed cost: the link's latency (a message
	// and its reply before each send in P2pNccl's send_sync: a lower bound).
	// No fixed cost per request or per layer beyond it is charged: none is
	// measured in what was read (December 2026). PR #18242's design doc
	// (docs/design/p2p_nccl_connector.md, stored version at 28a8cf3c) gives
	// only the NCCL group's buffer (about 100 MB at NCCL_MAX_NCHANNELS=16,
	// 52 MB at 8), the tensor memory pool's PCIe 4.0 rate (about 21 GB/s,
	// used when the receive buffer overflows) and the send types' order
	// (PUT_ASYNC, GET, PUT) without figures; the PR's review comment of
	// 2025-06-16 (KuntaiDu: "~30ms overhead for 10000 tokens") is one total
	// against an unstated baseline, not split into the ZMQ round trips, the
	// sender thread and NCCL's own pace, so it prices nothing here.
	PerLayerS float64 `json:"per_layer_s"`
	CopyS     float64 `json:"copy_s,omitempty"`
	// Overlaps: the sends run beside the forward (false: each blocks it).
	Overlaps bool `json:"overlaps"`
	// WireS is the sends' wire time at the operating rate; ExposedS what
	// TTFT sees of the hand-off.
	WireS    float64 `json:"wire_s"`
	ExposedS float64 `json:"exposed_s"`
}

// exposedS is the formula of Overlap with wire time w.
func (o Overlap) exposedS(w float64) float64 {
	l := float64(max(1, o.Layers))
	s := o.PerLayerS + w/l
	if !o.Overlaps {
		return l*s + o.CopyS
	}
	return math.Max(s, l*s-o.ComputeS*(l-1)/l) + o.CopyS
}

// connectorTransfer adapts t, sized as NIXL's read, to the evaluator's
// connector (UseConnectorSemantics): unchanged for NIXL and for unknown
// semantics (a note for the latter); without the NIXL posting cost for
// another transport; with an Overlap for a layer-wise push.
func (e *evaluator) connectorTransfer(t Transfer, n int) Transfer {
	h := e.handoff
	if h.Connector == "" || h.Connector == vllm.NixlConnectorName {
		return t
	}
	t.Connector = h.Connector
	t.Why = append([]string(nil), t.Why...)
	// Judged again for the spec's connector: what NIXL moves of a state
	// model's per-sequence state is not what every connector moves.
	t = t.withRefusal(e.pre.in, e.dec.in, h.Connector)
	switch {
	case !UseConnectorSemantics:
		t.Semantics = "priced as NixlConnector's pull (UseConnectorSemantics off)"
		return t
	case !h.Known():
		t.Semantics = fmt.Sprintf("%s's hand-off is not established (%s): priced as NixlConnector's pull of the whole request after the prefill", h.Connector, h.Source)
		return t
	case h.UCX:
		t.Semantics = fmt.Sprintf("%s: %s of the whole request after the prefill over NIXL (UCX), started by the %s side; priced as NixlConnector's read (the same descriptors)", h.Connector, h.Direction, h.Initiator)
		return t
	}
	t = t.withoutPosting()
	t.Why = append(t.Why, fmt.Sprintf("%s moves the KV with %s: no cost per descriptor is measured for it, so the bytes move at the link's line rate", h.Connector, h.Transport))
	if h.LayerWise != vllm.Present {
		t.Semantics = fmt.Sprintf("%s: %s of the whole request after the prefill (%s), started by the %s side (%s)", h.Connector, h.Direction, h.Transport, h.Initiator, h.Source)
		return t
	}
	pre := e.pre
	kv := memory.KVBytes(pre.in, memory.Stage{First: 0, End: pre.in.Model.NumLayers})
	o := Overlap{Layers: max(1, kv.Layers/max(1, pre.in.Layout.PP)), ComputeS: lastChunkS(pre, n), PerLayerS: t.LatencyS, Overlaps: h.Overlaps}
	if h.StagingCopies {
		o.CopyS = copyS(t.PerPrefillRankBytes, pre.in.GPU.HBMBandwidthGBytesPerS) + copyS(t.PerDecodeRankBytes, e.dec.in.GPU.HBMBandwidthGBytesPerS)
	}
	t.Overlap = &o
	how := "beside the forward, so only what the sends exceed of the compute they overlap shows: max(s, L·s − c·(L−1)/L)"
	if !h.Overlaps {
		how = "each send blocking the forward, so all of them show: L·s"
	}
	t.Semantics = fmt.Sprintf("%s: layer-wise %s (%s), started by the %s side: each of the %d layers' KV is sent as the prefill's forward computes it (c = %.1f ms, the step that finishes the prompt), one send after another (s = %.3f ms latency + wire ÷ L), %s, plus %.2f ms of staging copies (%s); the %s", h.Connector, h.Direction, h.Transport, h.Initiator, o.Layers, 1e3*o.ComputeS, 1e3*o.PerLayerS, how, 1e3*o.CopyS, h.Source, syncLoadText(h))
	return t
}

func syncLoadText(h vllm.KVHandoff) string {
	if h.SyncLoad {
		return "decode engine schedules the request at once and loads its KV in that step's forward (no read noticed at a step's end)"
	}
	return "decode engine admits the request when its KV has arrived"
}

// copyS is a read and a write of b bytes at hbm GB/s (0 when unknown).
func copyS(b, hbm float64) float64 {
	if hbm <= 0 {
		return 0
	}
	return 2 * b / (hbm * 1e9)
}

// withoutPosting is t with no NIXL descriptor posting (PostS, Descriptors
// and their notes gone), on both paths of a mixture.
func (t Transfer) withoutPosting() Transfer {
	strip := func(x Transfer) Transfer {
		x.AloneS -= x.PostS
		x.PostS, x.Descriptors = 0, 0
		var why []string
		for _, w := range x.Why {
			if !strings.Contains(w, "NIXL descriptor") {
				why = append(why, w)
			}
		}
		x.Why = why
		x.TimeS = x.AloneS
		return x
	}
	if s := t.SameNode; t.SameNodeShare > 0 && s != nil {
		same := strip(*s)
		t.NICAloneS -= t.PostS
		t = strip(t)
		t.SameNode = &same
		t.AloneS = t.SameNodeShare*same.AloneS + (1-t.SameNodeShare)*t.NICAloneS
		t.TimeS = t.AloneS
		return t
	}
	return strip(t)
}

// lastChunkS is the prefill pool's step that finishes a prompt of n tokens,
// alone: the tokens its prefix cache does not serve (uncached), whole
// within max_num_batched_tokens, else their last chunk, after the cached
// prefix and the earlier chunks (P2pNccl sends a chunked prompt whole in
// the step that finishes it, build_connector_meta); the chunk ends the
// prompt (prefillChunkLoad's final).
func lastChunkS(p *Pool, n int) float64 {
	n = max(1, n)
	u := p.uncached(n)
	budget := max(1, p.in.MaxNumBatchedTokens)
	prefix := p.cached(n) + (u-1)/budget*budget
	return p.sm.StepUniform(prefillChunkLoad(1, float64(n-prefix), float64(prefix), true)).TotalS
}

// handoffAt is the hand-off at rate requests/s: Transfer.at, then, for a
// layer-wise push, what of it the prefill's forward does not hide
// (Overlap). Bit-identical to Transfer.at for every other transfer.
func handoffAt(t Transfer, rate float64) Transfer {
	x := t.at(rate)
	if x.Overlap == nil || x.Saturated {
		return x
	}
	return x.overlapped()
}

// overlapped sets TimeS to what the Overlap exposes of the transfer's
// current mean time (its latency taken per layer instead of once).
func (t Transfer) overlapped() Transfer {
	o := *t.Overlap
	o.WireS = max(0, t.TimeS-t.LatencyS)
	o.ExposedS = o.exposedS(o.WireS)
	t.Overlap = &o
	t.TimeS = o.ExposedS
	return t
}

// firstHandoffS is the lone hand-off of a finite run's first request.
func firstHandoffS(t Transfer) float64 {
	if t.Overlap == nil {
		return t.AloneS
	}
	x := t
	x.TimeS = x.AloneS
	return x.overlapped().TimeS
}
