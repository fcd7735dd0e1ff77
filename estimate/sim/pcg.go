package sim

import "math/bits"

// pcg is math/rand/v2's PCG generator (rand.PCG: the same state, step
// and DXSM output, so rand.New(newPCG(a, b)) draws what
// rand.New(rand.NewPCG(a, b)) draws), kept here so that the simulator's
// hottest draw (uniform, once per decoding sequence and verify step under
// speculative decoding) compiles inline rather than through rand.Source.
type pcg struct{ hi, lo uint64 }

// newPCG is rand.NewPCG(seed1, seed2).
func newPCG(seed1, seed2 uint64) *pcg { return &pcg{seed1, seed2} }

// Uint64 is rand.PCG.Uint64: one LCG step of the 128-bit state, then the
// "double xorshift multiply" output function.
func (p *pcg) Uint64() uint64 {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}
