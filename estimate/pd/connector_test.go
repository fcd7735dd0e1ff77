package pd_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// pr18242 is the held-out P2pNccl row's replay inputs: its spec as the
// replay writes it (replayConnector names P2pNcclConnector) and the
// connector's hand-off with the send_type its commands set.
func pr18242(t *testing.T) (string, bool, vllm.KVHandoff) {
	t.Helper()
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Rows {
		if r.ID != "vllm-pr18242-h100-p1tp1-d1tp1-r3.6" {
			continue
		}
		name, extra := replayConnector(r)
		if name != "P2pNcclConnector" || extra["send_type"] != vllm.P2pNcclPutAsync {
			t.Fatalf("replayConnector(%q) = %s %v, want P2pNcclConnector PUT_ASYNC", r.Connector, name, extra)
		}
		y, same := pdSpec(r)
		if !strings.Contains(y, "connector: P2pNcclConnector") {
			t.Fatalf("the replay's spec does not name the row's connector:\n%s", y)
		}
		v, _ := vllm.ParseVersion(r.Engine.Version)
		return y, same, vllm.KVHandoffOf(name, v, extra, nil)
	}
	t.Fatal("no pr-18242 row")
	return "", false, vllm.KVHandoff{}
}

// TestConnectorNixlBitIdentical: NixlConnector's hand-off, an unknown
// connector's (LMCacheConnectorV1: LMCache's configuration decides) and any
// connector with UseConnectorSemantics off give Evaluate's figures to the
// bit; only the transfer's connector name and semantics line differ.
func TestConnectorNixlBitIdentical(t *testing.T) {
	y, same, p2p := pr18242(t)
	in := testinput.FromYAML(t, "pr18242", y)
	pre, dec := testinput.Pools(t, in.Resolved())
	opt := slo.Options{Seed: replaySeed}
	want, _ := pd.Evaluate(&pre, &dec, same, "", opt)
	strip := func(r pd.Report) []pd.Scenario {
		out := append([]pd.Scenario(nil), r.Scenarios...)
		for i := range out {
			out[i].Transfer.Connector, out[i].Transfer.Semantics = "", ""
		}
		return out
	}
	check := func(name string, got pd.Report) {
		t.Helper()
		g, w := strip(got), strip(want)
		if len(g) != len(w) || len(g) == 0 {
			t.Fatalf("%s: %d scenarios, want %d", name, len(g), len(w))
		}
		for i := range g {
			a, b := g[i], w[i]
			if a.TTFT != b.TTFT || a.TPOT != b.TPOT || a.TTFTParts != b.TTFTParts || a.RequestsPerS != b.RequestsPerS ||
				a.Transfer.TimeS != b.Transfer.TimeS || a.Transfer.AloneS != b.Transfer.AloneS || a.Transfer.PostS != b.Transfer.PostS || a.Transfer.Overlap != nil {
				t.Errorf("%s: scenario %d differs from NixlConnector's: TTFT %+v vs %+v, transfer %.9g vs %.9g", name, i, a.TTFT, b.TTFT, a.Transfer.TimeS, b.Transfer.TimeS)
			}
		}
	}
	nixl, _ := pd.EvaluateConnector(&pre, &dec, same, "", vllm.NixlHandoff(), opt)
	check("NixlConnector", nixl)
	lm := vllm.KVHandoffOf("LMCacheConnectorV1", dec.Release().Version, nil, nil)
	unknown, _ := pd.EvaluateConnector(&pre, &dec, same, "", lm, opt)
	check("LMCacheConnectorV1", unknown)
	if s := unknown.Scenarios[0].Transfer.Semantics; !strings.Contains(s, "not established") || !strings.Contains(s, "NixlConnector") {
		t.Errorf("an unknown connector's transfer does not say it is priced as NIXL: %q", s)
	}
	if !strings.Contains(strings.Join(unknown.Notes, "\n"), "LMCacheConnectorV1, priced as NixlConnector") {
		t.Errorf("the notes do not name the unknown connector's pricing:\n%s", strings.Join(unknown.Notes, "\n"))
	}
	pd.UseConnectorSemantics = false
	defer func() { pd.UseConnectorSemantics = true }()
	off, _ := pd.EvaluateConnector(&pre, &dec, same, "", p2p, opt)
	check("P2pNcclConnector with UseConnectorSemantics off", off)
}

