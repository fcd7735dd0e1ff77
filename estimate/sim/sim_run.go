package sim

import (
	"math"
	"slices"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// run advances the simulation until enough requests completed (or, with
// a work share, until it is spent and MinMeasured were measured; a
// warm-up that reaches half the share ends there; at WorkCeiling shares
// the run ends whatever it measured, Result.Truncated).
func (s *simulator) run() {
	if s.clocks != nil {
		s.runIndependent()
		return
	}
	want := s.cfg.Warmup + max(1, s.cfg.Requests)
	for s.done < want {
		if s.spent(&want) {
			return
		}
		if s.admit() {
			return
		}
		if s.cfg.DPWave && s.waveAlign() {
			continue
		}
		if s.idle() {
			s.waveIdle()
			next := s.nextArrival()
			if math.IsInf(next, 1) {
				return // nothing will ever arrive
			}
			s.now = math.Max(s.now, next)
			continue
		}
		s.schedule()
		if s.stuck() { // requests wait for KV that nothing will ever free
			s.res.Stalled = true
			return
		}
		if m := s.steadyLen(); m > 1 {
			s.advanceSteady(m)
			s.decaySegment(m)
			if !(s.now < math.Inf(1)) {
				s.res.Stalled = true
				return
			}
			continue
		}
		dt := s.cfg.Step(s.loads)
		if !(dt > 0) || math.IsInf(dt, 1) { // a broken step model would never advance time
			s.res.Stalled = true
			return
		}
		s.account(dt)
		s.trace(s.loads, 1, dt)
		s.lastPrefill = s.loadsPrefill()
		s.prevStart = s.now // after a pause, no step before this one
		if s.stepEnd == s.now {
			s.prevStart = s.stepStart
		}
		s.stepStart = s.now
		s.now += dt
		s.stepEnd = s.now
		s.stepN++
		s.ingestArrivals(s.now)
		s.advance()
	}
}

// admit brings the arrivals due by now into the front end and hands the
// ingested ones to the ranks; true when the waiting requests exceed
// MaxWaiting (Result.Overloaded), which ends the run.
func (s *simulator) admit() bool {
	s.admitArrivals(s.now)
	s.handOver()
	if s.cfg.MaxWaiting > 0 && s.waiting()+s.ingested() > s.cfg.MaxWaiting {
		s.res.Overloaded = true
		return true
	}
	return false
}

// spent applies the work share (Replicate's enough) before an iteration
// of the run: a warm-up that reaches half of it ends there (want moves
// with it), and the run ends (true) once the share is spent and
// MinMeasured were measured, or at WorkCeiling shares (Result.Truncated).
// A run that reaches its ceiling having measured nothing may first be
// widened (Replicate): a closed loop of long requests completes its first
// turn only after a whole cycle of its sessions, and a ceiling that ends
// every replication within that turn measures nothing however many of
// them run.
func (s *simulator) spent(want *int) bool {
	if s.enough == nil {
		return false
	}
	if s.done < s.cfg.Warmup && s.enough(0.5) && s.rampOver() {
		// A warm-up that would eat the share ends here, but not while a
		// closed loop is still filling (rampOver): measured then, its
		// requests' TPOT and its time averages describe different loads.
		s.cfg.Warmup = s.done
		*want = s.done + max(1, s.cfg.Requests)
	}
	if s.cfg.Pool == 0 && s.done >= s.cfg.Warmup+MinMeasured && s.enough(1) {
		return true
	}
	if s.enough(WorkCeiling) {
		if s.done <= s.cfg.Warmup && !s.widened && s.widen != nil && s.widen() {
			s.widened = true
			return false
		}
		s.res.Truncated = true
		return true
	}
	return false
}

// admitArrivals moves every request that has arrived by t into a queue
// (the front end's, or with none the engine's).
func (s *simulator) admitArrivals(t float64) {
	for len(s.pending) > 0 && s.pending[0].arrival <= t {
		s.arrive(s.popPending())
	}
	for s.nextArr <= t {
		s.send(s.newReq(s.nextArr, -1))
		s.sent++
		s.nextArr = s.nextSend()
	}
}

// ingestArrivals passes the requests that arrived while steps ran, up to
// t, through the front end before the outputs of those steps are charged
// to it (deliveryTime, deliverSegment): the API server ingests a request
// when it arrives, while the engine steps, so it is ready at its arrival
// plus its own ingest work (plus what was queued before it), not at the
// step's end plus the ingest of every request that came during the step.
// Charged after the step's outputs instead, the arrivals of a long step
// came out as one burst of ingest work after it, which the short decode
// steps that followed cut into several prefill steps: vLLM 0.11.0's chat-
// template parse (14 ms over 8 API servers) moved the reference check's
// 4096-token TPOT by 5%, and the API servers' share of P/D TTFTs was up to
// 200 ms. The engine still sees them only at the next schedule (handOver).
// Without a front end requests go straight to the engine's queue, which
// run does at the top of its loop, as before.
func (s *simulator) ingestArrivals(t float64) {
	if s.cfg.Frontend.active() {
		s.admitArrivals(t)
	}
}

// stuck reports a step that schedules nothing while requests are in the
// system: every one waits for KV blocks, and only a step that runs
// something can free them (a request larger than the whole cache).
func (s *simulator) stuck() bool {
	for _, l := range s.loads {
		if l != (perf.RankLoad{}) {
			return false
		}
	}
	return true
}

// waiting is the number of queued requests over all ranks.
func (s *simulator) waiting() int {
	n := 0
	for i := range s.ranks {
		n += len(s.ranks[i].waiting)
	}
	return n
}

func (s *simulator) idle() bool {
	for i := range s.ranks {
		if len(s.ranks[i].running) > 0 || len(s.ranks[i].waiting) > 0 {
			return false
		}
	}
	return true
}

// moreBlocks is how much of the pool beyond what it holds r needs to hold
// n tokens, 0 when it needs none (callers only act on a positive need):
// told by one comparison while n is within the blocks r holds (r.upto),
// as it is for most of a decode's steps.
func (s *simulator) moreBlocks(r *simReq, n int) int {
	if n <= r.upto {
		return 0
	}
	return s.kv.units(n) - r.blocks
}

// hold gives r need more of its rank's pool (moreBlocks' answer for n
// tokens, positive).
func (s *simulator) hold(rk *simRank, r *simReq, need, n int) {
	rk.kvUsed += need
	rk.popped += need
	r.blocks += need
	r.upto = s.kv.upto(n)
}

// schedule builds every rank's batch for the next step: decodes first (one
// token each), then the next chunk of partially prefilled requests, then
// waiting requests while max_num_seqs and the max_num_batched_tokens budget
// allow and their KV fits. A decode that finds the cache full preempts the
// most recently admitted request (recompute: it returns to the front of the
// queue); a prefill chunk that does not fit waits for the next step.
//
// The prefill-first policies (SGLang; vLLM V0 without chunked prefill) run
// a step of prefill work only — the partially prefilled prompt, then
// waiting ones — whenever there is any that can start, and decode
// otherwise.
func (s *simulator) schedule() {
	s.lagged = false
	s.outputs = 0
	s.pollRequests()
	for i := range s.ranks {
		s.scheduleRank(i)
	}
}

// scheduleRank builds rank i's batch for the next step (schedule).
func (s *simulator) scheduleRank(i int) {
	rk := &s.ranks[i]
	s.seqWork += int64(len(rk.running))
	var l perf.RankLoad
	budget := s.cfg.MaxNumBatchedTokens
	if s.cfg.Policy != DecodeFirst {
		if len(rk.running) == 0 {
			rk.tokenRatio = initTokenRatio // SGLang's scheduler found nothing to run: reset (reserve.go)
		}
		budget = s.scheduleRunning(rk, &l, budget, false)
		s.admitWaiting(rk, &l, budget)
		if l.PrefillTokens > 0 {
			s.loads[i] = l
			return
		}
		budget = s.cfg.MaxNumBatchedTokens
	}
	pre := s.res.Preemptions
	budget, none := s.scheduleDecodes(rk, &l, budget)
	if s.reserving() && l.DecodeSeqs > 0 {
		rk.afterDecodes(s.res.Preemptions - pre)
	}
	if !none { // else no running request is a partial prefill
		budget = s.scheduleRunning(rk, &l, budget, false)
	}
	s.admitWaiting(rk, &l, budget)
	s.loads[i] = l
}

// engineRanks is the ranks of the engine being scheduled: every rank of
// a lock-step group, or the independent rank entered (enterRank).
func (s *simulator) engineRanks() []simRank {
	if s.cur >= 0 {
		return s.ranks[s.cur : s.cur+1]
	}
	return s.ranks
}

// engineLoads is engineRanks' loads.
func (s *simulator) engineLoads() []perf.RankLoad {
	if s.cur >= 0 {
		return s.loads[s.cur : s.cur+1]
	}
	return s.loads
}

// pollRequests is SGLang's SchedulerRecvSkipper.handle at the top of an
// event-loop iteration (Config.RecvInterval): the counter grows by the
// weight of the last step — 1 for a decode step, 1,000 for one with
// prefill work — and the scheduler takes the requests handed over so far
// when it reaches the interval. With nothing running the engine's loop
// spins (last batch None, weight 1 an iteration of microseconds), so it
// polls at once.
func (s *simulator) pollRequests() {
	n := s.cfg.RecvInterval
	if n <= 1 {
		return
	}
	running := false
	for _, rk := range s.engineRanks() {
		running = running || len(rk.running) > 0
	}
	w := 1
	if !running || s.lastPrefill {
		w = max(n, 1000)
	}
	s.recvCount += w
	if s.recvCount >= n {
		s.recvCount, s.recvAt = 0, s.now
	}
}

// stepsToPoll is the most decode steps a steady segment may span before
// the schedule that polls for requests (Config.RecvInterval): the
// segment's first step was scheduled already, each further one adds 1 to
// the counter, and the poll must run as a schedule of its own.
func (s *simulator) stepsToPoll() int {
	if s.cfg.RecvInterval <= 1 {
		return math.MaxInt
	}
	if s.loadsPrefill() {
		return 1 // each step of prefill work polls after it
	}
	return max(1, s.cfg.RecvInterval-s.recvCount)
}

// loadsPrefill reports prefill work in the step scheduled (s.loads).
func (s *simulator) loadsPrefill() bool {
	for _, l := range s.engineLoads() {
		if l.PrefillTokens > 0 {
			return true
		}
	}
	return false
}

// scheduleRunning gives the running requests of one kind (decodes, or
// partial prefills) their tokens for the step and returns the budget left.
func (s *simulator) scheduleRunning(rk *simRank, l *perf.RankLoad, budget int, decodes bool) int {
	if decodes {
		budget, _ = s.scheduleDecodes(rk, l, budget)
		return budget
	}
	for j := 0; j < len(rk.running) && budget > 0; j++ {
		r := &rk.running[j]
		if r.done >= r.prompt {
			continue
		}
		n := min(r.prompt-r.done, budget)
		need := s.moreBlocks(r, r.done+n)
		if need > 0 {
			if rk.kvUsed+need > s.kv.capacity {
				continue
			}
			s.hold(rk, r, need, r.done+n)
		}
		s.addToLoad(l, r, n)
		budget -= n
	}
	return budget
}

// scheduleDecodes is scheduleRunning for the decoding requests: each
// verifies its drafts too (the speculation's width); one whose next
// block does not fit preempts requests from the end of the batch, or
// ends the decodes when none is left. It is addToLoad's decode branch
// with the load's decode sums kept in locals, added to in the same order
// and written back once (the hottest loop of the simulator), and the
// outputs counted the same way. It also says whether it looked at every
// running request and found no partial prefill among them (the prefill
// pass that follows then has nothing to do).
func (s *simulator) scheduleDecodes(rk *simRank, l *perf.RankLoad, budget int) (left int, noPrefill bool) {
	width := s.cfg.Spec.width()
	seqs, ctx := l.DecodeSeqs, l.DecodeCtx
	outputs, prefills := 0, false
	j := 0
	run := rk.running // rk.running, read again after a preemption shortens it
	for ; j < len(run) && budget > 0; j++ {
		r := &run[j]
		if r.done < r.prompt {
			prefills = true
			continue
		}
		if need := s.moreBlocks(r, r.done+r.ctxExtra+width); need > 0 {
			for rk.kvUsed+need > s.kv.capacity && len(rk.running)-1 > j {
				s.preempt(rk)
			}
			run = rk.running
			if rk.kvUsed+need > s.kv.capacity {
				break
			}
			s.hold(rk, r, need, r.done+r.ctxExtra+width)
		}
		r.sched = width
		outputs++
		seqs++
		ctx += float64(r.prompt + r.ctxExtra)
		budget -= width
	}
	s.outputs += outputs // preempt's decrements, if any, commute with these
	l.DecodeSeqs, l.DecodeCtx = seqs, ctx
	return budget, !prefills && j >= len(rk.running)
}

// genCtx is the KV a decoding request already holds beyond its prompt.
func (r *simReq) genCtx() int {
	if r.done < r.prompt {
		return 0
	}
	return r.ctxExtra
}

// scheduledBy is when the step about to run was scheduled: at the start
// of the step before it when the engine schedules ahead, has been stepping
// without a pause and still runs requests (Config.ScheduleAhead), else
// now. With nothing running, vLLM schedules nothing ahead
// (scheduler.has_requests() is false) and takes a new request at once.
func (s *simulator) scheduledBy() float64 {
	if !s.cfg.ScheduleAhead || s.stepEnd != s.now || !(s.stepEnd > s.stepStart) {
		return s.now
	}
	for _, rk := range s.engineRanks() {
		if len(rk.running) > 0 {
			return s.stepStart
		}
	}
	return s.now
}

// UseIdleRankRunAhead applies the hosts' run-ahead (Config.WaveRunAhead)
// to a request handed to a rank with nothing running while other ranks
// of its group run requests (runAheadBy), not only to one that finds the
// whole group running dummy steps (dpwave.go). On with UseDummyRunAhead;
// separate because it also moves TPOT through the DP balancer (pegainfer
// c16: TPOT median 32.6 → 27.9 ms, published 33.0).
var UseIdleRankRunAhead = true

// runAheadBy is scheduledBy for a request handed to rank rk: a rank with
// nothing running while other ranks of its lock-step group run requests
// executes dummy batches, and where its host runs those ahead of the GPU
// (Config.WaveRunAhead > 0, vllm.Release.DPDummyRunAhead) it has launched
// one dummy step more than a busy rank's schedule holds before it reads
// the request: under async scheduling it waits on the gloo all-reduce of
// step k+2 (which the busy ranks reach when step k ends) and launches that
// dummy step before its next read, so a request handed over during step k
// runs in step k+3, not k+2; without async scheduling the NCCL
// all-reduce's .item() plays that part (k+2, not k+1). So the cut-off
// moves one step back: to the start of the step before the last (async),
// or of the last.
func (s *simulator) runAheadBy(rk *simRank) float64 {
	by := s.scheduledBy()
	if !UseIdleRankRunAhead || !s.cfg.DPWave || s.cfg.WaveRunAhead <= 0 || len(rk.running) > 0 || s.stepEnd != s.now || !(s.stepEnd > s.stepStart) {
		return by
	}
	for _, o := range s.engineRanks() {
		if len(o.running) > 0 {
			if s.cfg.ScheduleAhead {
				return s.prevStart
			}
			return s.stepStart
		}
	}
	return by
}

// admitWaiting starts queued requests within the remaining budget.
func (s *simulator) admitWaiting(rk *simRank, l *perf.RankLoad, budget int) {
	by := s.runAheadBy(rk)
	rk.kvHeld = false
	reserve, reserved := s.reserving(), 0
	if reserve && len(rk.waiting) > 0 {
		reserved = s.decodeReserve(rk) // PrefillAdder's offset (reserve.go)
	}
	admitted := 0 // taken from the front of the queue, dropped on return
	defer func() { rk.waiting = popFront(rk.waiting, admitted) }()
	for budget > 0 && admitted < len(rk.waiting) && len(rk.running) < s.cfg.MaxNumSeqs {
		r := rk.waiting[admitted]
		if s.cfg.RecvInterval > 1 && r.ready > s.recvAt {
			return // handed over after the scheduler's last poll (pollRequests)
		}
		if r.ready > by {
			s.lagged = true // handed over after this step was scheduled: the next one takes it
			return
		}
		hit, hitUnits := 0, 0 // prompt tokens found in the prefix cache (history.go)
		if s.sess != nil {
			hit, hitUnits = s.historyHit(rk, &r)
		}
		if p := s.prefixHit(&r); p > hit {
			hit, hitUnits = p, 0 // its blocks count as taken (prefix.go)
		}
		if s.cfg.Policy == PrefillFirstWhole && r.prompt-hit > budget && l.PrefillTokens > 0 {
			return // whole prompts only; one larger than the budget runs alone
		}
		n := min(r.prompt-hit, budget)
		if s.cfg.Policy == PrefillFirstWhole {
			n = r.prompt - hit
		}
		need := s.kv.units(hit + n) // hit blocks in the free queue count as taken
		if rk.kvUsed+need > s.kv.capacity || reserve && !s.admitReserved(rk, &r, reserved, admitted == 0) {
			rk.kvHeld = true
			return
		}
		if reserve {
			reserved += max(0, s.withOutput(&r)-need)
		}
		admitted++
		if r.hist > 0 && !r.begun && s.done >= s.cfg.Warmup {
			s.histTok += int64(r.hist)
			s.histHit += int64(min(hit, r.hist))
		}
		if s.cfg.PrefixCaching && (s.cfg.PrefixHitRate > 0 || s.cfg.CachedShare > 0) && !r.begun && s.done >= s.cfg.Warmup {
			s.promptTok += int64(r.prompt)
			s.promptHit += int64(hit)
		}
		r.blocks, r.upto, r.done = 0, 0, hit
		s.hold(rk, &r, need, hit+n)
		rk.popped -= hitUnits // touched out of the free queue, not popped
		if !r.begun {
			r.begun, r.started, r.startStep = true, s.now, s.stepN
		}
		s.addToLoad(l, &r, n)
		rk.running = append(rk.running, r)
		budget -= n
	}
}

// addToLoad records n tokens of request r in the step's load; advance()
// applies them to r after the step (through r.sched).
func (s *simulator) addToLoad(l *perf.RankLoad, r *simReq, n int) {
	r.sched = n
	if n > 0 && r.done+n >= r.prompt {
		s.outputs++ // a decode, or the prompt's last chunk
	}
	if r.done < r.prompt {
		c, p := float64(n), float64(r.done)
		l.PrefillTokens += c
		l.PrefillPairs += c * (p + (c+1)/2)
		l.PrefillPrefix += p
		l.PrefillSeqs++
		if r.done+n >= r.prompt {
			l.PrefillFinal++ // the prompt's last chunk: one micro-batch under PP
		}
		return
	}
	l.DecodeSeqs++
	l.DecodeCtx += float64(r.prompt + r.ctxExtra)
}

// preempt evicts the last running request of the rank back to the queue.
func (s *simulator) preempt(rk *simRank) {
	last := rk.running[len(rk.running)-1]
	rk.running = rk.running[:len(rk.running)-1]
	if s.sess != nil && last.session >= 0 {
		s.preempted(rk, &last)
	}
	rk.kvUsed -= last.blocks
	if last.sched > 0 && last.done+last.sched >= last.prompt {
		s.outputs-- // scheduled in this step, it gives no token now
	}
	last.blocks, last.upto, last.sched = 0, 0, 0
	if last.done >= last.prompt { // recompute everything cached so far
		last.prompt += last.ctxExtra
		last.ctxExtra = 0
	}
	last.done = 0
	rk.waiting = slices.Insert(rk.waiting, 0, last)
	s.res.Preemptions++
}
