package sim

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// UseDPWave simulates vLLM's DP waves (Config.DPWave) for the deployments
// DPWaveFor picks: vLLM serving a MoE model with DP > 1 (issue #28
// "dpwave"). See dpwave.go for the mechanism and its sources. On since
// session 33: built in session 32 and left off because the pooled TTFT P99
// band then left moe's leave-one-source-out coverage at 71%; under the
// model as it stands now (the API servers' per-request latency, the DP
// balancer) it moves only pegainfer's one-session P99 (24.9 → 44.5 ms,
// published 104), the TTFT P99 coverage rises 91% → 94% (moe 79%
// unchanged, moe-ep 89% → 100%) and the moe-ep band is no longer
// stretched by that row (×4.18 → ×2.71 high).
var UseDPWave = true

// DPWaveWidth is how many steps apart vLLM's DP engines test whether any
// rank still has work: DPEngineCoreProc._has_global_unfinished_reqs
// (vllm/v1/engine/core.py) returns True without the all-reduce unless
// step_counter % 32 == 0.
const DPWaveWidth = 32

// DPWaveFor reports whether a deployment's ranks step in vLLM's DP waves:
// vLLM runs DPEngineCoreProc (the wave loop) only when data_parallel and
// model_config.is_moe; a dense model's DP ranks are independent
// EngineCoreProcs ("Non-MoE DP ranks are completely independent, so treat
// like DP=1", vllm/v1/engine/core.py EngineCoreProc.run_engine_core).
func DPWaveFor(vllmEngine, moe bool, dp int) bool {
	return UseDPWave && vllmEngine && moe && dp > 1
}

// dpWave is the DP wave of the simulated group.
//
// vLLM's DPEngineCoreProc.run_busy_loop (vllm/v1/engine/core.py, the same
// in the 0.10/0.11 stored copy and in vllm-project/vllm @00080ee1): while
// engines_running, an engine that executed nothing this pass runs
// execute_dummy_batch() (a one-token forward, so the EP collectives of the
// ranks with work find every rank), then sets engines_running =
// _has_global_unfinished_reqs(local_unfinished), which increments
// step_counter and answers True without asking the other ranks unless
// step_counter % 32 == 0; at a multiple of 32 an all-reduce over the DP
// group ends the wave when no rank has work (current_wave += 1,
// step_counter = 0). A request that reaches an engine while it runs a
// dummy step is read by _process_input_queue at the top of the next pass,
// so it waits for the dummy step in flight, and for those the host
// launched ahead of the GPU before that pass (Config.WaveRunAhead: none in
// 0.11.0, one without async scheduling from 0.12.0, two under async
// scheduling from 0.17.1; unknown releases between count none:
// vllm.Release.DPDummyRunAheadKnown). When the wave has ended, the
// receiving engine sets engines_running itself (add_request: a request
// of a completed wave makes it notify the coordinator, which sends
// START_DP_WAVE to the others) and steps at once; the other engines join
// within a ZMQ hop through the coordinator, not modelled (no measurement
// of it found).
type dpWave struct {
	running bool    // a wave is running (engines_running)
	base    int     // stepN at the wave's start, less the dummy steps run
	idle    bool    // the group has no work but the wave runs on: dummy steps
	t0      float64 // when the dummy steps began
	left    int     // dummy steps until the wave's end
	dummyS  float64 // one dummy step (0: not yet evaluated)
}

// waveIdle is called when no rank has work: a running wave either ends at
// this step's check (a multiple of DPWaveWidth) or runs on in dummy steps.
//
// Synchronously (EngineCore.step) the pass that runs a step also applies
// its output, so the check after the group's last step sees no work: at a
// multiple of DPWaveWidth the wave ends there. Under async scheduling
// (EngineCore.step_with_batch_queue, Config.ScheduleAhead) step k's output
// is applied in the pass that schedules step k+1, so the last step's is
// applied by one more pass, which schedules nothing (model_executed
// False) and therefore runs a dummy batch before its check: the group's
// first check without work comes one dummy step after its last step, and
// the wave ends at the first multiple of DPWaveWidth after it.
func (s *simulator) waveIdle() {
	w := &s.wave
	if !s.cfg.DPWave || !w.running || w.idle {
		return
	}
	c := s.stepN - w.base
	left := DPWaveWidth - c%DPWaveWidth
	if left == DPWaveWidth && !s.cfg.ScheduleAhead {
		w.running = false
		return
	}
	w.idle, w.t0, w.left = true, s.now, left
}

