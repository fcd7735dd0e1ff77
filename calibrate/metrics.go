package calibrate

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// Metric is a measured quantity of a benchmark run the model predicts.
type Metric string

// The metrics a calibration fits.
const (
	Throughput Metric = "throughput"
	TPOT       Metric = "tpot"
	TTFT       Metric = "ttft"
)

// AllMetrics are the metrics fitted by default.
var AllMetrics = []Metric{Throughput, TPOT, TTFT}

// ParseMetrics reads a comma-separated list of metric names.
func ParseMetrics(s string) ([]Metric, error) {
	var out []Metric
	seen := map[Metric]bool{}
	for _, f := range strings.Split(s, ",") {
		m := Metric(strings.TrimSpace(f))
		switch m {
		case Throughput, TPOT, TTFT:
		default:
			return nil, fmt.Errorf("unknown metric %q (throughput, tpot, ttft)", m)
		}
		if !seen[m] {
			out, seen[m] = append(out, m), true
		}
	}
	return out, nil
}

// target is one measured value of one result.
type target struct {
	result int // index into the usable results
	metric Metric
	// stat is the statistic compared: "median" or "mean" (throughput: "").
	stat     string
	measured float64
	// note qualifies what the value shows (offeredLoadNote).
	note string
}

// label names the value in reports: "output tok/s", "TPOT median (ms)".
func (t target) label() string {
	switch t.metric {
	case Throughput:
		return "output tok/s"
	case TPOT:
		return "TPOT " + t.stat + " (ms)"
	}
	return "TTFT " + t.stat + " (ms)"
}

// targetsOf lists the values of r the metrics ask for: throughput, and the
// median (else mean) of TPOT and TTFT; a statistic the client did not
// record is skipped.
func targetsOf(i int, r *bench.Result, metrics []Metric) []target {
	var out []target
	for _, m := range metrics {
		switch m {
		case Throughput:
			out = append(out, target{result: i, metric: m, measured: r.OutputTokPerS, note: offeredLoadNote(r)})
		case TPOT:
			if stat, v, ok := centre(r.TPOT); ok {
				out = append(out, target{result: i, metric: m, stat: stat, measured: v})
			}
		case TTFT:
			if stat, v, ok := centre(r.TTFT); ok {
				out = append(out, target{result: i, metric: m, stat: stat, measured: v})
			}
		}
	}
	return out
}

// keptUp is the share of an open loop's offered output rate a run must
// deliver to count as having kept up with it: a finite run also counts its
// last requests' drain, so a server that kept up delivers a little less.
const keptUp = 0.9

// offeredLoadNote says when an open loop's throughput (Poisson, gamma or
// capped arrivals) is its offered load: a server that keeps up with the
// arrivals delivers rate × output tokens whatever its speed, so the value
// bounds capacity from below and says nothing about the constants above
// that; the fit keeps it (a constant set that cannot keep up would
// contradict it). "" for other runs.
func offeredLoadNote(r *bench.Result) string {
	switch r.Load.Kind {
	case bench.LoadPoisson, bench.LoadGamma, bench.LoadCapped:
	default:
		return ""
	}
	if r.Load.RatePerS <= 0 || r.Shape.OutputTokens <= 0 {
		return ""
	}
	offered := r.Load.RatePerS * r.Shape.OutputTokens
	if r.OutputTokPerS < keptUp*offered {
		return ""
	}
	return fmt.Sprintf("the offered load (%.4g requests/s × %.0f output tokens = %.0f tok/s): the server kept up, so capacity is at least this, not measured by it",
		r.Load.RatePerS, r.Shape.OutputTokens, offered)
}

// centre picks the median when recorded (robust to a few stragglers),
// else the mean; a zero statistic (a client's empty list) is not a value.
func centre(s bench.Stat) (string, float64, bool) {
	for _, name := range []string{"median", "mean"} {
		if v, ok := s.Get(name); ok && v > 0 {
			return name, v, true
		}
	}
	return "", 0, false
}

// predicted reads the value t compares from a simulated run (its output
// throughput runs from the first step to the last completion, as the
// client's runs from the first request to the last response).
func (t target) predicted(res sim.Result) float64 {
	pick := func(p sim.Percentiles) float64 {
		if t.stat == "median" {
			return p.P50 * 1e3
		}
		return p.Mean * 1e3
	}
	switch t.metric {
	case Throughput:
		return res.OutputTokPerS
	case TPOT:
		return pick(res.TPOT)
	}
	return pick(res.TTFT)
}
