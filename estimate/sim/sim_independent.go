package sim

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Independent DP ranks (Config.Independent). vLLM makes the engines of a
// DP deployment step together only for a MoE model: EngineCoreProc.
// run_engine_core starts a DPEngineCoreProc (the lock-step wave loop, with
// dummy steps so the experts' collectives find every rank) only when
// data_parallel and model_config.is_moe; otherwise "Non-MoE DP ranks are
// completely independent, so treat like DP=1" (vllm/v1/engine/core.py,
// the same lines in the 0.10/0.11 stored copy and in vllm-project/vllm
// @00080ee1; see dpwave.go). A dense model's DP ranks are so many
// EngineCoreProcs of DP 1 that share the API servers, the DP coordinator's
// published counts (vLLM's internal load balancer, DPLB) and nothing else:
// each schedules its next step as soon as its own ends.
//
// The simulator runs them as events in time order: a rank's step ending
// (its outputs delivered, its finished requests gone), an arrival, or the
// front end handing a request over. Every rank that is not stepping and
// has work schedules its next step at once (its own batch, policy, KV
// and schedule-ahead state; its engineClock), the step lasting what the
// step model gives that rank's load alone. Steady segments (sim_steady.go)
// are not coalesced: a rank's steps are cut by every other rank's events.

// UseIndependentDP simulates a dense model's DP ranks as the independent
// engines they are (Config.Independent, through IndependentRanks) in every
// caller: check's scenarios (RunModel: every rank, through vLLM's DP load
// balancer as sim.DPLBFor decides it) and the calibration replays
// (estimate/replay). Off, check simulated one rank with its 1/DP share and
// no balancer, and the replay every rank in lock-step (issue #28
// "densedp").
var UseIndependentDP = true

// LockStep reports whether a deployment's DP ranks step together: a MoE
// model with DP > 1 (vLLM's DPEngineCoreProc, above; SGLang's DP attention
// likewise runs its MoE layers over every rank's tokens).
func LockStep(moe bool, dp int) bool { return moe && dp > 1 }

// IndependentRanks reports whether a deployment's DP ranks are simulated
// as independent engines (Config.Independent): DP > 1 of a dense model,
// with UseIndependentDP on. The one decision check's RunModel and the
// calibration replay take.
func IndependentRanks(moe bool, dp int) bool { return UseIndependentDP && dp > 1 && !LockStep(moe, dp) }

// RankStep is the step function of one independent rank of sm's
// deployment: sm's setup at DP 1 (Step is called with that rank's load).
func RankStep(sm *perf.StepModel) *perf.StepModel {
	if sm.S.DP <= 1 {
		return sm
	}
	return perf.NewStepModel(*sm.S.WithDP(1))
}

// onRankStep, when set (tests), sees every independent rank's step as it
// starts: the rank, when, its load and its duration.
var onRankStep func(rank int, at float64, l perf.RankLoad, dt float64)

// enterRank makes rank i's clock the engine's (engineClock) for
// scheduling or advancing it; leaveRank keeps it back.
func (s *simulator) enterRank(i int) {
	s.engineClock, s.cur = s.clocks[i], i
}

func (s *simulator) leaveRank(i int) {
	s.clocks[i], s.cur = s.engineClock, -1
}

// clockOf is rank i's clock, wherever it is held.
func (s *simulator) clockOf(i int) *engineClock {
	if i == s.cur {
		return &s.engineClock
	}
	return &s.clocks[i]
}

// runIndependent is run for independent ranks (see above).
func (s *simulator) runIndependent() {
	want := s.cfg.Warmup + max(1, s.cfg.Requests)
	for s.done < want {
		if s.spent(&want) {
			return
		}
		if s.admit() {
			return
		}
		next := math.Inf(1)
		for i := range s.ranks {
			c := &s.clocks[i]
			if !c.inStep && (len(s.ranks[i].running) > 0 || len(s.ranks[i].waiting) > 0) && !s.startStep(i) {
				s.res.Stalled = true
				return
			}
			if c.inStep {
				next = math.Min(next, c.stepEnd)
			}
		}
		if arr := s.nextArrival(); arr < next {
			if math.IsInf(arr, 1) {
				return // nothing runs and nothing will ever arrive
			}
			s.accountTo(arr)
			s.now = arr
			continue
		}
		s.accountTo(next)
		s.now = next
		s.ingestArrivals(s.now)
		for i := range s.ranks {
			if c := &s.clocks[i]; c.inStep && c.stepEnd <= s.now {
				s.endStep(i)
			}
		}
	}
}

// nextArrival is when the next request arrives or the front end hands one
// over (+Inf: none will).
func (s *simulator) nextArrival() float64 {
	next := s.nextArr
	if len(s.pending) > 0 {
		next = math.Min(next, s.pending[0].arrival)
	}
	return math.Min(next, s.nextReady())
}

// startStep schedules rank i's next step and starts it; false when the
// rank cannot go on (it schedules nothing while it has work, or the step
// model gives no finite duration), which stalls the run.
func (s *simulator) startStep(i int) bool {
	s.enterRank(i)
	defer s.leaveRank(i)
	s.lagged = false
	s.outputs = 0
	s.pollRequests()
	s.scheduleRank(i)
	if s.loads[i] == (perf.RankLoad{}) {
		return false // its requests wait for KV that nothing will free
	}
	dt := s.cfg.Step(s.loads[i : i+1])
	if !(dt > 0) || math.IsInf(dt, 1) {
		return false
	}
	if onRankStep != nil {
		onRankStep(i, s.now, s.loads[i], dt)
	}
	s.trace(s.loads[i:i+1], 1, dt)
	if s.done >= s.cfg.Warmup {
		s.measureFrom()
		s.busy += dt
		s.res.Steps++
	}
	s.lastPrefill = s.loads[i].PrefillTokens > 0
	s.stepStart, s.stepEnd, s.inStep = s.now, s.now+dt, true
	s.stepN++
	return true
}

// endStep applies rank i's step, which ends now: its outputs go through
// the front end, the balancer's views are published when due, its
// finished requests leave.
func (s *simulator) endStep(i int) {
	s.enterRank(i)
	defer s.leaveRank(i)
	s.inStep = false
	s.useFront(i) // its own API server, with Frontend.PerRank
	out := s.deliveryTime()
	if s.lb != nil {
		s.lb.publish(s.ranks, s.now)
	}
	s.advanceRank(i, out)
}

// measureFrom starts the measured span at the first accounting after the
// warm-up.
func (s *simulator) measureFrom() {
	if s.startT == 0 && s.res.Steps == 0 && !s.fromZero {
		s.startT = s.now
	}
}

// accountTo integrates the queue lengths from now to t (after the
// warm-up): the time averages of independent ranks, whose steps overlap.
func (s *simulator) accountTo(t float64) {
	if s.done < s.cfg.Warmup || !(t > s.now) {
		return
	}
	s.measureFrom()
	var run, wait int
	for i := range s.ranks {
		run += len(s.ranks[i].running)
		wait += len(s.ranks[i].waiting)
	}
	s.areaRun += float64(run) * (t - s.now)
	s.areaWait += float64(wait) * (t - s.now)
}
