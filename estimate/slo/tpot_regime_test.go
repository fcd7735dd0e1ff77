package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
)

// A burst's TPOT is judged with the burst regime's band, a steady load's
// with the steady one: the two are built from different held-out figures
// and differ by several times on the same deployment.
func TestTPOTRegimeFollowsTheLoad(t *testing.T) {
	in := sloInput(t, 1)
	in.SLO.TPOTMs = 40
	if r := TPOTRegime(&in); r != band.TPOT {
		t.Fatalf("closed loop: regime %q, want %q", r, band.TPOT)
	}
	steady := runPerf(t, in)
	in.Workload.BurstRequests = 64
	if r := TPOTRegime(&in); r != band.TPOTBurst {
		t.Fatalf("burst: regime %q, want %q", r, band.TPOTBurst)
	}
	burst := runPerf(t, in)
	s, b := tpotOf(t, steady), tpotOf(t, burst)
	ws, wb := s.Band.High/s.Predicted, b.Band.High/b.Predicted
	if !(wb > ws) {
		t.Errorf("TPOT band high side: burst ×%.2f, steady ×%.2f; want the burst's wider (band.For(dense, tpot_burst) is ×%.2f, tpot ×%.2f)",
			wb, ws, band.For(band.Dense, band.TPOTBurst).High, band.For(band.Dense, band.TPOT).High)
	}
}

func tpotOf(t *testing.T, p Prediction) Verdict {
	t.Helper()
	for _, v := range p.SLO {
		if v.Name == "TPOT (mean)" {
			return v
		}
	}
	t.Fatalf("no TPOT verdict in %+v", p.SLO)
	return Verdict{}
}
