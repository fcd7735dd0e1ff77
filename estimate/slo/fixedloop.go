package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// fixedLoopWorkload reports whether the workload describes a fixed-length
// closed benchmark loop: a finite run (burst_requests) of concurrency
// sessions, every request at exactly the stated lengths (no
// workload.lengths, no history kept), no arrival rate — what `vllm bench
// serve --max-concurrency N --num-prompts M` with fixed lengths and
// --ignore-eos runs. A steady closed loop (no burst_requests) describes
// serving sessions, not such a benchmark, and keeps its simulation.
func fixedLoopWorkload(in *input.Input) bool {
	w := in.Workload
	return sim.UseFixedLoopStates && w.Concurrency > 1 && w.BurstRequests > 0 && w.ArrivalRatePerS <= 0 &&
		w.Lengths == nil && w.SessionTokens <= 0
}

// applyLoopStates sets the scenario's TTFT from the loop's states (the
// point: sim.LoopPoint per percentile) and keeps them for the band
// (loopBand). cfg is the all-at-once run's configuration.
func applyLoopStates(sc *SimScenario, sm *perf.StepModel, cfg sim.Config, reps int) {
	st, ok := sim.FixedLoopStates(sm, cfg, sc.Result, func(c sim.Config) sim.Result { return sim.RunModelReplicated(sm, c, reps) })
	if !ok {
		return
	}
	sc.Loop = &st
	st.ScaleThroughput(&sc.Result)
	t := &sc.Result.TTFT
	for _, q := range []string{"mean", "p50", "p90", "p95", "p99"} {
		p, _, _ := loopAt(st, q, cfg.OutputTokens)
		*percentile(t, q) = p
	}
}

// percentile is the field of p that q names (mean, p50, p90, p95, p99).
func percentile(p *sim.Percentiles, q string) *float64 {
	switch q {
	case "mean":
		return &p.Mean
	case "p50":
		return &p.P50
	case "p90":
		return &p.P90
	case "p95":
		return &p.P95
	}
	return &p.P99
}

// loopAt is the loop's TTFT percentile q: the point (sim.LoopPoint) and
// the least and greatest of its states. The wave's middle prompt stands
// for its mean and median, its last prompt for its tail (p90 and above).
func loopAt(st sim.LoopStates, q string, out int) (point, lo, hi float64) {
	wave := st.WaveLastS
	if q == "mean" || q == "p50" {
		wave = st.WaveMeanS
	}
	all, train := *percentile(&st.AllAtOnce, q), *percentile(&st.Train, q)
	point = sim.LoopPoint(st.Wave, out, wave, all)
	lo, hi = min(all, train), max(all, train)
	if st.Wave.Clean(out) {
		lo, hi = min(lo, wave), max(hi, wave)
	}
	return point, min(lo, point), max(hi, point)
}

// loopBand widens v's TTFT band (percentile q, judge's) to span the loop's
// states (band.Band.RangeOver): the benchmark itself is bistable, and the
// band says so. It judges v again.
func loopBand(v *Verdict, in *input.Input, s *SimScenario, q string) {
	if s == nil || s.Loop == nil || v.Band == nil {
		return
	}
	_, lo, hi := loopAt(*s.Loop, q, s.OutputTokens)
	b, _ := sloBand(in, ttftRegime(q))
	l, h := b.RangeOver(lo, hi)
	v.Band = &BandRange{Low: min(l, v.Band.Low), High: max(h, v.Band.High)}
	v.BandBasis += "; " + loopText(*s.Loop, s.OutputTokens, lo, hi)
	rejudge(v, false)
}

// loopThroughputBand widens a throughput verdict's band to span the loop's
// states (RateLo … RateHi of the all-at-once run, as the calibration replay
// spans them) where its throughput was priced on them
// (LoopStates.ScaleThroughput), and judges v again.
func loopThroughputBand(v *Verdict, in *input.Input, s *SimScenario) {
	if s == nil || s.Loop == nil || v.Band == nil || !(s.Loop.Rate > 0) || s.Loop.Cycle.CycleS == 0 || !sim.UseWaveCycle {
		return
	}
	st := *s.Loop
	lo, hi := v.Predicted*st.RateLo/st.Rate, v.Predicted*st.RateHi/st.Rate
	b, _ := sloBand(in, ThroughputRegime(in))
	l, h := b.RangeOver(lo, hi)
	v.Band = &BandRange{Low: min(l, v.Band.Low), High: max(h, v.Band.High)}
	v.BandBasis += fmt.Sprintf("; a fixed-length closed loop: its throughput is priced on the state the point uses (%.2f× the all-at-once simulation), and the band spans its states (%.2f–%.2f×)",
		st.Rate, st.RateLo, st.RateHi)
	rejudge(v, true)
}

// loopText says what the loop's states are and which the point is.
func loopText(st sim.LoopStates, out int, lo, hi float64) string {
	w := st.Wave
	state := "no clean wave (its prefill outlasts a request's decode), so the all-at-once simulation"
	switch {
	case !w.Clean(out):
	case w.Decided():
		state = fmt.Sprintf("the wave: its %d prefill step(s) end within %s of each other, inside one prompt's %s ingest%s, so it re-forms every cycle",
			w.Steps, textfmt.Seconds(w.SpreadS), textfmt.Seconds(w.TurnS), windowText(w, "or"))
	default:
		state = fmt.Sprintf("the geometric mean of the wave and the all-at-once simulation: the wave's %d prefill steps finish over %s, longer than one prompt's %s ingest%s, so whether it re-forms or rolls into a train turns on the clients' turnaround, which is not modelled",
			w.Steps, textfmt.Seconds(w.SpreadS), textfmt.Seconds(w.TurnS), windowText(w, "and"))
	}
	return fmt.Sprintf("a closed loop of fixed lengths settles as a wave (every session sending together) or a train (staggered), and its TTFT differs between them: the band spans both states, %s to %s before the accuracy band; the prediction is %s",
		textfmt.Seconds(lo), textfmt.Seconds(hi), state)
}

// windowText names the wave's queue window (sim.WaveState.WindowS: the
// first new prompt's prefill, during which the engine schedules nothing
// new) after the ingest, joined by conj; empty where the engine has none.
func windowText(w sim.WaveState, conj string) string {
	if !(w.WindowS > 0) {
		return ""
	}
	return fmt.Sprintf(" %s its %s prefill (during which the engine schedules nothing new)", conj, textfmt.Seconds(w.WindowS))
}
