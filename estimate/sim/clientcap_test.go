package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gammaUnit draws gamma(a, 1): mean a and variance a (the moments of the
// gamma distribution of shape a, scale 1).
func TestGammaUnitMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 400_000
	for _, a := range []float64{0.25, 0.5, 2, 7} {
		var sum, sq float64
		for range n {
			x := gammaUnit(rng, a)
			if !(x > 0) {
				t.Fatalf("shape %g: draw %g, want > 0", a, x)
			}
			sum += x
			sq += x * x
		}
		mean := sum / n
		v := sq/n - mean*mean
		// the standard error of the mean is √(a/n): 0.16% of a at a = 0.25
		if math.Abs(mean-a)/a > 0.01 || math.Abs(v-a)/a > 0.04 {
			t.Errorf("shape %g: mean %.4f variance %.4f, want %g and %g", a, mean, v, a, a)
		}
	}
}

// The open loop's inter-arrival times: mean 1/rate whatever the
// burstiness B, squared coefficient of variation 1/B (gamma of shape B,
// scale 1/(rate·B): variance B·(1/(rate·B))² = 1/(B·rate²)).
func TestInterArrivalGamma(t *testing.T) {
	const rate, n = 40.0, 300_000
	for _, b := range []float64{0, 0.5, 1, 2} {
		s := newSimulator(Config{Step: constStep(0.01), ArrivalRatePerS: rate, Burstiness: b, Requests: 1, Seed: 3})
		var sum, sq float64
		for range n {
			x := s.interArrival()
			sum += x
			sq += x * x
		}
		mean := sum / n
		cv2 := (sq/n - mean*mean) / (mean * mean)
		wantCV2 := 1.0
		if b > 0 {
			wantCV2 = 1 / b
		}
		if math.Abs(mean*rate-1) > 0.01 || math.Abs(cv2-wantCV2)/wantCV2 > 0.04 {
			t.Errorf("B=%g: mean gap %.5f s (want %.5f), CV² %.3f (want %.3f)", b, mean, 1/rate, cv2, wantCV2)
		}
	}
}

// Burstiness 1 is the Poisson path, bit for bit (the same draws from the
// same generator); another burstiness changes the run.
func TestBurstinessOneIsPoisson(t *testing.T) {
	for _, fe := range []Frontend{{}, {RequestS: 0.002, TokenS: 1e-4}} {
		cfg := Config{Step: constStep(0.01), DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 2048, InputTokens: 300, OutputTokens: 30,
			ArrivalRatePerS: 80, Requests: 2000, Warmup: 100, Seed: 5, Spread: UniformSpread(0.3), Frontend: fe}
		poisson := Run(cfg)
		cfg.Burstiness = 1
		if got := Run(cfg); got != poisson {
			t.Fatalf("burstiness 1:\n%+v\nPoisson:\n%+v", got, poisson)
		}
		cfg.Burstiness = 0.5
		if got := Run(cfg); got.TTFT == poisson.TTFT {
			t.Fatalf("burstiness 0.5 gave the Poisson TTFT %+v", got.TTFT)
		}
	}
}

// Burstier arrivals queue longer. One server of fixed service time S
// (max_num_seqs 1, one output token, one chunk): GI/D/1, whose mean wait
// Kingman's formula gives as ρ/(1−ρ) · (ca² + cs²)/2 · S with cs² = 0
// and ca² = 1/B (exact for Poisson, B = 1: Pollaczek–Khinchine; an
// approximation otherwise, exact in heavy traffic). At ρ = 0.9 the
// simulated waits stay within 8% of it (4%, 2%, 4% at seed 1) for B = 0.5 and 2.
func TestGammaArrivalsKingman(t *testing.T) {
	const S, rho = 0.01, 0.9
	var waits []float64
	for _, b := range []float64{0.5, 1, 2} {
		res := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 1 << 20,
			InputTokens: 100, OutputTokens: 1, ArrivalRatePerS: rho / S, Burstiness: b, Requests: 400_000, Warmup: 5000, Seed: 1})
		wait := res.TTFT.Mean - S
		kingman := rho / (1 - rho) * (1 / b) / 2 * S
		if math.Abs(wait-kingman)/kingman > 0.08 {
			t.Errorf("B=%g: mean wait %.5f s, Kingman %.5f s", b, wait, kingman)
		}
		t.Logf("B=%g: mean wait %.5f s, Kingman %.5f s", b, wait, kingman)
		waits = append(waits, wait)
	}
	if !(waits[0] > waits[1] && waits[1] > waits[2]) {
		t.Errorf("waits %v s for B = 0.5, 1, 2: want them decreasing", waits)
	}
}

