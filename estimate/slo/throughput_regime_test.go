package slo

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
)

// A finite burst's throughput is judged with the burst regime's band (the
// held-out throughput of bursts and offline batches), a steady load's with
// the steady one; the capacity band of an open loop's TTFT (loadband.go)
// stays the steady one.
func TestThroughputRegimeFollowsTheLoad(t *testing.T) {
	in := sloInput(t, 1)
	in.SLO.ThroughputTokensPerS = 100
	if r := ThroughputRegime(&in); r != band.Throughput {
		t.Fatalf("closed loop: regime %q, want %q", r, band.Throughput)
	}
	steady := throughputVerdictOf(t, runPerf(t, in))
	in.Workload.BurstRequests = 64
	if r := ThroughputRegime(&in); r != band.ThroughputBurst {
		t.Fatalf("burst: regime %q, want %q", r, band.ThroughputBurst)
	}
	burst := throughputVerdictOf(t, runPerf(t, in))
	if c := classOf(&in); c != band.Dense {
		t.Fatalf("class %s, want dense", c)
	}
	for _, x := range []struct {
		name string
		v    Verdict
		r    band.Regime
	}{{"closed loop", steady, band.Throughput}, {"burst", burst, band.ThroughputBurst}} {
		want := band.For(band.Dense, x.r)
		lo, hi := x.v.Band.Low/x.v.Predicted, x.v.Band.High/x.v.Predicted
		exact := math.Abs(lo-want.Low) <= 1e-9 && math.Abs(hi-want.High) <= 1e-9
		// A finite run at a fixed concurrency is a fixed-length closed
		// loop: its band spans the loop's states too (loopThroughputBand),
		// so it holds the regime's band and says why it is wider.
		widened := lo <= want.Low+1e-9 && hi >= want.High-1e-9 && strings.Contains(x.v.BandBasis, "fixed-length closed loop")
		if !exact && !(x.name == "burst" && widened) {
			t.Errorf("%s: throughput band ×%.4f–×%.4f, want %s's ×%.4f–×%.4f (basis %q)", x.name, lo, hi, x.r, want.Low, want.High, x.v.BandBasis)
		}
	}
	if s, b := band.For(band.Dense, band.Throughput), band.For(band.Dense, band.ThroughputBurst); s.Low == b.Low && s.High == b.High {
		t.Fatal("the two regimes' dense bands are the same: the test cannot tell them apart")
	}
}

func throughputVerdictOf(t *testing.T, p Prediction) Verdict {
	t.Helper()
	for _, v := range p.SLO {
		if v.Name == "throughput (output tokens/s)" && v.Band != nil {
			return v
		}
	}
	t.Fatalf("no throughput verdict with a band in %+v", p.SLO)
	return Verdict{}
}
