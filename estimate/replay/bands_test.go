package replay

import (
	"fmt"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
)

// figs makes n figures of one source whose published/predicted ratios are
// ratio × e^(±spread) alternately (median ratio when n is odd).
func figs(c band.Class, r band.Regime, src string, n int, ratio, spread float64) []Target {
	var out []Target
	for i := range n {
		d := 0.0
		if n > 1 {
			d = spread * float64(2*(i%2)-1)
			if i == n-1 && n%2 == 1 {
				d = 0
			}
		}
		out = append(out, Target{Source: src, Class: c, Regime: r, Published: ratio * math.Exp(d), Predicted: 1})
	}
	return out
}

// The rule on hand-checkable inputs: the interval is the Student-t
// predictive interval of a new source, and it opens where it should — too
// few sources, a side beyond band.MaxFactor, a pooled class whose own
// source lies beyond the pool.
func TestBandsRule(t *testing.T) {
	var tight []Target
	for i, r := range []float64{0.9, 1.0, 1.1, 1.2, 0.95} {
		tight = append(tight, figs(band.MoE, band.Throughput, fmt.Sprint("s", i), 1, r, 0)...)
	}
	b, _ := find(Bands(tight, nil), band.MoE, band.Throughput)
	// By hand: log medians, their mean and sample variance; no within
	// spread (one figure each); t(0.9, 4) = 1.533.
	var mean, v float64
	for _, r := range []float64{0.9, 1.0, 1.1, 1.2, 0.95} {
		mean += math.Log(r) / 5
	}
	for _, r := range []float64{0.9, 1.0, 1.1, 1.2, 0.95} {
		v += (math.Log(r) - mean) * (math.Log(r) - mean) / 4
	}
	h := 1.533 * math.Sqrt(v*(1+1.0/5))
	if math.Abs(b.Low/math.Exp(mean-h)-1) > 1e-3 || math.Abs(b.High/math.Exp(mean+h)-1) > 1e-3 || b.OpenLow || b.OpenHigh {
		t.Errorf("five agreeing sources: band %.4f–%.4f open %v/%v, want %.4f–%.4f bounded", b.Low, b.High, b.OpenLow, b.OpenHigh, math.Exp(mean-h), math.Exp(mean+h))
	}

	// Three sources, however tight: both sides open (few sources).
	if _, ok := find(Bands(tight[:3], nil), band.MoE, band.Throughput); !ok {
		t.Fatal("no band for three moe sources")
	}
	b, _ = find(Bands(tight[:3], nil), band.MoE, band.Throughput)
	if !b.OpenLow || !b.OpenHigh || !b.Few() {
		t.Errorf("three sources: want both sides open for few sources, got %+v", b)
	}

	// Five sources, one 30× slow: the high side reaches past MaxFactor.
	wide := append(tight[:4:4], figs(band.MoE, band.Throughput, "far", 1, 30, 0)...)
	b, _ = find(Bands(wide, nil), band.MoE, band.Throughput)
	if !b.OpenHigh || b.Few() || b.Disagree < 30 {
		t.Errorf("a source 30× off: want the high side open with the sources ≥30× apart, got %+v", b)
	}

	// A dense class with one source of its own, 4× above the pool of
	// five agreeing MoE sources: pooled, stretched to its highest figure.
	pool := append(tight[:5:5], figs(band.Dense, band.Throughput, "dense-1", 3, 4, 0.05)...)
	b, _ = find(Bands(pool, nil), band.Dense, band.Throughput)
	if !b.Pooled || b.Own != 1 || b.Beyond != "dense-1" || b.OpenHigh || b.OpenLow || math.Abs(b.High-4*math.Exp(0.05)) > 1e-9 {
		t.Errorf("dense beyond the pool: want pooled, stretched to ×%.3f for dense-1, bounded; got %+v", 4*math.Exp(0.05), b)
	}
	// 20× above: stretched past MaxFactor, the side opens.
	pool = append(tight[:5:5], figs(band.Dense, band.Throughput, "dense-1", 1, 20, 0)...)
	if b, _ = find(Bands(pool, nil), band.Dense, band.Throughput); !b.OpenHigh || b.OpenLow {
		t.Errorf("dense 20× beyond the pool: want the high side open, got %+v", b)
	}
}

// Student's t against the standard table.
func TestStudentT(t *testing.T) {
	for _, c := range []struct {
		df   int
		p, t float64
	}{{1, 0.9, 3.078}, {2, 0.9, 1.886}, {3, 0.9, 1.638}, {10, 0.9, 1.372}, {30, 0.9, 1.310}, {4, 0.975, 2.776}} {
		if got := studentT(c.p, c.df); math.Abs(got-c.t) > 1e-3 {
			t.Errorf("t(%g, %d) = %.4f, want %.3f", c.p, c.df, got, c.t)
		}
	}
}

