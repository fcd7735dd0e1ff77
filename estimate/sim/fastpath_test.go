package sim

import (
	"math/rand/v2"
	"testing"
)

// TestUniformIsRandFloat64 checks that the simulator's direct draw
// (uniform) is rand.Rand.Float64 on the same stream, interleaved with the
// simulator's other draws through rng: a speculative run's figures then
// stay those of the draws through rng.
func TestUniformIsRandFloat64(t *testing.T) {
	s := newSimulator(Config{Seed: 42, DP: 1})
	ref := rand.New(rand.NewPCG(42, 42^0x9e3779b97f4a7c15))
	for i := range 10000 {
		var got, want float64
		if i%3 == 0 {
			got, want = s.rng.Float64(), ref.Float64()
		} else {
			got, want = s.uniform(), ref.Float64()
		}
		if got != want {
			t.Fatalf("draw %d: %v, want %v", i, got, want)
		}
	}
}

// TestPCGIsRandPCG checks that pcg draws rand.PCG's stream, seed by seed,
// through rand.Rand's methods as well as directly.
func TestPCGIsRandPCG(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 63, ^uint64(0)} {
		mine, ref := newPCG(seed, seed^7), rand.NewPCG(seed, seed^7)
		for i := range 1000 {
			if a, b := mine.Uint64(), ref.Uint64(); a != b {
				t.Fatalf("seed %d draw %d: %x, want %x", seed, i, a, b)
			}
		}
		rm, rr := rand.New(newPCG(seed, 3)), rand.New(rand.NewPCG(seed, 3))
		for i := range 1000 {
			if a, b := rm.NormFloat64(), rr.NormFloat64(); a != b {
				t.Fatalf("seed %d NormFloat64 %d: %v, want %v", seed, i, a, b)
			}
			if a, b := rm.ExpFloat64(), rr.ExpFloat64(); a != b {
				t.Fatalf("seed %d ExpFloat64 %d: %v, want %v", seed, i, a, b)
			}
		}
	}
}
