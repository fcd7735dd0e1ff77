package pd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// propertyBases are the deployments the simulation's properties are
// checked on: dense and MoE models, GQA, MLA and sliding-window attention,
// TP and wide-EP pools, Hopper and Blackwell GPUs.
var propertyBases = []pdCase{
	{name: "llama70b-h100", model: "llama-3.1-70b", gpu: "h100-sxm", gpn: 8, pre: poolCase{inst: 2, tp: 4}, dec: poolCase{inst: 1, tp: 8}},
	{name: "qwen3-30b-h100", model: "qwen3-30b-a3b", gpu: "h100-sxm", gpn: 8, pre: poolCase{inst: 2, tp: 1}, dec: poolCase{inst: 1, tp: 2}},
	{name: "gptoss120b-h200", model: "gpt-oss-120b", gpu: "h200", gpn: 8, pre: poolCase{inst: 1, tp: 4}, dec: poolCase{inst: 1, tp: 4}},
	{name: "llama8b-b200", model: "llama-3.1-8b", gpu: "b200", gpn: 8, pre: poolCase{inst: 1, tp: 1}, dec: poolCase{inst: 2, tp: 1}},
	{name: "qwen3-235b-fp8-b200-ep", model: "qwen3-235b-a22b-fp8", gpu: "b200", gpn: 8, pre: poolCase{inst: 2, tp: 4}, dec: poolCase{inst: 1, tp: 1, dp: 8, ep: true}},
	{name: "deepseekv3-h200-wideep", model: "deepseek-v3", gpu: "h200", gpn: 8, pre: poolCase{inst: 1, tp: 1, dp: 16, ep: true}, dec: poolCase{inst: 1, tp: 1, dp: 16, ep: true}},
}

// propertyCases draws each base's load and request shape at random, twice
// (a fixed seed, so a failure reproduces; thirty other seeds passed when
// the tolerances below were set): prompts of 512–8,192 tokens, answers of
// 32–512, a closed loop of 1–64 sessions or Poisson arrivals, 100–400
// Gbit/s NICs.
func propertyCases() []pdCase {
	rng := rand.New(rand.NewPCG(24, 2026))
	var out []pdCase
	for i := range 2 * len(propertyBases) {
		b := propertyBases[i%len(propertyBases)]
		c := b
		c.in = 512 + rng.IntN(7681)
		c.out = 32 + rng.IntN(481)
		if rng.IntN(2) == 0 {
			c.conc = 1 + rng.IntN(64)
		} else {
			c.rate = 0.5 + 3*rng.Float64()
		}
		c.gbit, c.nics, c.latUs = []float64{100, 200, 400}[rng.IntN(3)], 8, 2+8*rng.Float64()
		c.version = "0.11.0"
		c.maxLen = 16384
		out = append(out, c)
	}
	return out
}

// evaluate runs Evaluate on a case's pools after edit (nil: none).
func evaluate(t *testing.T, c pdCase, edit func(pre, dec *input.Input)) Scenario {
	t.Helper()
	pre, dec := c.inputs(t)
	if edit != nil {
		edit(&pre, &dec)
	}
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	sc := r.Scenario(c.in)
	if sc == nil {
		t.Fatalf("%s: no scenario (KV per rank: prefill %d, decode %d)", c.name, r.Prefill.KVTokensPerRank, r.Decode.KVTokensPerRank)
	}
	return *sc
}

// ideal makes the KV hand-off free: infinite NIC bandwidth, zero latency
// (no router hops), and no fabric kind, so no measured cost per NIXL
// descriptor applies (posting is host time, not bandwidth), on both pools.
func ideal(pre, dec *input.Input) {
	for _, in := range []*input.Input{pre, dec} {
		in.Network.InterGbitPerSPerNIC, in.Network.InterLatencyUs, in.Network.InterKind = math.Inf(1), 0, ""
	}
}

// waveWait is the longest a lone request waits on pool p before its
// prefill: none, unless its ranks step in vLLM's DP waves (sim.DPWaveFor:
// a MoE pool with DP > 1), where a request that comes while the ranks run
// a wave's dummy steps waits for the one in flight — a one-token step on
// every rank (sim's dummyStep).
func waveWait(p *Pool) float64 {
	u, _ := unitOf(p)
	if !sim.DPWaveFor(true, p.sm.S.Model.IsMoE(), u.dp) {
		return 0
	}
	loads := make([]perf.RankLoad, u.dp)
	for i := range loads {
		loads[i] = perf.RankLoad{DecodeSeqs: 1, DecodeCtx: 1}
	}
	return u.sm.Step(loads).TotalS
}

