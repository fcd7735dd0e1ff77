package plan

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
)

// This file is the only one that calls into the estimator: what plan
// asks of it is the memory verdict, a step-model bound and the full
// performance half of `vlaunch check`.

// inputOf is the estimator's view of a resolved candidate.
func inputOf(d *resolve.Deployment) estimate.Input { return estimate.FromResolved(d) }

// memoryOf is the verdict of the memory half of `vlaunch check` (no memory
// error finding), without the notes and alternatives the report adds: the
// estimate and its findings only, for every candidate.
func memoryOf(in *estimate.Input) (fits bool, weightsGiB, kvGiB float64, kvTokens int64) {
	v := memoryVerdictOf(in)
	return v.fits, v.weightsGiB, v.kvGiB, v.kvTokens
}

// memVerdict is memoryOf's verdict with how many of the fullest DP rank's
// sessions its KV cache holds at once at full length.
type memVerdict struct {
	fits                 bool
	weightsGiB, kvGiB    float64
	kvTokens             int64
	atOnce, sessionsRank int // both 0 when every session fits at once
}

// memoryVerdictOf is memoryOf with the sessions held at once. A candidate
// whose sessions do not all fit at once still fits (EST103 is a warning:
// vLLM queues the excess and preempts, memory.shareNoFit): it is ranked
// by its simulated SLO verdicts and throughput, which carry the queueing,
// and the listing says how many sessions run at once.
func memoryVerdictOf(in *estimate.Input) memVerdict {
	m := memory.Estimate(in)
	v := memVerdict{fits: !memory.Findings(in, &m).HasErrors(), weightsGiB: m.PerGPU.WeightsGiB, kvGiB: m.PerGPU.KVCacheGiB, kvTokens: m.KVTokensPerRank}
	if c := m.Capacity; !c.Fits {
		v.atOnce, v.sessionsRank = c.MaxSeqsPerRank, c.SeqsPerRank
	}
	return v
}

// boundOf is what the step model alone says at the workload's load:
// steady decoding of every session (the simulation adds the prefills of
// new requests, which only slow decoding) and each TTFT target's prompt on
// an idle system (queueing only adds to it). It bounds each SLO verdict
// from the optimistic side.
func boundOf(in *estimate.Input, slots []sloSlot, kvTokens int64) (tokPerS, tpot float64, binding string, verdicts []SLOResult, curve []CurvePoint) {
	sm := perf.NewStepModel(perf.SetupFromInput(in))
	w := in.Workload
	ctx := in.MeanContext()
	steady := steadySessions(in, kvTokens, ctx)
	pt, st := sm.DecodeAt(steady, ctx)
	tokPerS, tpot, binding = pt.OutputTokPerS, pt.TPOTS, st.Binding()
	kvSeqs := int(float64(kvTokens) / float64(max(1, w.InputTokens+w.OutputTokens)))
	for _, p := range sm.DecodeCurve(ctx, max(1, in.MaxNumSeqs), kvSeqs) {
		if !p.KVCapped {
			curve = append(curve, CurvePoint{Sessions: p.Concurrency, TPOTS: p.TPOTS, OutputTokPerS: p.OutputTokPerS})
		}
		// A simulation runs fewer sequences than the sessions whenever KV
		// or arrivals leave ranks short, and where the step grows faster
		// than its batch (eager DeepEP steps, long attention) fewer
		// sequences decode faster: the optimistic throughput is the best
		// of the curve up to the sessions, not the point at them.
		if p.Concurrency <= steady {
			tokPerS = max(tokPerS, p.OutputTokPerS)
		}
	}
	idle := map[int]perf.PrefillPoint{}
	for _, s := range slots {
		v := SLOResult{Name: s.name, Unit: s.unit, Target: s.target, HigherIsBetter: s.kind == kindThroughput, Binding: binding}
		switch s.kind {
		case kindThroughput:
			v.Predicted = tokPerS
			if s.total {
				v.Predicted *= float64(w.InputTokens+w.OutputTokens) / float64(max(1, w.OutputTokens))
			}
		case kindTPOT:
			// Steady decode at full load is the ranking's figure; the bound
			// is the best TPOT any step can give (slo.BestTPOT): a
			// simulation's steps between arrivals hold fewer sequences.
			v.Predicted = min(tpot, slo.BestTPOT(in, sm))
		case kindTTFT:
			if _, ok := idle[s.inputTokens]; !ok {
				idle[s.inputTokens] = sm.PrefillIdle(s.inputTokens, max(1, in.MaxNumBatchedTokens))
			}
			v.Predicted, v.Binding = idle[s.inputTokens].TTFTS, idle[s.inputTokens].Binding
		}
		v.Verdict = boundVerdict(in, s, v)
		if s.kind == kindTPOT && slo.OneOutputToken(in) {
			v.Predicted, v.Verdict = 0, verdictPass // nothing between output tokens: check passes it
		}
		verdicts = append(verdicts, v)
	}
	return tokPerS, tpot, binding, verdicts, curve
}

