package sim

import (
	"math"
	"slices"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// A closed loop of fixed lengths (a benchmark client's --max-concurrency N
// sessions, fixed input and output lengths, --ignore-eos) has two steady
// states, and its mean TTFT differs by up to 2× between them
// (docs/calibration-analysis.md, "fixed-length closed loops lock into
// waves or trains"):
//
//   - a wave: the sessions finish within a few decode steps of each other
//     and send together; the engine prefills the wave back to back in
//     steps of its token budget and the k-th prompt waits for k of them;
//   - a train: the sessions stay staggered and each prompt waits for its
//     own prefill only.
//
// The clients start a wave: vllm bench serve creates every request's task
// at once and --max-concurrency's semaphore lets N of them through
// together (vllm/benchmarks/serve.py `benchmark`, limited_request_func;
// SGLang's bench_serving the same), so the first cycle is a wave. Whether
// the next cycle is one again is a race between two times:
//
//   - the wave's finishing spread: its prompts were prefilled in W steps,
//     so they finish over the last W − 1 decode steps of the cycle,
//     (W − 1) × the decode step;
//   - the turnaround: from a session's last token until its next prompt
//     reaches the scheduler (the API server's ingest of it, at least).
//
// When the spread is no longer than the turnaround, the whole wave has
// finished before the first new prompt can be scheduled, so the new
// prompts queue together and the wave re-forms, cycle after cycle (decided:
// a wave). So it does when the spread is no longer than the first new
// prompt's prefill (UseQueueWindow): vLLM's engine core schedules a batch
// only between steps — its busy loop takes the requests that arrived
// during a step off the input queue after the step, then schedules the
// next (vllm/v1/engine/core.py EngineCoreProc.run_busy_loop,
// _process_input_queue, EngineCore.step_with_batch_queue; read in the
// 0.11 copy Yuran-7/vllm-0.11@2665d4910, the releases after it not read)
// — so every prompt that reaches the engine while the first one's prefill
// runs waits for it and is scheduled with the others that did, in steps of
// the token budget: the wave, with its first prompt a step ahead. When
// the spread is longer than both, the first new prompts' prefill steps
// land among the last decode steps of the wave and stretch them; the wave
// may re-form or roll apart into a train, and which it does turns on a few
// milliseconds of the client's turnaround, which vlaunch does not model:
// undecided.
// A wave needs W < the output length (else the first prompt's decode ends
// before its wave's prefill does and every step carries prefill: no
// state is clean) and at least two sessions an engine.

// WaveState is the wave state of a fixed-length closed loop on one engine.
type WaveState struct {
	// Sessions is the engine's share of the sessions; Steps the prefill
	// steps of its wave (W).
	Sessions, Steps int
	// MeanS is the wave's mean TTFT on the engine (from the wave's send to
	// the end of the step holding a prompt's last token), LastS the last
	// prompt's; StallS the mean time a prompt's decodes wait through the
	// wave's later prefill steps.
	MeanS, LastS, StallS float64
	// SpreadS is the wave's finishing spread ((W − 1) decode steps) and
	// TurnS the turnaround it races (the ingest of one prompt).
	SpreadS, TurnS float64
	// WindowS is the first new prompt's idle prefill (all its chunks):
	// the prompts that reach the engine within it queue behind it
	// (UseQueueWindow; zero with it off).
	WindowS float64
}

// Clean reports whether the loop has a wave state: at least two sessions
// an engine, and a wave whose prefill ends before its first prompt's
// decode would (Steps below the output length out).
func (w WaveState) Clean(out int) bool {
	return w.Sessions >= 2 && w.Steps >= 1 && w.Steps < out && w.Steps <= maxWaveSteps
}

// Decided reports whether the wave re-forms every cycle: its finishing
// spread is no longer than the turnaround or than the first new prompt's
// prefill (WindowS).
func (w WaveState) Decided() bool { return w.SpreadS <= max(w.TurnS, w.WindowS) }

// UseQueueWindow decides a fixed-length closed loop's wave on the first
// new prompt's prefill as well as on the turnaround (WaveState.WindowS,
// Decided; the engine-core loop above) where the engine is vLLM's V1
// engine core (Config.QueueWindow: the loop read; V0's and SGLang's were
// not). Read by FixedLoopStates, for check (estimate/slo) and the
// calibration replay alike. Issue #28 "dttft43".
var UseQueueWindow = true

// queueWindow is the first prompt's idle prefill (cfg.InputTokens, in
// steps of cfg's token budget) on an engine of step model rank
// (UseQueueWindow and cfg.QueueWindow; 0 otherwise).
func queueWindow(rank *perf.StepModel, cfg Config) float64 {
	if !UseQueueWindow || !cfg.QueueWindow {
		return 0
	}
	return rank.PrefillIdle(max(1, cfg.InputTokens), max(1, cfg.MaxNumBatchedTokens)).TTFTS
}

// WaveOf prices the wave of n prompts of in tokens arriving together at an
// engine whose step model is sm and token budget budget: back to back in
// steps of budget tokens, each priced as the step model's idle prefill of
// that many tokens (no decodes beside), a prompt's TTFT the end of the
// step holding its last token. decodeS is the engine's decode step at n
// sequences (the finishing spread's step) and turnS the turnaround.
// No constant is fitted: the steps are the step model's own.
func WaveOf(sm *perf.StepModel, n, in, budget int, decodeS, turnS float64) WaveState {
	w := WaveState{Sessions: n, TurnS: turnS}
	if n < 1 || in < 1 || budget < 1 {
		return w
	}
	// A wave of more steps than maxWaveSteps is not priced step by step:
	// it is no clean wave for any output length a run has (Clean), and
	// its steps would cost a long run of the step model for nothing.
	if steps := (n*in + budget - 1) / budget; steps > maxWaveSteps {
		w.Steps = steps
		return w
	}
	ends, done := waveSteps(sm, n, in, budget)
	end := ends[len(ends)-1]
	for _, k := range done {
		w.MeanS += ends[k]
		w.StallS += end - ends[k]
	}
	w.Steps = len(ends)
	w.MeanS /= float64(n)
	w.StallS /= float64(n)
	w.LastS = ends[done[len(done)-1]]
	w.SpreadS = float64(w.Steps-1) * decodeS
	return w
}

// maxWaveSteps bounds the waves WaveOf prices step by step (a cost bound,
// not a model constant: a wave of more prefill steps than a request has
// output tokens is not clean, and no benchmark here decodes 65,536).
const maxWaveSteps = 1 << 16

// LoopPoint is the point prediction of a fixed-length closed loop's TTFT
// (mean or tail) from its states: the wave's where the wave is decided;
// the geometric mean of the wave's and the all-at-once simulation's where
// it is not (the simulation is the loop's physics as priced, and it rolls
// apart at a turnaround the published waves show is too short; neither
// state can be ruled out, and the geometric mean is the middle of a band
// that spans both on the log scale the bands are read in); the
// simulation's where the loop has no clean wave.
func LoopPoint(w WaveState, out int, waveS, simS float64) float64 {
	switch {
	case !w.Clean(out) || !(waveS > 0) || !(simS > 0):
		return simS
	case w.Decided():
		return waveS
	}
	return math.Sqrt(waveS * simS)
}

// LoopStates are a fixed-length closed loop's TTFT in its states and the
// point prediction from them (FixedLoopStates).
type LoopStates struct {
	// Wave is the wave state; WaveMeanS and WaveLastS its mean and last
	// TTFT with the all-at-once run's mean front end added.
	Wave                 WaveState
	WaveMeanS, WaveLastS float64
	// Train is the evenly staggered start's TTFT (TrainCycle), AllAtOnce
	// the clients' start's (the run the caller made).
	Train, AllAtOnce Percentiles
	// Mean and P99 are the point predictions (LoopPoint).
	Mean, P99 float64
	// MeanLo … P99Hi span the states: the train, the all-at-once run and,
	// where the loop has one, the wave. A band over them says the
	// benchmark itself is bistable.
	MeanLo, MeanHi, P99Lo, P99Hi float64
	// Cycle is the wave's cycle on one engine (WaveCycleOf; zero where
	// the loop has no clean wave or UseWaveCycle is off). Rate is the
	// point prediction of the deployment's output throughput as a
	// multiple of the all-at-once run's, RateLo and RateHi its span over
	// the states, as multiples too (all 1 with UseWaveCycle off); TPOT
	// (mean and median) the point prediction, TPOTLo and TPOTHi the span
	// of the mean TPOT (the all-at-once run's with UseWaveCycleTPOT off).
	Cycle                WaveCycle
	Rate, RateLo, RateHi float64
	TPOT                 Percentiles
	TPOTLo, TPOTHi       float64
}

// FixedLoopStates prices the states of a fixed-length closed loop on step
// model sm whose all-at-once simulation cfg (cfg.Sessions sessions, no
// stagger) gave allAtOnce; run simulates a configuration as the caller
// does (the train: cfg with its sessions evenly staggered over one
// TrainCycle). ok is false where it does not apply: fewer than two
// sessions, or DP ranks in lock-step (an MoE's, LockStep: they wait for
// each other and for the DP wave's dummy steps, which the wave model does
// not price), or a cached prefix (Config.PrefixHitRate: the wave model
// prices whole prompts).
func FixedLoopStates(sm *perf.StepModel, cfg Config, allAtOnce Result, run func(Config) Result) (LoopStates, bool) {
	moe := sm.S.Model != nil && sm.S.Model.IsMoE()
	dp := max(1, cfg.DP)
	if cfg.Sessions < 2 || (dp > 1 && LockStep(moe, dp)) || cfg.PrefixCaching && cfg.PrefixHitRate > 0 {
		return LoopStates{}, false
	}
	engines := dp * max(1, sm.S.Replicas)
	n := (cfg.Sessions + engines - 1) / engines
	rank := RankStep(sm)
	in, out := cfg.InputTokens, max(1, cfg.OutputTokens)
	d, _ := rank.DecodeAt(n, float64(in)+float64(out)/2)
	f := cfg.Frontend
	turn := f.turnS(in) * float64(max(1, f.Servers))
	st := LoopStates{Wave: WaveOf(rank, n, in, max(1, cfg.MaxNumBatchedTokens), d.TPOTS, turn), AllAtOnce: allAtOnce.TTFT}
	st.Wave.WindowS = queueWindow(rank, cfg)
	tc := cfg
	tc.StaggerS, tc.EvenStagger = TrainCycle(rank, n, in, out, cfg.MaxNumBatchedTokens), true
	train := run(tc)
	st.Train = train.TTFT
	fe := allAtOnce.TTFTParts.FrontendS
	st.WaveMeanS, st.WaveLastS = st.Wave.MeanS+fe, st.Wave.LastS+fe
	mean, p99 := []float64{st.AllAtOnce.Mean, st.Train.Mean}, []float64{st.AllAtOnce.P99, st.Train.P99}
	if st.Wave.Clean(out) {
		mean, p99 = append(mean, st.WaveMeanS), append(p99, st.WaveLastS)
	}
	st.MeanLo, st.MeanHi, st.P99Lo, st.P99Hi = slices.Min(mean), slices.Max(mean), slices.Min(p99), slices.Max(p99)
	st.Mean = LoopPoint(st.Wave, out, st.WaveMeanS, st.AllAtOnce.Mean)
	st.P99 = LoopPoint(st.Wave, out, st.WaveLastS, st.AllAtOnce.P99)
	st.rateAndTPOT(rank, cfg, allAtOnce, train, fe)
	return st, true
}

// rateAndTPOT sets the output throughput and TPOT of the loop's states
// (UseWaveCycle): the wave's cycle on one engine (its sessions' share of
// the deployment's, the ingest the all-at-once run's mean front end fe)
// beside the all-at-once and the train runs, the point chosen as the TTFT's
// is (LoopPoint).
func (st *LoopStates) rateAndTPOT(rank *perf.StepModel, cfg Config, allAtOnce, train Result, fe float64) {
	st.Rate, st.RateLo, st.RateHi, st.TPOT = 1, 1, 1, allAtOnce.TPOT
	st.TPOTLo, st.TPOTHi = allAtOnce.TPOT.Mean, allAtOnce.TPOT.Mean
	out := max(1, cfg.OutputTokens)
	if !UseWaveCycle || !(allAtOnce.OutputTokPerS > 0) || !st.Wave.Clean(out) {
		return
	}
	n := st.Wave.Sessions
	st.Cycle = WaveCycleOf(rank, n, cfg.InputTokens, out, max(1, cfg.MaxNumBatchedTokens), cfg.Policy, fe)
	if !(st.Cycle.OutputTokPerS > 0) {
		return
	}
	// The deployment's rate in the wave: every session's out tokens per
	// cycle (the engines' cycles are alike; a last engine with fewer
	// sessions is priced at the fuller engines' cycle).
	wave := float64(cfg.Sessions*out) / st.Cycle.CycleS / allAtOnce.OutputTokPerS
	rates := []float64{1, wave}
	if train.OutputTokPerS > 0 {
		rates = append(rates, train.OutputTokPerS/allAtOnce.OutputTokPerS)
	}
	st.Rate = LoopPoint(st.Wave, out, wave, 1)
	st.RateLo, st.RateHi = slices.Min(rates), slices.Max(rates)
	if !UseWaveCycleTPOT {
		return
	}
	tpot := []float64{allAtOnce.TPOT.Mean, st.Cycle.TPOT.Mean}
	if train.TPOT.Mean > 0 {
		tpot = append(tpot, train.TPOT.Mean)
	}
	st.TPOT.Mean = LoopPoint(st.Wave, out, st.Cycle.TPOT.Mean, allAtOnce.TPOT.Mean)
	st.TPOT.P50 = LoopPoint(st.Wave, out, st.Cycle.TPOT.P50, allAtOnce.TPOT.P50)
	st.TPOTLo, st.TPOTHi = slices.Min(tpot), slices.Max(tpot)
}

// TrainCycle is how long one session of a fixed-length closed loop takes a
// request in a train (every session's prompt alone in the gap the one
// before left) on an engine of n sessions with step model rank: its own
// prompt's idle prefill, and out − 1 decode steps of the n sessions,
// n − 1 of which also carry another session's prompt (priced as that
// prompt's idle prefill).
func TrainCycle(rank *perf.StepModel, n, in, out, budget int) float64 {
	out = max(1, out)
	p := rank.PrefillIdle(in, max(1, budget)).TTFTS
	d, _ := rank.DecodeAt(max(1, n), float64(in)+float64(out)/2)
	others := max(0, min(n-1, out-1))
	return p + float64(others)*p + float64(out-1-others)*d.TPOTS
}

// UseFixedLoopStates predicts a fixed-length closed benchmark loop's TTFT
// from both of its steady states (FixedLoopStates: the wave, decided or
// not, against the all-at-once simulation) and spans its band over both
// and the train, in check (estimate/slo) and in the calibration replay
// (estimate/replay) alike: one switch, so the two never judge the same
// loop differently (issue #28). Off: the all-at-once simulation alone.
var UseFixedLoopStates = true

// ScaleThroughput applies the loop's throughput state to r (the all-at-once
// simulation's result): output and total tokens/s times Rate, where the
// loop has a priced wave cycle (UseWaveCycle). check (estimate/slo) and the
// calibration replay both call it, so that a fixed-length loop's throughput
// is judged alike. It reports whether it changed r.
func (st LoopStates) ScaleThroughput(r *Result) bool {
	if !UseWaveCycle || !(st.Rate > 0) || st.Cycle.CycleS == 0 {
		return false
	}
	r.OutputTokPerS *= st.Rate
	r.TotalTokPerS *= st.Rate
	return true
}
