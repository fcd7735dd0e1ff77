package sim

import (
	"math"
	"testing"
)

// Smoother arrivals (workload.arrival_burstiness, a larger gamma shape B)
// queue less at the same rate. One server of fixed service time S
// (max_num_seqs 1, one output token, one chunk) is GI/D/1 at ρ = λS.
// Kingman's approximation of its mean wait, ρ/(1−ρ) · (ca² + cs²)/2 · S
// with cs² = 0 and ca² = 1/B (TestGammaArrivalsKingman holds it within
// 8% for B = 0.5–2), loses accuracy as B grows (it is exact only in heavy
// traffic), but Kingman's bound holds for every GI/G/1 queue:
// W ≤ λ(σa² + σs²) / (2(1−ρ)), which with σa² = 1/(Bλ²) and σs² = 0 is
// 1/(2Bλ(1−ρ)) = the approximation / ρ² (Kingman, "Some inequalities for
// the queue GI/1", Biometrika 49, 1962). So at every B the simulated wait
// must lie below the bound (plus 5% for the sampling error of a mean over
// 200,000 requests at ρ = 0.9) and fall as B rises: B = 4, 16, 100 give
// gaps of CV 0.5, 0.25, 0.1. At B = 100 the gaps (11.1 ms ± 1.1 ms)
// fall below the 10 ms service one time in six, so a small wait remains.
func TestSmootherArrivalsWaitLess(t *testing.T) {
	const S, rho = 0.01, 0.9
	lambda := rho / S
	prev := math.Inf(1)
	for _, b := range []float64{1, 4, 16, 100} {
		res := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 1 << 20,
			InputTokens: 100, OutputTokens: 1, ArrivalRatePerS: lambda, Burstiness: b, Requests: 200_000, Warmup: 5000, Seed: 1})
		wait := res.TTFT.Mean - S
		bound := 1 / (2 * b * lambda * (1 - rho))
		t.Logf("B=%g: mean wait %.3f ms, Kingman's approximation %.3f ms, bound %.3f ms", b, 1e3*wait, 1e3*rho*rho*bound, 1e3*bound)
		if wait > 1.05*bound {
			t.Errorf("B=%g: mean wait %.4f s above Kingman's bound %.4f s", b, wait, bound)
		}
		if !(wait < prev) {
			t.Errorf("B=%g: mean wait %.4f s, not below the previous (smaller B) %.4f s", b, wait, prev)
		}
		prev = wait
	}
}
