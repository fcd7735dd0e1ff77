package slo

import "math"

// Score is the one ranking of deployments by their SLO verdicts and
// throughput that `vlaunch plan` (plan.Score.Better) and check's layout
// search for `parallelism: auto` (estimate/search) both take, so the two
// commands never order the same candidates differently. It orders
// lexicographically: fewer SLOs failing, then fewer whose point
// prediction misses its target (Missing), then more passing (the rest
// are uncertain), then the smaller total shortfall of the SLOs that do
// not pass (the candidate closest to meeting them), then more output
// tokens/s per GPU, then fewer tuned settings. Fails come first because a
// fail is certain and an uncertain verdict is not: ranked by passes
// alone, TP 4 · PP 3 × 6 replicas (throughput and TPOT failing, two
// passes) outranked the spec's own DP 72 with EP on (throughput passing,
// three uncertain, no fail) on newuser40's DeepSeek-V4-Pro on 72 GB200
// (planfix40); the layout search ranked by passes alone until pdfix41.
// Missing comes before passes because an uncertain verdict says only that
// the target lies inside the prediction's band, on whichever side of the
// prediction: ranked by passes, TP 8 × 2 replicas of DeepSeek-V4-Flash on
// 16 B200 (two passes; throughput 22,943 of 30,000 tokens/s and TPOT 44.5
// of 40 ms, both uncertain) outranked the spec's own DP 16 with EP on,
// whose four uncertain predictions all meet their targets (47,758 tokens/s,
// TPOT 24.6 ms) and which was not even listed (qa43 F3).
type Score struct {
	Fail, Pass, Uncertain int
	// Missing counts the SLOs that do not pass and whose point prediction
	// misses its target (Margin < 0, no usable prediction included):
	// every fail, and the uncertain verdicts on the wrong side of their
	// target.
	Missing int
	// Shortfall is Σ −Margin over the SLOs that do not pass (≥ 0).
	Shortfall float64
	// PerGPU is output tokens/s per GPU at the workload's load (the
	// serving simulation's).
	PerGPU float64
	// Tuned counts the engine settings moved off their defaults (a named
	// backend, DBO, scheduler limits): between equal figures the simpler
	// configuration ranks first.
	Tuned int
}

// Margin is how far a prediction is from its target on a log scale:
// positive when the SLO holds with room to spare, negative when it misses
// (−0.69 is a factor of two short), so throughput (higher is better) and
// latency targets compare alike; −Inf for no usable prediction.
func Margin(target, predicted float64, higherIsBetter bool) float64 {
	if target <= 0 || predicted <= 0 || math.IsInf(predicted, 0) || math.IsNaN(predicted) {
		return math.Inf(-1)
	}
	m := math.Log(predicted / target)
	if !higherIsBetter {
		m = -m
	}
	return m
}

// ScoreOf scores check's verdicts vs (a throughput verdict's unit is
// tokens/s, higher is better; the rest are latencies) with perGPU output
// tokens/s per GPU and no tuned setting.
func ScoreOf(vs []Verdict, perGPU float64) Score {
	s := Score{PerGPU: perGPU}
	for _, v := range vs {
		s.Add(v.Verdict, Margin(v.Target, v.Predicted, v.Unit == "tokens/s"))
	}
	return s
}

// Add counts one SLO's verdict (pass, uncertain, anything else a fail)
// with its margin (Margin). Plan's scores (plan.scoreOf) count with it
// too, so the two rankings count alike.
func (s *Score) Add(verdict string, margin float64) {
	switch verdict {
	case VerdictPass:
		s.Pass++
		return
	case VerdictUncertain:
		s.Uncertain++
		if margin < 0 {
			s.Missing++
		}
	default:
		s.Fail++
		s.Missing++
	}
	s.Shortfall += math.Max(0, -margin)
}

// shortfallStep: shortfalls are compared in steps of this size (≈1% on a
// log scale), so a throughput tie-break is not decided by noise in the
// simulation's percentiles, and the order stays transitive.
const shortfallStep = 0.01

func (a Score) steps() float64 { return math.Round(a.Shortfall / shortfallStep) }

// Better reports whether a ranks above b.
func (a Score) Better(b Score) bool {
	switch {
	case a.Fail != b.Fail:
		return a.Fail < b.Fail
	case a.Missing != b.Missing:
		return a.Missing < b.Missing
	case a.Pass != b.Pass:
		return a.Pass > b.Pass
	case a.Uncertain != b.Uncertain:
		return a.Uncertain > b.Uncertain
	case a.steps() != b.steps():
		return a.steps() < b.steps()
	case a.PerGPU != b.PerGPU:
		return a.PerGPU > b.PerGPU
	}
	return a.Tuned < b.Tuned
}