// With infinite bandwidth and zero hops, a request's TTFT is the prefill
// pool's (its API server, queue and prompt steps) and the decode pool's
// (admission: a slot, then a step boundary, and while others decode the
// step at whose end the engine notices the finished read; then the step
// that emits the first token), nothing else: the transfer and router parts are zero and
// the mean is their sum to the last rounding (1e-12 relative). With one
// session (nothing queues but a DP wave's dummy step: waveWait), the
// prefill part is the prompt's steps on an idle prefill rank (perf's
// PrefillIdle, 1e-9), the admission waits at most
// one decode step (the step boundary; the KV is already there, and no other
// session decodes to delay its notice) and the
// first decode step is one step of a batch of one.
func TestPropertyIdealHandOffTTFT(t *testing.T) {
	for _, c := range propertyCases() {
		for _, single := range []bool{false, true} {
			c := c
			if single {
				c.conc, c.rate = 1, 0
			}
			s := evaluate(t, c, ideal)
			p := s.TTFTParts
			if s.Unbounded {
				t.Logf("%s: unbounded at its load (no TTFT); skipped", c.name)
				continue
			}
			if p.TransferS != 0 || p.RouterS != 0 {
				t.Errorf("%s: transfer %g s, router %g s with an ideal hand-off, want 0", c.name, p.TransferS, p.RouterS)
			}
			want := p.FrontendS + p.PrefillQueueS + p.PrefillS + p.DecodeAdmitS + p.FirstDecodeS
			if math.Abs(s.TTFT.Mean-want) > 1e-12*want {
				t.Errorf("%s: TTFT mean %.9f s, want P queue + P steps + D admission + D step (+ API servers) = %.9f", c.name, s.TTFT.Mean, want)
			}
			if !single {
				continue
			}
			pre, dec := c.inputs(t)
			ideal(&pre, &dec)
			pp, dp := newPool("prefill", &pre), newPool("decode", &dec)
			idle := pp.sm.PrefillIdle(c.in, pre.MaxNumBatchedTokens).TTFTS
			maxQueue := waveWait(&pp)
			if p.PrefillQueueS > maxQueue+1e-9 || math.Abs(p.PrefillS-idle) > 1e-9*idle {
				t.Errorf("%s, one session: prefill queue %.6f s, prefill %.6f s; want at most %.6f (a DP wave's dummy step) and the idle prompt's %.6f s",
					c.name, p.PrefillQueueS, p.PrefillS, maxQueue, idle)
			}
			// One admitted request on one rank of the decode instance (its
			// other DP ranks step with it, empty).
			u, _ := unitOf(&dp)
			loads := make([]perf.RankLoad, u.dp)
			loads[0] = admitted(perf.RankLoad{PrefillTokens: float64(c.in), PrefillSeqs: 1})
			step := u.sm.Step(loads).TotalS
			if p.DecodeAdmitS > step*(1+1e-9) {
				t.Errorf("%s, one session: decode admission %.6f s, more than one step boundary (%.6f s)", c.name, p.DecodeAdmitS, step)
			}
			if math.Abs(p.FirstDecodeS-step) > 1e-9*step {
				t.Errorf("%s, one session: first decode step %.6f s, want one admitted token's step %.6f s", c.name, p.FirstDecodeS, step)
			}
		}
	}
}

// TPOT has no prefill term. Precisely: (1) under Poisson arrivals at a
// fixed rate the decode pool's TPOT does not depend on the prefill pool at
// all — another prefill layout, instance count or token budget leaves every
// TPOT percentile unchanged, to the bit; (2) a lone session's TPOT is pure
// decoding of its own sequence: between the decode step of one sequence at
// the prompt's context (n + 1 cached tokens) and at its last (n + out), so a
// longer prompt raises it only by what the longer KV costs attention, never
// by the prompt's compute.
func TestPropertyTPOTHasNoPrefillTerm(t *testing.T) {
	for _, c := range propertyCases() {
		c.conc, c.rate = 0, 0.2
		base := evaluate(t, c, nil)
		for _, v := range []poolCase{{inst: c.pre.inst + 1, tp: c.pre.tp, dp: c.pre.dp, ep: c.pre.ep},
			{inst: c.pre.inst, tp: c.pre.tp, dp: c.pre.dp, ep: c.pre.ep, budget: 2048}} {
			o := c
			o.pre = v
			if s := evaluate(t, o, nil); s.TPOT != base.TPOT {
				t.Errorf("%s: prefill pool %+v changes the TPOT at a fixed rate: %+v, was %+v", c.name, v, s.TPOT, base.TPOT)
			}
		}
		c.conc, c.rate = 1, 0
		for _, n := range []int{512, 8192} {
			c.in = n
			s := evaluate(t, c, nil)
			_, dec := c.inputs(t)
			dp := newPool("decode", &dec)
			u, _ := unitOf(&dp)
			step := func(ctx int) float64 {
				loads := make([]perf.RankLoad, u.dp)
				loads[0] = perf.RankLoad{DecodeSeqs: 1, DecodeCtx: float64(ctx)}
				return u.sm.Step(loads).TotalS
			}
			lo, hi := step(n+1), step(n+c.out)
			if s.TPOT.Mean < lo*(1-1e-9) || s.TPOT.Mean > hi*(1+1e-9) {
				t.Errorf("%s, one session, %d-token prompt: TPOT %.6f s outside one sequence's decode step [%.6f, %.6f] s", c.name, n, s.TPOT.Mean, lo, hi)
			}
		}
	}
}

