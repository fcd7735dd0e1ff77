package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// Bound is the optimistic side of Evaluate, from the pools' step models
// alone (no simulation): the rate matching of the two pools and the NICs
// at the workload's input length, the best TPOT any decode step gives, and
// each input length's TTFT with nothing queued. No simulation of the same
// deployment beats any of these figures; `vlaunch plan` prunes with them.
type Bound struct {
	// Prefill and Decode are the pools (memory, KV, layout), as Evaluate
	// builds them.
	Prefill Pool `json:"prefill"`
	Decode  Pool `json:"decode"`
	// PrefillRatePerS (widened by rateSlack) is the most prompts of the workload's length per
	// second the prefill pool computes: every rank's steps full of prompt
	// tokens (a fractional number of prompts per step, so the simulator's
	// packing of a chunk beside whole prompts cannot beat it).
	PrefillRatePerS float64 `json:"prefill_rate_per_s"`
	// DecodeRatePerS (widened by rateSlack) is the most requests per second the decode pool
	// finishes: steady decoding of the most sequences that can run (at most
	// the sessions, every rank's batch), the best point of the curve.
	DecodeRatePerS float64 `json:"decode_rate_per_s"`
	// TransferRatePerS is the most requests per second the NICs carry
	// (0: no limit, the pools share a node).
	TransferRatePerS float64 `json:"transfer_rate_per_s"`
	// RequestsPerS is the smallest of them and, in an open loop, the
	// arrival rate; Binding names the part that sets it.
	RequestsPerS  float64 `json:"requests_per_s"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	TotalTokPerS  float64 `json:"total_tokens_per_s"`
	Binding       string  `json:"binding"`
	// TPOTS is the best TPOT of a decode step (slo.BestTPOT on the decode
	// pool: its decodes never share a step with a prefill).
	TPOTS float64 `json:"tpot_s"`
	// TTFTS is, per input length (the workload's and every TTFT target's),
	// the prompt alone on the prefill pool plus the router's hops, the KV
	// transfer on idle NICs and the shortest decode step.
	TTFTS map[int]float64 `json:"ttft_s"`
	// TransferS is the workload's prompt's transfer alone on idle links.
	TransferS float64 `json:"transfer_s"`
	// SteadyTPOTS is not a bound but an estimate, to order candidates by:
	// steady decoding of the requests that decode at RequestsPerS (Little's
	// law: rate × output tokens × TPOT, at most every rank's batch).
	SteadyTPOTS float64 `json:"steady_tpot_s"`
	// ttftParts are TTFTS's terms per input length (prefill, router hops,
	// transfer, first decode step), for TTFTBinding.
	ttftParts map[int]TTFTParts
}

// TTFTBinding names what binds the TTFT floor at m input tokens, by the
// rule check binds a simulated P/D TTFT with (ttftBinding: the side whose
// parts sum largest, then its largest part) applied to the floor's parts;
// "" when the bound has no floor at m.
func (b *Bound) TTFTBinding(m int) string {
	p, ok := b.ttftParts[m]
	if !ok {
		return ""
	}
	binding, _ := ttftBinding(p)
	return binding
}

// Bounds is Bound for the deployment Evaluate models (same arguments but
// the options): pools, rate matching and latency floors.
func Bounds(pre, dec *input.Input, sameNode bool, router string) Bound {
	return Combine(PrefillBound(pre), DecodeBound(dec), sameNode, router)
}

// PoolBound is one pool's half of Bound, which depends on that pool alone:
// a search pairs every prefill pool with every decode pool from these.
type PoolBound struct {
	Pool Pool `json:"pool"`
	// RatePerS is the pool's most requests per second (Bound's
	// PrefillRatePerS or DecodeRatePerS).
	RatePerS float64 `json:"rate_per_s"`
	// TPOTS (decode) is slo.BestTPOT; PrefillS (prefill) each input
	// length's prompt alone (perf.StepModel.PrefillFloor).
	TPOTS    float64         `json:"tpot_s,omitempty"`
	PrefillS map[int]float64 `json:"prefill_s,omitempty"`
	// FirstStepS (decode) is the shortest step that can emit a request's
	// first token: one sequence at the shortest context, alone or one on
	// every rank (the faster, as slo.BestTPOT takes them).
	FirstStepS float64 `json:"first_step_s,omitempty"`
}

// PrefillBound is the prefill pool's half of Bound (pre as Evaluate takes
// it: the router's one output token is applied here).
func PrefillBound(pre *input.Input) PoolBound {
	pIn := *pre
	pIn.Workload.OutputTokens = 1
	b := PoolBound{Pool: newPool(spec.RolePrefill, &pIn), PrefillS: map[int]float64{}}
	// The tokens a prompt computes once the workload's cached prefix serves
	// its share (Pool.uncached, prefixRate), as Evaluate's prefill pool
	// runs it; the bound prices them with no prefix to attend over, fewer
	// pairs than the cached prompt's, so it stays a bound.
	n := b.Pool.uncached(max(1, pre.Workload.InputTokens))
	b.RatePerS = prefillRateBound(b.Pool.sm, n, pIn.MaxNumBatchedTokens) * float64(b.Pool.ranks())
	for _, m := range spec.ScenarioInputLengths(pre.Workload, pre.SLO) {
		b.PrefillS[m] = b.Pool.sm.PrefillFloor(b.Pool.uncached(m), max(1, pIn.MaxNumBatchedTokens))
	}
	return b
}

// DecodeBound is the decode pool's half of Bound.
func DecodeBound(dec *input.Input) PoolBound {
	b := PoolBound{Pool: newPool(spec.RoleDecode, dec)}
	n := max(1, dec.Workload.InputTokens)
	b.RatePerS = b.Pool.decodeRateBound(n, outputTokens(dec, n), sessionsOf(dec.Workload))
	b.TPOTS = slo.BestTPOT(dec, b.Pool.sm)
	_, one := b.Pool.sm.DecodeAt(1, 1)
	_, full := b.Pool.sm.DecodeAt(b.Pool.ranks(), 1)
	b.FirstStepS = min(one.TotalS, full.TotalS)
	return b
}

// Combine pairs a prefill pool's bound with a decode pool's: the KV
// hand-off between them (its rate limit and lone transfer time) and the
// smallest rate of the three parts; router is the router kind, whose
// path's hops (PathOf) the TTFT floors include.
func Combine(p, d PoolBound, sameNode bool, router string) Bound {
	pIn, dec := p.Pool.in, d.Pool.in
	b := Bound{Prefill: p.Pool, Decode: d.Pool, PrefillRatePerS: p.RatePerS, DecodeRatePerS: d.RatePerS, TPOTS: d.TPOTS, TTFTS: map[int]float64{}, ttftParts: map[int]TTFTParts{}}
	w := dec.Workload
	n := max(1, w.InputTokens)
	out := outputTokens(dec, n)
	x := newTransfer(pIn, dec, n, sameNode, p.Pool.Nodes, d.Pool.Nodes)
	b.TransferRatePerS, b.TransferS = x.MaxRatePerS, x.AloneS
	b.PrefillRatePerS *= 1 + rateSlack
	b.DecodeRatePerS *= 1 + rateSlack
	b.RequestsPerS, b.Binding = b.DecodeRatePerS, BindDecode
	if b.PrefillRatePerS < b.RequestsPerS {
		b.RequestsPerS, b.Binding = b.PrefillRatePerS, BindPrefill
	}
	if b.TransferRatePerS > 0 && b.TransferRatePerS < b.RequestsPerS {
		b.RequestsPerS, b.Binding = b.TransferRatePerS, BindTransfer
	}
	if w.ArrivalRatePerS > 0 {
		b.RequestsPerS = min(b.RequestsPerS, w.ArrivalRatePerS)
	}
	if p.Pool.KVTokensPerRank <= 0 || d.Pool.KVTokensPerRank <= 0 {
		b.RequestsPerS = 0
	}
	b.OutputTokPerS, b.TotalTokPerS = b.RequestsPerS*float64(out), b.RequestsPerS*float64(n+out)
	b.SteadyTPOTS = d.Pool.steadyTPOT(n, out, b.RequestsPerS, sessionsOf(w))
	_, _, lat := interNode(dec)
	for m, pre := range p.PrefillS {
		t := x
		if m != n {
			t = newTransfer(pIn, dec, m, sameNode, p.Pool.Nodes, d.Pool.Nodes)
		}
		parts := TTFTParts{PrefillS: pre, RouterS: float64(PathOf(router).Hops) * lat, TransferS: t.AloneS, FirstDecodeS: d.FirstStepS}
		b.TTFTS[m], b.ttftParts[m] = parts.PrefillS+parts.RouterS+parts.TransferS+parts.FirstDecodeS, parts
	}
	return b
}

// rateSlack widens the pools' steady rates into bounds of what their
// simulations measure: a simulation's completion rate over its measuring
// window came out above the steady full-step rate by up to 7% (a prefill
// pool of TP 4 × DP 4 on the P/D example's H20s: 1.19 against 1.12
// requests/s), which the step model's uniform full steps do not explain
// (every spread of the load over the ranks steps slower per prompt); the
// bound takes twice that.
const rateSlack = 0.15

// sessionsOf is the closed loop's sessions (0: an open loop or a burst,
// whose running requests only the simulation finds).
func sessionsOf(w spec.Workload) int {
	if w.ArrivalRatePerS > 0 || (w.BurstRequests > 0 && w.Concurrency <= 0) {
		return 0
	}
	return max(1, w.Concurrency)
}

// prefillRateBound is one prefill rank's most prompts of n tokens per
// second: a step of the whole token budget holds budget/n prompts (a
// fraction: the simulator fills what whole prompts leave with a chunk of
// the next), each with the fewest attention pairs (no cached prefix). A
// prompt longer than the budget runs in chunks: each chunk's step is
// charged at the full step's time per token (a step's time is its fixed
// cost plus its tokens', so a partial chunk costs at least its share).
func prefillRateBound(sm *perf.StepModel, n, budget int) float64 {
	n, budget = max(1, n), max(1, budget)
	if n <= budget {
		k := float64(budget) / float64(n)
		fn := float64(n)
		st := sm.StepUniform(perf.RankLoad{PrefillTokens: float64(budget), PrefillSeqs: k, PrefillPairs: k * fn * (fn + 1) / 2})
		return rate(k, st.TotalS)
	}
	chunks := (n + budget - 1) / budget
	stride := max(1, chunks/maxChunkSteps)
	total := 0.0
	for j := 0; j < chunks; j += stride {
		p := j * budget
		c := float64(min(budget, n-p))
		// The stride's other chunks have longer prefixes, so they cost at
		// least this one's (a chunk's step never shrinks as its prefix grows).
		st := sm.StepUniform(perf.RankLoad{PrefillTokens: float64(budget), PrefillSeqs: 1, PrefillPrefix: float64(p), PrefillPairs: float64(budget) * (float64(p) + float64(budget+1)/2)})
		total += st.TotalS * c / float64(budget) * float64(min(stride, chunks-j))
	}
	return rate(1, total)
}

// decodeRateBound is the most requests per second the decode pool
// finishes: the best steady decode (perf.StepModel.DecodeAt at the mean
// context) over the concurrencies that can run — at most the sessions
// (0: no limit) and every rank's batch — each request out tokens.
func (p *Pool) decodeRateBound(n, out, sessions int) float64 {
	if p.KVTokensPerRank <= 0 {
		return 0
	}
	slots := p.decodeBatch(n, out) * p.ranks()
	if sessions > 0 {
		slots = min(slots, sessions)
	}
	ctx := float64(n) + float64(out)/2
	best := 0.0
	for c := 1; ; c = min(2*c, slots) {
		dp, _ := p.sm.DecodeAt(c, ctx)
		best = max(best, dp.OutputTokPerS)
		if c >= slots {
			break
		}
	}
	if math.IsInf(best, 0) || math.IsNaN(best) {
		return 0
	}
	return best / float64(max(1, out))
}

// steadyTPOT is the decode pool's TPOT with the requests that decode at
// rate requests/s running (Little's law, a few fixed-point rounds from one
// sequence up), at most every rank's batch and the sessions.
func (p *Pool) steadyTPOT(n, out int, rate float64, sessions int) float64 {
	if p.KVTokensPerRank <= 0 {
		return 0
	}
	slots := p.decodeBatch(n, out) * p.ranks()
	if sessions > 0 {
		slots = min(slots, sessions)
	}
	ctx := float64(n) + float64(out)/2
	conc := 1 // from below: the least loaded of Little's fixed points
	var dp perf.DecodePoint
	for range 8 {
		dp, _ = p.sm.DecodeAt(conc, ctx)
		next := max(1, min(slots, int(math.Ceil(rate*float64(out)*dp.TPOTS))))
		if next == conc {
			break
		}
		conc = next
	}
	return dp.TPOTS
}