// boundVerdict judges an optimistic prediction v of slot s: pass when it
// meets the target (the simulation may still fall short), fail only when
// its whole accuracy band misses the target too (judged as check judges:
// slo.Judge), uncertain otherwise. The simulated prediction is no better
// than the bound, so a bound that fails with its band fails for certain,
// and one whose band reaches the target may end uncertain: the ranking
// puts fewer fails first (Score), and a bound must not count a fail the
// simulation can turn uncertain, or it would prune that candidate.
func boundVerdict(in *estimate.Input, s sloSlot, v SLOResult) string {
	if v.Margin() >= 0 {
		return verdictPass
	}
	regime := slo.TPOTRegime(in)
	switch s.kind {
	case kindThroughput:
		regime = slo.ThroughputRegime(in)
	case kindTTFT:
		regime = slo.TTFTRegime(s.quantile)
	}
	j := slo.Verdict{Target: v.Target, Predicted: v.Predicted}
	slo.Judge(&j, in, regime, v.HigherIsBetter, true)
	if j.Verdict == verdictFail {
		return verdictFail
	}
	return verdictUncertain
}

// steadySessions is how many sessions decode at once in the bound: the
// workload's, or, when the KV cache does not hold them all (EST103: vLLM
// queues the rest and preempts), the sequences of the mean context it
// holds on every DP rank. Bounding such a candidate at every session
// ranked it above the tunings of its own layout that hold them all (their
// smaller max_num_seqs leaves more KV): it led its group, its simulation
// fell short, and the group's better tunings were never simulated (the
// P/D reference plan's #1, TP 8 × 4 replicas with max_num_seqs 64, was
// lost). Running requests hold their context so far, the mean context on
// average, so the simulation's steady state runs about as many; early on,
// shorter contexts may run more for a while.
func steadySessions(in *estimate.Input, kvTokens int64, ctx float64) int {
	n := max(1, in.Workload.Concurrency)
	if ctx <= 0 || kvTokens <= 0 {
		return n
	}
	ranks := max(1, in.Layout.DP*in.Layout.ReplicaCount())
	return min(n, max(1, int(float64(kvTokens)/ctx))*ranks)
}

// checkOf runs both halves of `vlaunch check` on the candidate: the
// verdicts plan ranks by are the ones check prints after --apply.
func checkOf(in *estimate.Input, seed uint64, requests int) *estimate.Report {
	r := estimate.Check(in)
	r.AddPerformance(in, estimate.PerfOptions{Seed: seed, Requests: requests, NoAdvice: true})
	return &r
}

// resultsOf reads check's verdicts as plan's SLO results, with their
// prediction bands (SLOResult.Band: what the verdict was judged on).
func resultsOf(r *estimate.Report, slots []sloSlot) []SLOResult {
	var out []SLOResult
	for i, v := range r.SLO {
		out = append(out, sloResultOf(v, i < len(slots) && slots[i].kind == kindThroughput))
	}
	return out
}

// sloResultOf is one of check's verdicts as plan's SLO result, its band
// copied (an open side stays open: Low 0, High +Inf); higher says the
// figure must reach its target (throughput).
func sloResultOf(v slo.Verdict, higher bool) SLOResult {
	res := SLOResult{Name: v.Name, Unit: v.Unit, Target: v.Target, Predicted: v.Predicted, Verdict: v.Verdict, Binding: v.Binding, HigherIsBetter: higher}
	if v.Band != nil {
		b := *v.Band
		res.Band = &b
	}
	return res
}

// simulatedLoad is the simulated throughput and TPOT at the workload's
// own input length.
func simulatedLoad(r *estimate.Report) (tokPerS, tpot float64) {
	if r.Performance == nil || len(r.Performance.Simulations) == 0 {
		return 0, math.Inf(1)
	}
	res := r.Performance.Simulations[0].Result
	return res.OutputTokPerS, res.TPOT.Mean
}

// CheckReport is `vlaunch check`'s whole report (advice included) for
// candidate s on the spec's deployment d: what the HTML page shows of the
// best candidate.
func CheckReport(d *resolve.Deployment, s Settings, seed uint64) (*estimate.Report, error) {
	dep, err := Resolve(d, s)
	if err != nil {
		return nil, err
	}
	if dep.PD != nil {
		r := estimate.CheckPD(dep, estimate.PerfOptions{Seed: seed})
		dep.Spec.Locate(r.Findings)
		return &r, nil
	}
	in := inputOf(dep)
	r := estimate.Check(&in)
	r.AddPerformance(&in, estimate.PerfOptions{Seed: seed})
	if dep.Spec != nil {
		dep.Spec.Locate(r.Findings)
	}
	return &r, nil
}