// roundoff is the relative difference an exact quantity may show: the
// same figure summed in another order (1e-12 seen).
const roundoff = 1e-9

// More prefill instances never raise the TTFT p50: each case with one,
// two and three times its prefill instances (open and closed loops as
// drawn), beyond noise (the pools' runs draw their arrivals and think times
// anew when the instances change).
func TestPropertyMorePrefillNeverRaisesTTFT(t *testing.T) {
	for _, c := range propertyCases() {
		prev := math.Inf(1)
		for k := 1; k <= 3; k++ {
			o := c
			o.pre.inst = c.pre.inst * k
			s := evaluate(t, o, nil)
			if s.Unbounded {
				continue // no TTFT: the arrivals outrun a pool; more prefill may bound it
			}
			if s.TTFT.P50 > prev*(1+noise) {
				t.Errorf("%s: %d prefill instances give TTFT p50 %.4f s, fewer gave %.4f s", c.name, o.pre.inst, s.TTFT.P50, prev)
			}
			prev = s.TTFT.P50
		}
	}
}

// noise and saturatedNoise are the relative rises of TTFT the
// monotonicity properties allow: the simulations' sampling noise (their
// arrivals and think times are random, and drawn anew when a pool or the
// network changes). Below saturation more capacity shortens TTFT by what
// it saves; where the prefill pool saturates a closed loop TTFT is flat in
// the bandwidth — the time a faster hand-off saves is spent waiting for
// prefill, the sessions' cycle being sessions / the prefill pool's rate —
// and the runs differ only by noise and by how prompts pack into steps once
// arrival times move (up to 1.1% below saturation and 3.2% of the mean at
// it, seen over twenty-four random draws of the six bases).
const (
	noise          = 0.02
	saturatedNoise = 0.05
	saturated      = 0.85 // prefill utilisation from which a closed loop counts as saturated
)

// More bandwidth never raises the TTFT: NICs of 25, 100, 400 Gbit/s and
// infinite; the transfer part never rises (exactly); below saturation
// TTFT's mean and median never rise beyond noise, at it the mean never
// rises beyond saturatedNoise. The median at saturation and the tail
// (p90, p99) are not held: their shape there depends on how prompts batch
// on the prefill pool, which any change of arrival times reshuffles (±20%
// seen at p90 where the mean moved 0.1%).
func TestPropertyMoreBandwidthNeverRaisesTTFT(t *testing.T) {
	for _, c := range propertyCases() {
		var prev *Scenario
		for _, g := range []float64{25, 100, 400, math.Inf(1)} {
			s := evaluate(t, c, func(pre, dec *input.Input) {
				for _, in := range []*input.Input{pre, dec} {
					in.Network.InterGbitPerSPerNIC = g
				}
			})
			if prev != nil && s.TTFTParts.TransferS > prev.TTFTParts.TransferS*(1+roundoff) {
				t.Errorf("%s: %g Gbit/s NICs transfer in %.6f s, slower NICs in %.6f s", c.name, g, s.TTFTParts.TransferS, prev.TTFTParts.TransferS)
			}
			if prev != nil && !prev.Unbounded && !s.Unbounded {
				qs := map[string][2]float64{"mean": {s.TTFT.Mean, prev.TTFT.Mean}, "p50": {s.TTFT.P50, prev.TTFT.P50}}
				tol := noise
				if max(s.PrefillUtilization, prev.PrefillUtilization) >= saturated {
					qs, tol = map[string][2]float64{"mean": qs["mean"]}, saturatedNoise
				}
				for name, q := range qs {
					if q[0] > q[1]*(1+tol) {
						t.Errorf("%s: %g Gbit/s NICs give TTFT %s %.5f s, slower NICs gave %.5f s (prefill %.0f%% utilised)", c.name, g, name, q[0], q[1], 100*s.PrefillUtilization)
					}
				}
			}
			if prev != nil && !prev.Unbounded && s.Unbounded {
				t.Errorf("%s: %g Gbit/s NICs leave the queue unbounded where slower ones did not", c.name, g)
			}
			prev = &s
		}
	}
}