// waveAlign is called at the top of the loop once requests were handed
// over: work on some rank starts (or continues) a wave. If the group was
// running dummy steps, the engines take the work at the end of the dummy
// step in flight: waveAlign moves the clock there and reports true (the
// loop starts over at the new time). A wave already ended costs nothing.
func (s *simulator) waveAlign() bool {
	w := &s.wave
	if s.idle() {
		return false
	}
	if !w.running {
		w.running, w.base, w.idle = true, s.stepN, false
		return false
	}
	if !w.idle {
		return false
	}
	w.idle = false
	d := s.dummyStep()
	i := int(math.Ceil((s.now - w.t0) / d))
	if i > 0 && i <= w.left {
		// The hosts launched WaveRunAhead more dummy steps before they
		// read the request (vllm.Release.DPDummyRunAhead), the wave's
		// last at most: the GPU runs them first.
		i = min(i+s.cfg.WaveRunAhead, w.left)
	}
	if i >= w.left { // the wave ended at t0 + left·d, before or as this came
		end := w.t0 + float64(w.left)*d
		w.running = true
		w.base = s.stepN
		if end > s.now {
			s.now = end
			return true
		}
		return false
	}
	i = max(i, 0)
	w.base -= i // the dummy steps count toward the wave's step counter
	if t := w.t0 + float64(i)*d; t > s.now {
		s.now = t
		return true
	}
	return false
}

// UseDummyRunAhead makes a request that reaches a DP wave's idle group
// wait for the dummy steps the engines' hosts launched ahead of their GPUs
// (Config.WaveRunAhead from vllm.Release.DPDummyRunAhead: two under async
// scheduling from vLLM 0.17.1, one without from 0.12.0; none in 0.11.0,
// whose dummy pass waits for its own graph; none where the release's
// value is unknown, 0.11.1-0.11.2 and async 0.12.0-0.17.0, as
// vllm.Release.DPDummyRunAheadKnown reports). Off: the dummy step in
// flight only.
var UseDummyRunAhead = true

// WaveRunAheadFor is Config.WaveRunAhead for vLLM release r, with or
// without async scheduling: r.DPDummyRunAhead with UseDummyRunAhead on, 0
// otherwise.
func WaveRunAheadFor(r vllm.Release, async bool) int {
	if !UseDummyRunAhead {
		return 0
	}
	n, _ := r.DPDummyRunAhead(async)
	return n
}

// UseEagerDummyStep prices a wave's dummy step with the step model's
// DummyStepRuns (Config.DummyStep): the one-sequence decode step it is in
// releases that dispatch the dummy batch to a CUDA graph (vLLM 0.11.0 on,
// and before 0.10.1), and that step plus the launches of a step without
// graphs in the releases that run it eagerly (0.10.1 and 0.10.2,
// vllm.Release.IdleDPRanksSlow, and rows of unknown release under
// replay.IdleDPSlowWhenReleaseUnknown). Off: the one-sequence decode step
// whatever the release (the pricing before issue #28 "dummywave").
var UseEagerDummyStep = true

// dummyStep is the duration of one lock-step dummy step: vLLM's
// execute_dummy_batch runs the model on one token on every rank
// (gpu_model_runner._dummy_run(1, uniform_decode=True)), priced as a
// one-sequence decode step (Config.DummyStep when set: the step model's
// DummyStepRuns, which runs it without graphs where the release does).
// Neither its skipped LM head and sampler nor its DP all-reduce of the
// token counts (coordinate_batch_across_dp, as a real step's) are
// priced apart.
func (s *simulator) dummyStep() float64 {
	if s.wave.dummyS > 0 {
		return s.wave.dummyS
	}
	loads := make([]perf.RankLoad, len(s.ranks))
	for i := range loads {
		loads[i] = perf.RankLoad{DecodeSeqs: 1, DecodeCtx: 1}
	}
	step := s.cfg.Step
	if s.cfg.DummyStep != nil {
		step = s.cfg.DummyStep
	}
	d := step(loads)
	if !(d > 0) || math.IsInf(d, 1) {
		d = math.SmallestNonzeroFloat64
	}
	s.wave.dummyS = d
	return d
}
