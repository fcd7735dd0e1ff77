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
	littlesLaw(r)
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
	a := arrivals{unlimited: true, rateKnown: true, prompts: l.Prompts, concStated: true}
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

// inFlightTolerance is how far the mean number of requests in flight that
// a result's own figures give (Little's law: completions per second × mean
// latency) may fall short of what its load must keep in flight before the
// load is taken to contradict them: a factor of 2, far beyond the 2-decimal
// rounding of a printed summary and the spread of request lengths, which
// move the estimate by a few percent.
const inFlightTolerance = 2

// meanInFlight is the mean number of requests in flight over the run by
// Little's law, L = λ·W: λ the completions per second (completed over the
// duration, more digits than the printed throughput), W the mean
// end-to-end latency as the client timed it from the send — the recorded
// mean E2E, else mean TTFT plus (output tokens − 1) × mean TPOT (vLLM's
// and SGLang's TPOT excludes the first token), medians where means are
// missing. ok is false when the result records neither.
func meanInFlight(r *Result) (l float64, ok bool) {
	if !(r.DurationS > 0) || r.Completed <= 0 {
		return 0, false
	}
	centre := func(s Stat) (float64, bool) {
		if v, ok := s.Get("mean"); ok {
			return v, true
		}
		return s.Get("median")
	}
	w, ok := centre(r.E2E)
	if !ok {
		ttft, okT := centre(r.TTFT)
		tpot, okP := centre(r.TPOT)
		if !okT || !okP {
			return 0, false
		}
		w, ok = ttft+max(r.Shape.OutputTokens-1, 0)*tpot, true
	}
	return float64(r.Completed) / r.DurationS * w / 1000, w > 0
}

// littlesLaw checks a burst the result does not state against its own
// figures. A client that records no concurrency cap is read as having had
// none: every prompt sent at once. But vLLM's benchmark_serving.py printed
// "Maximum request concurrency: N" before the run, above the result block
// (v0.7.0–v0.10.0: print(f"Maximum request concurrency: {max_concurrency}")
// in benchmark(), "None" without a cap), and `vllm bench serve` prints it
// inside the block only when --max-concurrency is set (v0.11.0
// vllm/benchmarks/serve.py: `if max_concurrency is not None:`); v0.6.0's
// script prints none. A pasted block alone thus drops a cap of an older
// client (vllm-project/vllm issue #20469: --max-concurrency 1 over 30
// prompts, pasted from the result line down). A burst of N requests of one
// shape keeps at least (N+1)/2 of them in flight on average — the mean of
// a server taking them one after the other; any batching keeps more — so
// a run whose figures give fewer, by more than inFlightTolerance, was not a
// burst: it is replayed as the closed loop of the Little's-law concurrency
// (the sessions that keep that many in flight), and the notes say so. A
// result whose figures cannot give the count is replayed as the burst it
// says, with a note that this is assumed.
func littlesLaw(r *Result) {
	l := r.Load
	if l.Kind != LoadBurst || !r.concUnstated || l.Prompts < 2 {
		return
	}
	inFlight, ok := meanInFlight(r)
	if !ok {
		r.Notes = append(r.Notes, "the result records no concurrency cap: replayed as a burst of every prompt at once, unchecked (its figures give no mean latency to check it by Little's law)")
		return
	}
	least := float64(l.Prompts+1) / 2
	if inFlight*inFlightTolerance >= least {
		r.Notes = append(r.Notes, fmt.Sprintf("the result records no concurrency cap: replayed as a burst of every prompt at once, "+
			"which its figures allow (%s requests in flight on average by Little's law, at least %s for a burst of %d)",
			strconv.FormatFloat(inFlight, 'f', 1, 64), strconv.FormatFloat(least, 'f', 1, 64), l.Prompts))
		return
	}
	c := max(1, int(math.Round(inFlight)))
	r.Load = arrivals{unlimited: true, rateKnown: true, prompts: l.Prompts, maxConc: c, concStated: true}.load()
	r.Notes = append(r.Notes, fmt.Sprintf("the result records no concurrency cap, but its own figures contradict a burst of %d prompts at once: "+
		"%d completions in %s s at a mean latency of %s s keep %s requests in flight on average (Little's law), where a burst keeps at least %s; "+
		"replayed as a closed loop of %d sessions, INFERRED (an older vLLM client printed its --max-concurrency above the result block)",
		l.Prompts, r.Completed, strconv.FormatFloat(r.DurationS, 'g', 5, 64), strconv.FormatFloat(inFlight/(float64(r.Completed)/r.DurationS), 'g', 4, 64),
		strconv.FormatFloat(inFlight, 'f', 2, 64), strconv.FormatFloat(least, 'f', 1, 64), c))
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
