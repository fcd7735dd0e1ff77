package perf

import "testing"

// TestTermBindingRules: each term's binding is the side its own pricing
// took: a measured GEMM table's compute- or memory-bound share (or the
// activation passes when they outlast the GEMMs), a roofline's larger
// side, the measured MoE curve or streaming rate when they priced the
// side that won, the NICs only when the step sends bytes through them.
func TestTermBindingRules(t *testing.T) {
	for _, c := range []struct {
		name string
		got  TermBinding
		want string
	}{
		{"table, streaming weights", gemmTableBinding(0.2e-3, 1.2e-3, 0.1e-3), "measured GEMM table (HBM-bound at this shape)"},
		{"table, large M", gemmTableBinding(5e-3, 1e-3, 0.5e-3), "measured GEMM table (compute-bound at this shape)"},
		{"activations outlast the GEMMs", gemmTableBinding(0.1e-3, 0.1e-3, 0.3e-3), "HBM (roofline)"},
		{"roofline compute", rooflineBinding(2, 1), "compute (roofline)"},
		{"roofline memory", rooflineBinding(1, 2), "HBM (roofline)"},
		{"experts curve wins", expertBinding(2, 1, true, false), "measured fused-MoE table (compute-bound at this shape)"},
		{"experts stream wins", expertBinding(1, 2, true, true), "HBM (measured fused-MoE streaming rate)"},
		{"experts roofline memory", expertBinding(1, 2, false, false), "HBM (roofline)"},
		{"no communication", StepTime{}.networkBinding(), ""},
		{"TP over NVLink", StepTime{TPS: 1e-4}.networkBinding(), "network (NVLink)"},
		{"all-to-all over NICs", StepTime{A2AS: 1e-3, InterBytesPerNode: 1e6}.networkBinding(), "network (NICs)"},
	} {
		if c.got.String() != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestTermBindingRoundTrips: every binding reads back from the JSON name
// it writes, and an unknown name is refused.
func TestTermBindingRoundTrips(t *testing.T) {
	for b := TermNone; b <= TermHost; b++ {
		txt, _ := b.MarshalText()
		var got TermBinding
		if err := got.UnmarshalText(txt); err != nil || got != b {
			t.Errorf("%d (%q): read back %d, %v", b, txt, got, err)
		}
	}
	var x TermBinding
	if err := x.UnmarshalText([]byte("warp drive")); err == nil {
		t.Error("an unknown name was accepted")
	}
}