// A cap of one request in flight at a rate far above what the server
// serves is a closed loop of one session with no think time: every
// request runs alone, one prefill step (the first token) and nine decode
// steps of 10 ms, so TTFT = 10 ms and end-to-end 100 ms, as measured by
// the clients from the send, whatever the request waited in the client's
// queue (up to 49 × 100 ms here: every request arrives in the first
// 50 ms). Uncapped, the same arrivals queue in the engine.
func TestClientCapOneIsClosedLoopOfOne(t *testing.T) {
	const S = 0.01
	base := Config{Step: constStep(S), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1000,
		InputTokens: 100, OutputTokens: 10, Pool: 50, Seed: 2}
	closed := base
	closed.Sessions = 1
	capped := base
	capped.ArrivalRatePerS, capped.ClientCap = 1000, 1
	capped.MaxWaiting = 5 // the client's queue (up to 49) is not the server's
	c, o := Run(closed), Run(capped)
	for _, x := range []struct {
		name      string
		got, want Percentiles
		hand      float64
	}{{"TTFT", o.TTFT, c.TTFT, S}, {"TPOT", o.TPOT, c.TPOT, S}, {"E2E", o.E2E, c.E2E, 10 * S}} {
		for _, v := range []float64{x.got.Mean, x.got.P50, x.got.P99, x.want.Mean, x.want.P99} {
			if math.Abs(v-x.hand) > 1e-9 {
				t.Errorf("%s capped %+v closed %+v, want %g s", x.name, x.got, x.want, x.hand)
				break
			}
		}
	}
	if o.Requests != 50 || o.MeanRunning > 1+1e-9 || o.Overloaded {
		t.Errorf("capped run: %d requests, %.3f running on average, overloaded %v; want 50, at most 1, not overloaded", o.Requests, o.MeanRunning, o.Overloaded)
	}
	// 500 tokens over 50 × 100 ms (and the first arrival's gap, ~1 ms)
	if math.Abs(o.OutputTokPerS-100)/100 > 0.01 || math.Abs(c.OutputTokPerS-100)/100 > 0.01 {
		t.Errorf("output %.2f tok/s capped, %.2f closed; want 100", o.OutputTokPerS, c.OutputTokPerS)
	}
	// Uncapped, the 50 arrivals of the first 50 ms share the engine's
	// batch: far more than one request's 100 tok/s.
	// (and queue in the server: past MaxWaiting, overloaded).
	uncapped := capped
	uncapped.ClientCap = 0
	if u := Run(uncapped); !u.Overloaded {
		t.Errorf("uncapped run with 5 waiting at most: not overloaded")
	}
	uncapped.MaxWaiting = 0
	if u := Run(uncapped); !(u.OutputTokPerS > 200) {
		t.Errorf("uncapped output %.1f tok/s: the arrivals should batch", u.OutputTokPerS)
	}
}

// A cap the arrivals never reach changes nothing: the run's peak of
// requests in flight P, as a cap, leaves it bit for bit the same (a
// request that found P in flight would have made P+1); P−1 binds.
func TestClientCapAboveConcurrencyChangesNothing(t *testing.T) {
	for _, dp := range []int{1, 3} {
		cfg := Config{Step: constStep(0.02), DP: dp, MaxNumSeqs: 4, MaxNumBatchedTokens: 4096,
			InputTokens: 500, OutputTokens: 40, ArrivalRatePerS: 30 * float64(dp), Pool: 600, Seed: 9,
			Spread: UniformSpread(0.4), Frontend: Frontend{RequestS: 0.001, TokenS: 5e-5}, Independent: dp > 1}
		plain := Run(cfg)
		cfg.ClientCap = math.MaxInt32 // tracks the peak, never binds
		s := newSimulator(cfg)
		s.run()
		if got := s.result(); got != plain {
			t.Fatalf("DP %d: an unreachable cap changed the run", dp)
		}
		peak := s.peakInFlight
		if peak < 2 {
			t.Fatalf("DP %d: peak %d in flight; the test needs a queue", dp, peak)
		}
		cfg.ClientCap = peak
		if got := Run(cfg); got != plain {
			t.Errorf("DP %d: cap %d (the peak) changed the run:\n%+v\n%+v", dp, peak, got, plain)
		}
		cfg.ClientCap = peak - 1
		if got := Run(cfg); got == plain || !(got.TTFT.P99 <= plain.TTFT.P99) {
			t.Errorf("DP %d: cap %d below the peak: TTFT P99 %.4f s, uncapped %.4f s; want a different run, no slower to the first token",
				dp, peak-1, got.TTFT.P99, plain.TTFT.P99)
		}
	}
}

// RunModel's reductions share a cap like a request pool: the ceil of a
// replica's share.
func TestPerReplicaSharesClientCap(t *testing.T) {
	for _, c := range []struct{ cap, r, want int }{{10, 4, 3}, {8, 4, 2}, {1, 4, 1}, {0, 4, 0}, {5, 1, 5}} {
		got, _ := perReplica(Config{ArrivalRatePerS: 8, ClientCap: c.cap, Pool: 100}, c.r)
		if got.ClientCap != c.want {
			t.Errorf("cap %d over %d replicas: %d, want %d", c.cap, c.r, got.ClientCap, c.want)
		}
	}
}
