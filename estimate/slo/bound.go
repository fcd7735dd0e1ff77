package slo

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Bound is the best Evaluate can say of a deployment, worked out from the
// step model alone, without the serving simulation: a search ranks many
// layouts by it and simulates only those that could still win.
type Bound struct {
	// DecodeTokPerS is Evaluate's steady-decode output tokens/s
	// (Performance.Decode.Point) — the same figure for a closed loop,
	// which fixes the concurrency; for an open loop or a burst, whose
	// concurrency comes from the simulation, +Inf (no bound is claimed).
	DecodeTokPerS float64
	// Passing is the most SLOs Evaluate can judge `pass`: each verdict is
	// judged on the side of its prediction no simulation can beat.
	Passing int
	// Total is the number of SLOs.
	Total int
	// Failing is the fewest SLOs Evaluate can judge `fail`: those whose
	// optimistic prediction fails with its band too (a verdict is monotone
	// in its prediction, so the simulation's fails as well).
	Failing int
	// Missing is the fewest SLOs whose prediction Evaluate can put short
	// of its target (Score.Missing): those whose optimistic prediction
	// misses it already.
	Missing int
	// Shortfall is the least total shortfall (slo.Score) of the SLOs that
	// do not pass: their optimistic predictions' −Margin.
	Shortfall float64
}

// Score is the bound as a slo.Score with perGPU output tokens/s per GPU:
// no Evaluate of the deployment scores better (fewer fails, at equal
// fails fewer point predictions missing, then more passes, at equal
// verdicts a smaller shortfall; perGPU being a bound of the simulation's
// throughput).
func (b Bound) Score(perGPU float64) Score {
	return Score{Fail: b.Failing, Missing: b.Missing, Pass: b.Passing, Uncertain: b.Total - b.Passing - b.Failing, Shortfall: b.Shortfall, PerGPU: perGPU}
}

// Optimistic is the Bound of a deployment whose memory half is m (the KV
// Evaluate works with: none when not even one sequence fits, and every SLO
// then fails; a GPU without performance figures has no SLO verdicts, as
// in Evaluate). Each SLO's prediction is
// replaced by one the simulation can only make worse, and judged with the
// same band (a verdict is monotone in its prediction):
//
//   - throughput: steady decoding of every session (the simulation adds
//     the prefills of new requests, which share steps) — or, for an open
//     loop, no bound;
//   - TPOT: one sequence alone at the shortest context it decodes at (the
//     prompt): a step that carries more work is not shorter;
//   - TTFT: the prompt on an idle system (waiting and shared steps only
//     add to it).
func Optimistic(in *input.Input, m *memory.Report) Bound {
	if !modelled(in) {
		return Bound{}
	}
	b := Bound{DecodeTokPerS: math.Inf(1)}
	sm := perf.NewStepModel(perf.SetupFromInput(in))
	if closedLoop(in) {
		steady, _ := sm.DecodeAt(max(1, in.Workload.Concurrency), in.MeanContext())
		b.DecodeTokPerS = steady.OutputTokPerS
	}
	ok := kvOf(m) > 0
	if t := in.SLO.ThroughputTokensPerS; t > 0 {
		b.count(in, Verdict{Target: t, Predicted: bestThroughput(in, sm)}, ThroughputRegime(in), true, ok)
	}
	switch {
	case in.SLO.TPOTMs > 0 && OneOutputToken(in) && ok:
		b.Total++
		b.Passing++ // met trivially, as check judges it (oneTokenTPOT)
	case in.SLO.TPOTMs > 0:
		b.count(in, Verdict{Target: in.SLO.TPOTMs / 1e3, Predicted: bestTPOT(in, sm)}, TPOTRegime(in), false, ok)
	}
	idle := map[int]float64{}
	for _, t := range in.SLO.TTFT {
		if _, seen := idle[t.InputTokens]; !seen {
			idle[t.InputTokens] = bestTTFT(in, sm, t.InputTokens)
		}
		for _, q := range []struct {
			name string
			v    *float64
		}{{"p50", t.P50S}, {"p95", t.P95S}, {"p99", t.P99S}} {
			if q.v != nil {
				b.count(in, Verdict{Target: *q.v, Predicted: idle[t.InputTokens]}, ttftRegime(q.name), false, ok)
			}
		}
	}
	return b
}

