package plan

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/slo"
)

// SLOResult is one SLO's verdict for one candidate, as `check` gives it.
type SLOResult struct {
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Target    float64 `json:"target"`
	Predicted float64 `json:"predicted"`
	// Verdict is pass, fail or uncertain (when a prediction band straddles
	// the target).
	Verdict string `json:"verdict"`
	Binding string `json:"binding"`
	// HigherIsBetter is true for throughput, false for latencies.
	HigherIsBetter bool `json:"higher_is_better"`
	// Band is the prediction band around Predicted when the estimator
	// gives one (#10); resultsOf copies it.
	Band *Band `json:"band,omitempty"`
}

// Band is a prediction interval, in the SLO's unit: check's own type, so
// an open side (Low 0, High +Inf) is written null in JSON as check writes it.
type Band = slo.BandRange

// Margin is how far the prediction is from the target on a log scale:
// positive when the SLO holds with room to spare, negative when it misses
// (−0.69 is a factor of two short), so throughput and latency targets
// compare alike.
func (s SLOResult) Margin() float64 { return slo.Margin(s.Target, s.Predicted, s.HigherIsBetter) }

// Score orders candidates lexicographically: fewer SLOs failing, then
// more passing (the rest are uncertain), then the smaller total shortfall
// of the SLOs that do not pass (the candidate closest to meeting them),
// then more output tokens/s per GPU. Better scores compare greater. Fails
// come first because a fail is certain and an uncertain verdict is not:
// ranked by passes alone, TP 4 · PP 3 × 6 replicas (throughput and TPOT
// failing, two passes) outranked the spec's own DP 72 with EP on
// (throughput passing, three uncertain, no fail) on newuser40's
// DeepSeek-V4-Pro on 72 GB200.
type Score struct {
	Fail, Pass, Uncertain int
	// Shortfall is Σ −Margin over the SLOs that do not pass (≥ 0).
	Shortfall float64
	// PerGPU is output tokens/s per GPU at the workload's load.
	PerGPU float64
	// Tuned counts the engine settings moved off their defaults (a named
	// backend, DBO, scheduler limits): between equal figures the simpler
	// configuration ranks first.
	Tuned int
}

// scoreOf scores a candidate's verdicts and throughput per GPU.
func scoreOf(c *Candidate) Score {
	s := Score{PerGPU: c.PerGPU, Tuned: c.Settings.tuned()}
	slo := c.SLO
	for _, v := range slo {
		switch v.Verdict {
		case verdictPass:
			s.Pass++
			continue
		case verdictUncertain:
			s.Uncertain++
		default:
			s.Fail++
		}
		s.Shortfall += math.Max(0, -v.Margin())
	}
	return s
}

// Verdict words, as the estimator writes them (estimate/slo). Uncertain
// is what a prediction band straddling the target will give (#10); plan
// ranks it between pass and fail already.
const (
	verdictPass      = slo.VerdictPass
	verdictFail      = slo.VerdictFail
	verdictUncertain = "uncertain"
)

// Better reports whether a ranks above b: slo.Score's order, the one
// check's layout search (estimate/search) ranks by too.
func (a Score) Better(b Score) bool { return slo.Score(a).Better(slo.Score(b)) }

// AtLeast reports whether a is not worse than b: an optimistic bound a
// that is not AtLeast a rival's actual score cannot overtake it.
func (a Score) AtLeast(b Score) bool { return !b.Better(a) }
