package pd

import (
	"math"
	"testing"
)

// The capped pass's rule (cappedScenario step 3, poolCaps) checked where
// the client's shared cap can be solved exactly: a continuous-time Markov
// chain of a prefill pool that is one exponential server (rate mu), a
// decode pool that is an infinite server (each request decoding for an
// exponential time of mean 1/delta), Poisson arrivals at lambda and one
// cap C on the requests in either, a request arriving with C in flight
// waiting in the client's queue (at most q, far more than it holds) until
// a decode ends. A prompt's time on the prefill pool from its send is
// E[prefill population] ÷ rate (Little's law). The rule gives the prefill
// pool alone C less the decode pool's mean (rate ÷ delta) of the slots,
// rounded: the chain of that capped M/M/1. mu = 10/s and 1/delta = 0.65 s
// are the scale of capped_test.go's arrivalCase (one 4,096-token prompt in
// 0.1 s, 128 tokens decoded in 0.65 s).
//
// What it shows (the figures as written; the test asserts the bands): at
// 8 requests/s (9.2 in flight uncapped), the uncapped pool's 0.500 s
// against the capped loop's exact 0.380 s at C = 12 (+32%), the rule's
// 0.395 s (+4%); at C = 8 the exact 0.274 s, the rule's 0.244 (−11%),
// and at C = 7, whose closed loop sustains only 7.83/s, 0.244 against
// 0.180 (−26%; not asserted: there the scenario is that closed loop,
// cappedScenario step 2, not the rule). At 5 requests/s, C = 5: 0.160
// exact, 0.150 rule (−6%), C = 7: 0.180, 0.1875 (+4%). So the rule errs
// low next to the regimes' boundary (a pool's slots fixed at the mean cut
// its bursts harder than the shared cap does) and a few percent high
// above it, and is far nearer the capped loop than the uncapped figure
// wherever the cap binds at all.
func TestPoolCapRuleAgainstExactChain(t *testing.T) {
	const mu, delta, q = 10.0, 1 / 0.65, 80
	for _, c := range []struct {
		lambda      float64
		C           int
		lo, hi      float64 // the rule's error band against the exact chain
		capBindsPct float64 // the uncapped error at least this (the cap matters)
	}{
		{8, 12, 0, 0.06, 25},
		{8, 8, -0.15, 0, 50},
		{5, 5, -0.10, 0, 20},
		{5, 7, 0, 0.06, 8},
	} {
		p, rate := sharedCapChain(c.lambda, mu, delta, c.C, q)
		exact := p / rate
		k := max(1, int(math.Round(float64(c.C)-rate/delta))) // poolCaps: C − rate × the decode pool's time
		mp, mrate := cappedMM1(c.lambda, mu, k, q)
		rule := mp / mrate
		uncapped := 1 / (mu - c.lambda)
		t.Logf("λ %g C %d: exact %.4f s (%.3f/s), rule (K %d) %.4f s %+.1f%%, uncapped %.4f s %+.1f%%", c.lambda, c.C, exact, rate, k, rule, 100*(rule/exact-1), uncapped, 100*(uncapped/exact-1))
		if e := rule/exact - 1; e < c.lo || e > c.hi {
			t.Errorf("λ %g C %d: the rule's prefill time %.4f s is %+.1f%% off the exact %.4f, outside [%+.0f%%, %+.0f%%]", c.lambda, c.C, rule, 100*e, exact, 100*c.lo, 100*c.hi)
		}
		if e := uncapped/exact - 1; 100*e < c.capBindsPct || math.Abs(rule/exact-1) >= e {
			t.Errorf("λ %g C %d: uncapped %+.1f%% off, the rule %+.1f%%: the rule should be the nearer", c.lambda, c.C, 100*e, 100*(rule/exact-1))
		}
	}
}

// chainStationary is the stationary distribution of a finite chain whose
// transitions from state i are out(i) (to, rate), by Gauss-Seidel sweeps
// of the balance equations π_j Σ_out(j) = Σ_i π_i rate(i→j).
func chainStationary(n int, out func(i int) [][2]float64) []float64 {
	type in struct {
		from int
		rate float64
	}
	ins := make([][]in, n)
	total := make([]float64, n)
	for i := range n {
		for _, tr := range out(i) {
			j := int(tr[0])
			ins[j] = append(ins[j], in{i, tr[1]})
			total[i] += tr[1]
		}
	}
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1 / float64(n)
	}
	for range 20000 {
		diff := 0.0
		for j := range n {
			s := 0.0
			for _, x := range ins[j] {
				s += pi[x.from] * x.rate
			}
			if total[j] > 0 {
				v := s / total[j]
				diff = max(diff, math.Abs(v-pi[j]))
				pi[j] = v
			}
		}
		sum := 0.0
		for _, v := range pi {
			sum += v
		}
		for j := range pi {
			pi[j] /= sum
		}
		if diff < 1e-14 {
			break
		}
	}
	return pi
}

// sharedCapChain is the exact chain (TestPoolCapRuleAgainstExactChain):
// the mean prefill population and the rate served.
func sharedCapChain(lambda, mu, delta float64, C, Q int) (meanP, rate float64) {
	type st struct{ p, d, q int }
	idx := map[st]int{}
	var states []st
	for p := 0; p <= C; p++ {
		for d := 0; p+d <= C; d++ {
			top := 0
			if p+d == C {
				top = Q
			}
			for k := 0; k <= top; k++ {
				idx[st{p, d, k}] = len(states)
				states = append(states, st{p, d, k})
			}
		}
	}
	pi := chainStationary(len(states), func(i int) [][2]float64 {
		s := states[i]
		var r [][2]float64
		add := func(to st, rate float64) { r = append(r, [2]float64{float64(idx[to]), rate}) }
		switch {
		case s.p+s.d < C:
			add(st{s.p + 1, s.d, 0}, lambda)
		case s.q < Q:
			add(st{s.p, s.d, s.q + 1}, lambda)
		}
		if s.p > 0 {
			add(st{s.p - 1, s.d + 1, s.q}, mu)
		}
		if s.d > 0 {
			if s.q > 0 { // the freed slot sends the client's next request
				add(st{s.p + 1, s.d - 1, s.q - 1}, float64(s.d)*delta)
			} else {
				add(st{s.p, s.d - 1, 0}, float64(s.d)*delta)
			}
		}
		return r
	})
	for i, s := range states {
		meanP += pi[i] * float64(s.p)
		if s.p > 0 {
			rate += pi[i] * mu
		}
	}
	return meanP, rate
}

// cappedMM1 is the rule's prefill pool: an exponential server whose
// requests hold one of K slots until their prefill ends, arrivals beyond
// them waiting in the client's queue (at most Q).
func cappedMM1(lambda, mu float64, K, Q int) (meanP, rate float64) {
	n := K + 1 + Q // p = 0…K, then p = K with q = 1…Q
	pi := chainStationary(n, func(i int) [][2]float64 {
		var r [][2]float64
		if i < n-1 {
			r = append(r, [2]float64{float64(i + 1), lambda})
		}
		if i > 0 {
			r = append(r, [2]float64{float64(i - 1), mu})
		}
		return r
	})
	for i, v := range pi {
		meanP += v * float64(min(i, K))
		if i > 0 {
			rate += v * mu
		}
	}
	return meanP, rate
}