// count judges v (an optimistic prediction against its target) as
// Evaluate's verdicts are judged, and counts it.
func (b *Bound) count(in *input.Input, v Verdict, r band.Regime, higher, ok bool) {
	b.Total++
	if math.IsInf(v.Predicted, 1) {
		b.Passing++ // no bound claimed: it may pass
		return
	}
	judge(&v, in, r, higher, ok)
	switch v.Verdict {
	case VerdictPass:
		b.Passing++
		return
	case VerdictFail:
		b.Failing++
	}
	m := Margin(v.Target, v.Predicted, higher)
	if m < 0 || v.Verdict == VerdictFail {
		b.Missing++ // the simulation's prediction is no better: it misses too
	}
	b.Shortfall += math.Max(0, -m)
}

// closedLoop reports whether the workload is a closed loop (a fixed number
// of sessions), whose concurrency the spec fixes.
func closedLoop(in *input.Input) bool {
	return in.Workload.ArrivalRatePerS <= 0 && in.Workload.BurstRequests <= 0
}

// bestThroughput is the throughput no simulation of the workload beats:
// steady decoding of every session of a closed loop (the simulation adds
// the prefills of new requests, which share steps); +Inf for an open loop
// or a burst, whose concurrency only the simulation finds.
func bestThroughput(in *input.Input, sm *perf.StepModel) float64 {
	if !closedLoop(in) {
		return math.Inf(1)
	}
	steady, _ := sm.DecodeAt(max(1, in.Workload.Concurrency), in.MeanContext())
	return throughputOf(in, steady, in.SLO.ThroughputCounts == "total")
}

// BestTPOT is the TPOT no simulation of in beats (plan's bounds use it
// too): bestTPOT.
func BestTPOT(in *input.Input, sm *perf.StepModel) float64 { return bestTPOT(in, sm) }

// bestTPOT is the TPOT no simulation beats: at the shortest context a
// sequence decodes at (the prompt), the faster of one sequence alone and
// one on every DP rank of every replica — where the release runs a
// lock-step step with idle ranks without CUDA graphs
// (vllm.Release.IdleDPRanksSlow), a lone sequence's step is the slower.
func bestTPOT(in *input.Input, sm *perf.StepModel) float64 {
	ctx := float64(max(1, in.Workload.InputTokens))
	one, _ := sm.DecodeAt(1, ctx)
	full, _ := sm.DecodeAt(max(1, in.Layout.DP)*max(1, in.Layout.ReplicaCount()), ctx)
	return min(one.TPOTS, full.TPOTS)
}

// bestTTFT is the TTFT no simulation beats at n input tokens: at most the
// prompt on an idle system (waiting and shared steps only add to it),
// bounded from below cheaply (perf.StepModel.PrefillFloor).
func bestTTFT(in *input.Input, sm *perf.StepModel, n int) float64 {
	return sm.PrefillFloor(computedPrompt(in, n), max(1, in.MaxNumBatchedTokens))
}

// HeldDecodeTokPerS is the steady decode output tokens/s of a closed loop
// at the sessions the KV cache m holds at once: steady, Evaluate's figure
// at every session (Performance.Decode.Point; Bound.DecodeTokPerS), when
// it holds them all or the loop is open; otherwise the decode of as many
// sequences of the mean context as fit on every DP rank (EST103: vLLM
// queues the rest, so the decode at every session is one it never runs;
// plan bounds such a candidate the same way). The layout search ranks by
// it: the same figure for a ranking run and check's run, where a short
// run's simulated output tokens/s carries its warm-up (TP 1 · DP 8 of
// Llama-3.1-8B at 256 sessions: 1,722 per GPU in a 500-request run,
// 2,753 in check's).
func HeldDecodeTokPerS(in *input.Input, m *memory.Report, steady float64) float64 {
	ctx := in.MeanContext()
	if !closedLoop(in) || m == nil || m.Capacity.Fits || ctx <= 0 || m.KVTokensPerRank <= 0 || !modelled(in) {
		return steady
	}
	ranks := max(1, in.Layout.DP*in.Layout.ReplicaCount())
	held := min(max(1, in.Workload.Concurrency), max(1, int(float64(m.KVTokensPerRank)/ctx))*ranks)
	sm := perf.NewStepModel(perf.SetupFromInput(in))
	d, _ := sm.DecodeAt(held, ctx)
	return min(steady, d.OutputTokPerS)
}
