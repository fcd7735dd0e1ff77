package bench

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// throughputTolerance is how far a recorded throughput may stray from the
// totals divided by the duration: clients compute it exactly, so more than
// rounding means the file was edited or mixes runs.
const throughputTolerance = 0.02

// check refuses a result that cannot describe a run or contradicts itself.
func check(r *Result, numPrompts int, hasNum bool) error {
	switch {
	case r.Completed == 0:
		return fmt.Errorf("no request completed")
	case !(r.DurationS > 0):
		return fmt.Errorf("%q: the duration must be positive", "duration")
	case r.Shape.OutputTokens <= 0:
		return fmt.Errorf("no output tokens: not a text-generation benchmark")
	case hasNum && r.Load.Prompts > max(numPrompts, r.Completed+r.Failed):
		return fmt.Errorf("more requests (%d) than prompts (%d)", r.Load.Prompts, numPrompts)
	}
	total := r.Shape.OutputTokens * float64(r.Completed)
	if r.OutputTokPerS > 0 {
		if want := total / r.DurationS; math.Abs(r.OutputTokPerS/want-1) > throughputTolerance {
			return fmt.Errorf("output throughput %.4g tok/s disagrees with %.0f output tokens in %.4g s (%.4g tok/s)",
				r.OutputTokPerS, total, r.DurationS, want)
		}
	} else {
		r.OutputTokPerS = total / r.DurationS
		r.Notes = append(r.Notes, "output throughput computed from the totals and the duration")
	}
	instantArrivals(r)
	arrivalsConsistent(r)
	for name, s := range map[string]Stat{"TTFT": r.TTFT, "TPOT": r.TPOT, "ITL": r.ITL, "E2E": r.E2E} {
		if err := ascending(s); err != nil {
			return fmt.Errorf("%s %v", name, err)
		}
	}
	return nil
}

// instantArrivals maps an open-loop load whose arrivals all fall within
// 0.1% of the run (N requests at R/s take N/R seconds on average) to the
// unlimited rate it amounts to: SGLang users pass --request-rate 1000000
// with --max-concurrency for a closed loop (sgl-project/sglang PR #14194:
// "Traffic request rate: 1000000.0", "Max request concurrency: 48", 480
// requests in 838.86 s), which is then replayed as the closed loop of 48
// it was, not as 480 Poisson arrivals in half a millisecond.
func instantArrivals(r *Result) {
	l := r.Load
	switch l.Kind {
	case LoadPoisson, LoadGamma, LoadCapped:
	default:
		return
	}
	if !(l.RatePerS > 0) || !(r.DurationS > 0) || float64(l.Prompts)/l.RatePerS > 0.001*r.DurationS {
		return
	}
	a := arrivals{unlimited: true, rateKnown: true, prompts: l.Prompts}
	if l.Kind == LoadCapped {
		a.maxConc = l.Concurrency
	}
	r.Load = a.load()
	r.Notes = append(r.Notes, fmt.Sprintf("all %d requests arrive within %s s at %s requests/s: replayed as sent at once", l.Prompts,
		strconv.FormatFloat(float64(l.Prompts)/l.RatePerS, 'g', 3, 64), strconv.FormatFloat(l.RatePerS, 'g', 4, 64)))
}

// CheckArrivalRate enables arrivalsConsistent. Built off (benchreal2)
// while cmd/vlaunch/testdata/script/calibrate_capped.txtar's hand-made
// gamma.json recorded 100 requests at 0.5 requests/s finished in 108 s
// (gamma shape 2: at least 143 s); that fixture now lasts 210 s and the
// check is on. Real files it catches: SGLang-dLoRA's printed summaries
// (996 requests at 2/s in 264 s, bench/testdata/sglang-dlora-rate-mismatch.txt).
var CheckArrivalRate = true

// arrivalsConsistent turns an open-loop load the run cannot have had into
// LoadOther. N arrivals at rate R with gamma gaps of shape k (1 = Poisson)
// take N/R seconds on average with a standard deviation of
// N/R/sqrt(N·k); the run lasted at least as long as its sends, so more
// than four deviations faster than that means the client did not send at
// the rate it recorded (a modified client, or a result whose rate was
// edited): its figures are kept, its load is not replayed.
func arrivalsConsistent(r *Result) {
	if !CheckArrivalRate {
		return
	}
	l := r.Load
	switch l.Kind {
	case LoadPoisson, LoadGamma, LoadCapped:
	default:
		return
	}
	shape := l.Burstiness
	if shape <= 0 {
		shape = 1
	}
	n := float64(l.Prompts)
	sd := 1 / math.Sqrt(n*shape)
	if !(l.RatePerS > 0) || !(r.DurationS > 0) || 4*sd >= 0.5 {
		return
	}
	minSend := n / l.RatePerS * (1 - 4*sd)
	if r.DurationS >= minSend {
		return
	}
	r.Load = other(Load{Prompts: l.Prompts}, fmt.Sprintf("%d requests in %s s cannot have been sent at the recorded %s requests/s "+
		"(at least %s s): the client did not send at that rate", l.Prompts, strconv.FormatFloat(r.DurationS, 'g', 4, 64),
		strconv.FormatFloat(l.RatePerS, 'g', 4, 64), strconv.FormatFloat(minSend, 'g', 4, 64)))
}

// ascending checks that higher percentiles are not below lower ones.
func ascending(s Stat) error {
	type pv struct {
		p, v float64
		name string
	}
	var ps []pv
	for name, v := range s {
		if p, err := strconv.ParseFloat(strings.TrimPrefix(name, "p"), 64); err == nil && strings.HasPrefix(name, "p") {
			ps = append(ps, pv{p, v, name})
		} else if name == "median" {
			ps = append(ps, pv{50, v, name})
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].p < ps[j].p })
	for i := 1; i < len(ps); i++ {
		if ps[i].v < ps[i-1].v*(1-1e-9) {
			return fmt.Errorf("%s (%g ms) is below %s (%g ms)", ps[i].name, ps[i].v, ps[i-1].name, ps[i-1].v)
		}
	}
	return nil
}

// maxMetadata bounds the user keys kept from one result.
const maxMetadata = 32

// metadata keeps the unread string keys (the user's --metadata) and notes
// the unread keys of other types, which a newer client may have added.
func metadata(o *object, notes []string) (map[string]string, []string) {
	var md map[string]string
	var other []string
	for _, k := range o.unread() {
		var s string
		if raw, ok := o.fields[k]; ok && len(md) < maxMetadata && jsonString(raw, &s) {
			if md == nil {
				md = map[string]string{}
			}
			md[clipText(k)] = clipText(s)
			continue
		}
		other = append(other, clipText(k))
	}
	if len(other) > 0 {
		if len(other) > 8 {
			other = append(other[:8], fmt.Sprintf("and %d more", len(other)-8))
		}
		notes = append(notes, "keys vlaunch does not read: "+strings.Join(other, ", "))
	}
	return md, notes
}

// clipText bounds a user string kept in a result.
func clipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