// TestConnectorP2pNcclOverlap: the held-out row's P2pNccl PUT_ASYNC
// hand-off, derived by hand. Llama-3.1-8B: 32 layers × 8 KV heads × 128 ×
// 2 (K, V) × 2 bytes = 131,072 B per token; 8,000 tokens (500 blocks of
// 16) = 1.048576 GB, one TP 1 rank each side. Both pools on one H100 node:
// NVLink at the catalog's 450 GB/s, so the wire is 2.330 ms, 72.8 µs a
// layer. The sends hide behind the ~200 ms forward (32 × s − c × 31/32 is
// negative), leaving the last layer's send, s = latency + 72.8 µs, and the
// staging copies: a gather on the prefill GPU and a scatter on the decode
// GPU, each a read and a write of 1.048576 GB at 3,350 GB/s: 4 × 1.048576
// ÷ 3350 = 1.252 ms.
func TestConnectorP2pNcclOverlap(t *testing.T) {
	y, same, h := pr18242(t)
	if !h.Known() || h.Direction != vllm.HandoffPush || h.LayerWise != vllm.Present || !h.Overlaps || !h.SyncLoad || h.UCX {
		t.Fatalf("P2pNccl PUT_ASYNC semantics: %+v", h)
	}
	in := testinput.FromYAML(t, "pr18242", y)
	pre, dec := testinput.Pools(t, in.Resolved())
	opt := slo.Options{Seed: replaySeed}
	rep, _ := pd.EvaluateConnector(&pre, &dec, same, "", h, opt)
	nixl, _ := pd.Evaluate(&pre, &dec, same, "", opt)
	s, n := rep.Scenarios[0], nixl.Scenarios[0]
	x, o := s.Transfer, s.Transfer.Overlap
	if o == nil {
		t.Fatal("no overlap priced")
	}
	const bytes = 131072 * 8000.0
	if x.WireBytes != bytes || o.Layers != 32 || x.PostS != 0 || x.Descriptors != 0 {
		t.Fatalf("wire %.0f B (want %.0f), %d layers (want 32), posting %.3g s / %d descriptors (want none: NIXL's cost)", x.WireBytes, bytes, o.Layers, x.PostS, x.Descriptors)
	}
	wire := bytes / 450e9
	if math.Abs(o.WireS-wire) > 1e-9 {
		t.Errorf("wire %.6f ms, want %.6f ms", 1e3*o.WireS, 1e3*wire)
	}
	copies := 4 * bytes / 3350e9
	if math.Abs(o.CopyS-copies) > 1e-12 {
		t.Errorf("copies %.6f ms, want %.6f ms", 1e3*o.CopyS, 1e3*copies)
	}
	if o.ComputeS < 0.1 || 32*(o.PerLayerS+wire/32)-o.ComputeS*31/32 >= 0 {
		t.Fatalf("the forward (%.1f ms) should hide every send but the last", 1e3*o.ComputeS)
	}
	want := o.PerLayerS + wire/32 + copies
	if math.Abs(x.TimeS-want) > 1e-12 || s.TTFTParts.TransferS != x.TimeS {
		t.Errorf("exposed hand-off %.6f ms, want %.6f ms (the last layer's send and the copies)", 1e3*x.TimeS, 1e3*want)
	}
	if s.TTFTParts.DecodeAdmit.ReadNoticeS != 0 || n.TTFTParts.DecodeAdmit.ReadNoticeS <= 0 {
		t.Errorf("P2pNccl loads in the scheduling step: notice %.3g s (NIXL's %.3g s)", s.TTFTParts.DecodeAdmit.ReadNoticeS, n.TTFTParts.DecodeAdmit.ReadNoticeS)
	}
	if !(s.TTFT.Mean < n.TTFT.Mean-0.1) {
		t.Errorf("TTFT mean %.1f ms, NIXL-priced %.1f ms: the push should hide the 132 ms hand-off", 1e3*s.TTFT.Mean, 1e3*n.TTFT.Mean)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "P2pNcclConnector sends a request's KV layer by layer") || !strings.Contains(notes, "p2p_nccl_connector.py") {
		t.Errorf("the notes do not say which semantics priced the hand-off:\n%s", notes)
	}

	// The synchronous PUT blocks the forward on each send: all of it shows.
	put := vllm.KVHandoffOf("P2pNcclConnector", dec.Release().Version, map[string]string{"send_type": vllm.P2pNcclPut}, nil)
	rp, _ := pd.EvaluateConnector(&pre, &dec, same, "", put, opt)
	xp := rp.Scenarios[0].Transfer
	if wantPut := 32*xp.Overlap.PerLayerS + xp.Overlap.WireS + copies; math.Abs(xp.TimeS-wantPut) > 1e-12 {
		t.Errorf("PUT hand-off %.6f ms, want %.6f ms (L·s plus copies)", 1e3*xp.TimeS, 1e3*wantPut)
	}
}

// TestOverlapFormula: max(s, L·s − c·(L−1)/L) + copies, by hand.
func TestOverlapFormula(t *testing.T) {
	for _, c := range []struct {
		o    pd.Overlap
		w    float64
		want float64
	}{
		// s = 1 + 8/4 = 3 ms; 4 × 3 − 40 × 3/4 = −18: the last send, 3 ms.
		{pd.Overlap{Layers: 4, ComputeS: 0.040, PerLayerS: 0.001, Overlaps: true}, 0.008, 0.003},
		// s = 1 + 100/4 = 26 ms; 104 − 30 = 74 ms.
		{pd.Overlap{Layers: 4, ComputeS: 0.040, PerLayerS: 0.001, Overlaps: true}, 0.100, 0.074},
		// the same with 0.5 ms of copies.
		{pd.Overlap{Layers: 4, ComputeS: 0.040, PerLayerS: 0.001, Overlaps: true, CopyS: 0.0005}, 0.100, 0.0745},
		// blocking sends: L·s = 104 ms.
		{pd.Overlap{Layers: 4, ComputeS: 0.040, PerLayerS: 0.001}, 0.100, 0.104},
	} {
		if got := pd.ExposedS(c.o, c.w); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v at wire %.3f s: %.6f s, want %.6f s", c.o, c.w, got, c.want)
		}
	}
}
