package plan

import (
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

// Score orders candidates as slo.Score does (its fields and order:
// fewer SLOs failing, then fewer whose point prediction misses its
// target, then more passing, then the smaller total shortfall of the SLOs
// that do not pass, then more output tokens/s per GPU, then fewer tuned
// settings): plan, check's layout search and `parallelism: auto` rank by
// the one order. Better scores compare greater.
type Score struct {
	Fail, Pass, Uncertain int
	// Missing counts the SLOs not passing whose point prediction misses
	// its target (slo.Score.Missing).
	Missing int
	// Shortfall is Σ −Margin over the SLOs that do not pass (≥ 0).
	Shortfall float64
	// PerGPU is output tokens/s per GPU at the workload's load.
	PerGPU float64
	// Tuned counts the engine settings moved off their defaults (a named
	// backend, DBO, scheduler limits): between equal figures the simpler
	// configuration ranks first.
	Tuned int
}

// scoreOf scores a candidate's verdicts and throughput per GPU, each
// verdict counted as check's layout search counts it (slo.Score.Add).
func scoreOf(c *Candidate) Score {
	s := slo.Score{PerGPU: c.PerGPU, Tuned: c.Settings.tuned()}
	for _, v := range c.SLO {
		s.Add(v.Verdict, v.Margin())
	}
	return Score(s)
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
