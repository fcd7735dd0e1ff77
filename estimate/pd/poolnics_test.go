package pd_test

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/published"
)

// pdRowByID is published/pd.yaml's row id.
func pdRowByID(t *testing.T, id string) published.PDRow {
	t.Helper()
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s in published/pd.yaml", id)
	return published.PDRow{}
}

// Each pool of a row on separate nodes is priced at its own instances'
// NICs (pd.UsePoolNICs). The GKE llm-d row runs 8 TP1 prefill instances
// and 2 TP4 decode instances on A3 Ultra nodes, one 400 Gbit/s ConnectX-7
// per H200 (8 per node): a prefill instance owns 1 NIC (50 GB/s), a decode
// instance 4 (200 GB/s). vLLM's NixlConnector has each of the 4 decode
// ranks read its one prefill rank (the TP1 prefill sends every byte), so a
// transfer moves at the prefill instance's 50 GB/s; with the decode
// instance's NICs for both pools (the one network section of RowSpec's
// spec) the prefill instance got 4 NICs and 200 GB/s. The NICs between
// the pools carry min(8 × 50, 2 × 200) = 400 GB/s either way. A row that
// states no NICs (CoreWeave's) keeps check's per-pool default, and rows
// whose pools share a node never cross the NICs: neither moves.
func TestPoolsGetTheirOwnNICs(t *testing.T) {
	defer func(v bool) { pd.UsePoolNICs = v }(pd.UsePoolNICs)
	cases := []struct {
		id               string
		own, shared      float64 // link GB/s with each pool's NICs, with the decode's for both
		ownMax, sharedMx float64 // the NICs' GB/s between the pools (MaxRatePerS × wire bytes)
	}{
		{"llmd-gke-h200-p8tp1-d2tp4-r45", 50, 200, 400, 400},
	}
	for _, c := range cases {
		r := pdRowByID(t, c.id)
		pd.UsePoolNICs = true
		_, own := replayPD(t, r)
		pd.UsePoolNICs = false
		_, shared := replayPD(t, r)
		if got := own.Transfer.LinkGBytesPerS; math.Abs(got-c.own) > 0.01 {
			t.Errorf("%s: own NICs: link %.2f GB/s, want %.0f", c.id, got, c.own)
		}
		if got := shared.Transfer.LinkGBytesPerS; math.Abs(got-c.shared) > 0.01 {
			t.Errorf("%s: shared NICs: link %.2f GB/s, want %.0f", c.id, got, c.shared)
		}
		for _, x := range []struct {
			name string
			tr   pd.Transfer
			want float64
		}{{"own", own.Transfer, c.ownMax}, {"shared", shared.Transfer, c.sharedMx}} {
			if got := x.tr.MaxRatePerS * x.tr.WireBytes / 1e9; math.Abs(got-x.want) > 0.5 {
				t.Errorf("%s: %s NICs carry %.1f GB/s between the pools, want %.0f", c.id, x.name, got, x.want)
			}
		}
		if own.Transfer.AloneS <= shared.Transfer.AloneS {
			t.Errorf("%s: a transfer over one NIC (%.2f ms) is not slower than over four (%.2f ms)", c.id, own.Transfer.AloneS*1e3, shared.Transfer.AloneS*1e3)
		}
	}
	for _, id := range []string{"llmd-coreweave-h200-p8tp1-d2tp4-r45", "anyscale-h100-spread-p1tp4-d1tp4-c16", "anyscale-h100-pack-p2tp2-d1tp4-c16"} {
		r := pdRowByID(t, id)
		pd.UsePoolNICs = true
		_, own := replayPD(t, r)
		pd.UsePoolNICs = false
		_, shared := replayPD(t, r)
		if own.Transfer.LinkGBytesPerS != shared.Transfer.LinkGBytesPerS || own.TTFT.Mean != shared.TTFT.Mean {
			t.Errorf("%s: moved with the pools' own NICs (link %.1f → %.1f GB/s, TTFT %.1f → %.1f ms); its pools have the same NICs",
				id, shared.Transfer.LinkGBytesPerS, own.Transfer.LinkGBytesPerS, shared.TTFT.Mean*1e3, own.TTFT.Mean*1e3)
		}
	}
}
