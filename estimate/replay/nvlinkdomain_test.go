package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// TestNVLinkDomain checks that a row's trays share the rack's NVLink
// domain only when the GPU has one and the row says its nodes talk over
// NVLink, capped at the row's GPUs.
func TestNVLinkDomain(t *testing.T) {
	num := func(v float64) published.Num { return published.Num{V: v, Known: true} }
	for _, c := range []struct {
		gpu, inter string
		gpus, per  float64
		want       int
	}{
		{"gb200", "NVLink (one NVL72 domain)", 48, 4, 48},
		{"gb200", "nvlink", 144, 4, 72},
		{"gb200", "InfiniBand (4 x 400 Gbit/s per node)", 48, 4, 0},
		{"gb200", "none", 4, 4, 0},
		{"h100-sxm", "NVLink", 16, 8, 0}, // no multi-node domain
	} {
		g, err := catalog.LookupGPU(c.gpu)
		if err != nil {
			t.Fatal(err)
		}
		h := published.Hardware{GPU: c.gpu, GPUs: num(c.gpus), GPUsPerNode: num(c.per), InterNode: c.inter}
		if got := nvlinkDomain(h, g); got != c.want {
			t.Errorf("%s %q %v GPUs: domain %d, want %d", c.gpu, c.inter, c.gpus, got, c.want)
		}
	}
}

// TestSetupWidensNVL72 checks that Setup prices a GB200 row whose trays
// share NVLink as one NVLink domain (no NIC traffic), as check does, and
// one over NICs as separate hosts.
func TestSetupWidensNVL72(t *testing.T) {
	var row published.Row
	for _, r := range targetableRows(t) {
		if r.ID == "lmsys-gb200p2-dsr1-decode-ep48-fp8kv-nvfp4" {
			row = r
		}
	}
	if row.ID == "" {
		t.Fatal("row lmsys-gb200p2-dsr1-decode-ep48-fp8kv-nvfp4 not found")
	}
	s, _, err := Setup(row, perf.DefaultEfficiency)
	if err != nil {
		t.Fatal(err)
	}
	if !s.HW.MNNVL() || s.HW.GPUsPerNode != 48 {
		t.Errorf("NVLink trays: MNNVL %t, domain %d GPUs, want true, 48", s.HW.MNNVL(), s.HW.GPUsPerNode)
	}
	_, st := perf.NewStepModel(s).DecodeAt(48*1408, 2000)
	if st.InterBytesPerNode != 0 {
		t.Errorf("all-to-all inside one NVL72 domain crosses NICs: %.3g bytes per node", st.InterBytesPerNode)
	}
	row.Hardware.InterNode = "InfiniBand (4 x 400 Gbit/s per node)"
	s, _, err = Setup(row, perf.DefaultEfficiency)
	if err != nil {
		t.Fatal(err)
	}
	if s.HW.MNNVL() {
		t.Error("trays joined by InfiniBand priced as one NVLink domain")
	}
}