// The generated table opens every side the evidence cannot bound: both
// sides of a band on fewer than band.MinSources sources (the legacy
// class's TTFT P99 rests on two) and a side beyond band.MaxFactor; and only
// those.
// MoE throughput, with eleven sources, is bounded.
func TestBandTableOpenSides(t *testing.T) {
	for _, b := range band.Table {
		few := len(b.Sources) < band.MinSources
		wantLow := few || b.Low < 1/band.MaxFactor
		wantHigh := few || b.High > band.MaxFactor
		if b.OpenLow != wantLow || b.OpenHigh != wantHigh {
			t.Errorf("%s %s: open %v/%v, want %v/%v (%d sources, ×%.2f–×%.2f)", b.Class, b.Regime, b.OpenLow, b.OpenHigh, wantLow, wantHigh, len(b.Sources), b.Low, b.High)
		}
	}
	if b := band.For(band.Legacy, band.TTFTP99); !b.OpenLow || !b.OpenHigh || !b.Few() {
		t.Errorf("legacy ttft_p99: want both sides open for few sources, got %+v", b)
	}
	if b := band.For(band.MoE, band.Throughput); b.OpenLow || b.OpenHigh || b.Low >= 1 || b.High <= 1 {
		t.Errorf("moe throughput: want a bounded band around 1, got %+v", b)
	}
	if lo, hi := band.For(band.Legacy, band.TTFTP99).Range(2); lo != 0 || !math.IsInf(hi, 1) {
		t.Errorf("an open band's range is [0, +Inf), got [%g, %g]", lo, hi)
	}
}

// A pooled class with two or three sources of its own is no narrower than
// their own predictive interval (ownSpread): two dense sources 1.6× apart
// beside five MoE sources that agree get Student's t on one degree of
// freedom around the dense sources' mean; two that agree keep the pool's
// band; one keeps the pool's band stretched to its figures.
func TestBandsOwnSpread(t *testing.T) {
	var moe []Target
	for i, r := range []float64{0.9, 1.0, 1.1, 1.2, 0.95} {
		moe = append(moe, figs(band.MoE, band.ThroughputBurst, fmt.Sprint("m", i), 1, r, 0)...)
	}
	apart := append(append(moe[:5:5], figs(band.Dense, band.ThroughputBurst, "d-a", 3, 1.0, 0.05)...),
		figs(band.Dense, band.ThroughputBurst, "d-b", 3, 1.6, 0.05)...)
	b, _ := find(Bands(apart, nil), band.Dense, band.ThroughputBurst)
	// By hand: medians 0 and ln 1.6, one degree of freedom between, each
	// source's figures ±0.05 around its median (within variance 4 × 0.05²
	// over 6 − 2), t(0.9, 1) = 3.078.
	mean := math.Log(1.6) / 2
	between := 2 * mean * mean
	h := 3.078 * math.Sqrt(between*(1+1.0/2)+4*0.05*0.05/4)
	if !b.Pooled || !b.OwnSpread || math.Abs(b.OwnDisagree-1.6) > 1e-9 ||
		math.Abs(b.Low/math.Exp(mean-h)-1) > 1e-3 || math.Abs(b.High/math.Exp(mean+h)-1) > 1e-3 {
		t.Errorf("two dense sources 1.6× apart: want their own interval ×%.3f–×%.3f, got %+v", math.Exp(mean-h), math.Exp(mean+h), b)
	}
	pool, _ := find(Bands(apart, nil), band.MoE, band.ThroughputBurst)
	if b.High/b.Low <= pool.High/pool.Low {
		t.Errorf("the own interval should be wider than the moe band ×%.2f–×%.2f, got ×%.2f–×%.2f", pool.Low, pool.High, b.Low, b.High)
	}

	agree := append(append(moe[:5:5], figs(band.Dense, band.ThroughputBurst, "d-a", 3, 1.0, 0.01)...),
		figs(band.Dense, band.ThroughputBurst, "d-b", 3, 1.02, 0.01)...)
	b, _ = find(Bands(agree, nil), band.Dense, band.ThroughputBurst)
	whole := bandOf(band.ThroughputBurst, agree)
	if b.OwnSpread || b.Beyond != "" || b.Low != whole.Low || b.High != whole.High {
		t.Errorf("two dense sources that agree: want the pool's band ×%.3f–×%.3f, got %+v", whole.Low, whole.High, b)
	}

	one := append(moe[:5:5], figs(band.Dense, band.ThroughputBurst, "d-a", 3, 1.6, 0.05)...)
	if b, _ = find(Bands(one, nil), band.Dense, band.ThroughputBurst); b.OwnSpread || b.Beyond != "d-a" {
		t.Errorf("one dense source: want the pool stretched for it, no own interval, got %+v", b)
	}
}
