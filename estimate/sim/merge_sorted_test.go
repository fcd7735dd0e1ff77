package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPooledMergesSortedTTFTs checks that pooling runs that kept their
// sorted TTFTs (Replicate's) gives, bit for bit, the TTFT quantiles of
// sorting every run's TTFTs together, with repeated values across runs,
// an empty run, runs that measured nothing, and a negative zero (which makes pooledWith sort).
func TestPooledMergesSortedTTFTs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		var kept, plain []*simulator
		for i := range 1 + rng.IntN(6) {
			n := rng.IntN(700)
			if i == 1 || trial == 5 {
				n = 0
			}
			recs := make([]simRecord, n)
			for j := range recs {
				recs[j].ttft = float64(rng.IntN(300)) * 0.0125 // many repeats
				if trial%2 == 0 {
					recs[j].ttft = rng.ExpFloat64()
				}
			}
			if trial == 7 && n > 0 {
				recs[0].ttft = math.Copysign(0, -1)
			}
			k := &simulator{measured: recs, keepTTFT: true}
			k.result() // keeps the sorted TTFTs
			kept = append(kept, k)
			plain = append(plain, &simulator{measured: recs})
		}
		if len(kept) > 1 && trial != 7 && trial != 5 {
			v := make([]float64, 0)
			for _, s := range kept {
				v = append(v, s.ttftSorted...)
			}
			if !mergeSorted(make([]float64, len(v)), kept) {
				t.Fatalf("trial %d: runs that kept their TTFTs not merged", trial)
			}
		}
		got, want := pooledWith(kept, false), pooledWith(plain, false)
		for q := range got.TTFTQuantiles {
			if math.Float64bits(got.TTFTQuantiles[q]) != math.Float64bits(want.TTFTQuantiles[q]) {
				t.Fatalf("trial %d: quantile %d merged %v, sorted %v", trial, q, got.TTFTQuantiles[q], want.TTFTQuantiles[q])
			}
		}
		got, want = pooledWith(kept, true), pooledWith(plain, true)
		if got.TTFT != want.TTFT {
			t.Fatalf("trial %d: TTFT merged %+v, sorted %+v", trial, got.TTFT, want.TTFT)
		}
	}
}
