package sim

import (
	"math"
	"slices"
)

// account integrates queue lengths over the step for the time averages.
func (s *simulator) account(dt float64) { s.accountSegment(dt, 1) }

// accountSegment integrates queue lengths over steps steps lasting dt in
// all.
func (s *simulator) accountSegment(dt float64, steps int) {
	if s.done < s.cfg.Warmup {
		return
	}
	if s.startT == 0 && s.res.Steps == 0 && !s.fromZero {
		s.startT = s.now
	}
	var run, wait, kvWait int
	for i := range s.ranks {
		run += len(s.ranks[i].running)
		wait += len(s.ranks[i].waiting)
		if s.ranks[i].kvHeld {
			kvWait += len(s.ranks[i].waiting)
		}
	}
	s.areaRun += float64(run) * dt
	s.areaWait += float64(wait) * dt
	s.areaKVWait += float64(kvWait) * dt
	s.busy += dt
	s.res.Steps += steps
}

// advance applies the step that just ended: prefill chunks progress (the
// last chunk samples the first token), decodes emit a token, finished
// requests leave and, in closed loop, their session sends the next one.
func (s *simulator) advance() {
	if s.fronts != nil { // each rank's outputs through its own front end
		for i := range s.ranks {
			s.useFront(i)
			s.advanceRank(i, s.deliverOutputs(s.rankOutputs(i)))
		}
		return
	}
	out := s.deliveryTime()
	if s.lb != nil {
		s.lb.publish(s.ranks, s.now) // the engines' counts as of the step before this one's finishes
	}
	for i := range s.ranks {
		s.advanceRank(i, out)
	}
}

// advanceRank applies rank i's part of the step that just ended, its
// outputs delivered at out (advance).
func (s *simulator) advanceRank(i int, out float64) {
	rk := &s.ranks[i]
	s.seqWork += int64(len(rk.running))
	finished := false
	for j := range rk.running {
		r := &rk.running[j]
		if n := r.sched; n > 0 {
			r.sched = 0
			if r.done < r.prompt {
				r.chunks++
				r.rideDecodes += int32(s.loads[i].DecodeSeqs)
				r.done += n
				if r.done >= r.prompt {
					lag := s.firstTokenLag()
					s.emit(r, out+lag)
					r.engineTok += lag // engine time: the prefill's part of the TTFT
				}
			} else if s.cfg.Spec.Drafts <= 0 {
				// emitDecode without drafts, inlined (one token, no draw)
				if r.out < r.output {
					r.ctxExtra++
					s.emit(r, out)
				}
			} else {
				s.emitDecode(r, out)
			}
		}
		if r.out >= r.output {
			if s.sess != nil && r.session >= 0 {
				s.release(rk, r)
			}
			rk.kvUsed -= r.blocks
			if s.clocks != nil {
				s.finished = append(s.finished, *r)
			} else {
				s.finish(*r, out)
			}
			finished = true
		}
	}
	if finished {
		rk.running = unfinished(rk.running)
	}
	// An independent rank's finished requests have left it before their
	// sessions send the next ones (vLLM's scheduler frees a request before
	// its output reaches the client), so the next request is routed by
	// counts without them. (Lock-step ranks still route them with the
	// finished requests counted, as they always did.)
	for _, r := range s.finished {
		s.finish(r, out)
	}
	s.finished = s.finished[:0]
}

// unfinished drops the finished requests of q, keeping the others in
// order: each stretch of them between two finished ones moves in one copy
// (a request moved one by one, 120 bytes, was a third of advance's time
// with hundreds running per rank).
func unfinished(q []simReq) []simReq {
	kept := 0
	for j := 0; j < len(q); {
		if q[j].out >= q[j].output {
			j++
			continue
		}
		k := j + 1
		for k < len(q) && q[k].out < q[k].output {
			k++
		}
		if kept != j {
			copy(q[kept:], q[j:k])
		}
		kept += k - j
		j = k
	}
	return q[:kept]
}

// deliveryTime is when the front end has delivered the outputs of the
// step that just ended: now without a front end, else after the work
// queued before them and TokenS per token they carry. With rounds
// (Frontend.Rounds) that is the whole round of ingests in progress or due
// (joinRound): the output handler the step's results wake runs in the
// loop's next pass, so a burst's parses hold the streamed tokens of the
// requests already running until they have all run. Without, the tokens
// skip the chat-template parses of requests whose ingest has not begun
// (parseAhead): the model that treats each parse as one pass of its own.
func (s *simulator) deliveryTime() float64 {
	return s.deliverOutputs(s.outputs) // requests with r.sched > 0 and r.done+r.sched >= r.prompt
}

// deliverOutputs is deliveryTime for n outputs on the front end in use.
func (s *simulator) deliverOutputs(n int) float64 {
	fe := s.cfg.Frontend
	if !fe.active() {
		s.lastOut = s.now
		return s.now
	}
	if n == 0 {
		return s.now
	}
	work := float64(n) * fe.TokenS
	out := max(s.feFree-s.parseAhead(s.now), s.now) + work
	s.feFree = max(s.feFree, s.now) + work
	s.lastOut = out
	return out
}

// parseAhead is the chat-template parse work queued in the front end for
// requests whose ingest starts after t (Frontend.ChatTemplateS each); none
// with rounds, where every queued parse is in the pass the outputs wait for.
func (s *simulator) parseAhead(t float64) float64 {
	fe := s.cfg.Frontend
	if fe.ChatTemplateS <= 0 || fe.Rounds {
		return 0
	}
	n := 0
	for i := len(s.ingest) - 1; i >= 0; i-- {
		q := &s.ingest[i]
		start := q.ready - fe.ReadyDelayS - fe.servers()*fe.ingestS(q.input+q.hist)
		if fe.offLoop() {
			start = q.loopStart
		}
		if start <= t { // its ingest's start
			break // ready times increase, and so, near enough, do starts
		}
		n++
	}
	return float64(n) * fe.ChatTemplateS
}

// emit records one output token of r, delivered to the client at t.
func (s *simulator) emit(r *simReq, t float64) {
	if r.out == 0 {
		r.firstTok, r.engineTok, r.tokStep = t, s.now, s.stepN
	}
	r.out++
	if s.done >= s.cfg.Warmup {
		s.outTok++
	}
}

// firstTokenLag is Config.FirstTokenLag for the step that just ended (0
// without one), computed once a step.
func (s *simulator) firstTokenLag() float64 {
	if s.cfg.FirstTokenLag == nil {
		return 0
	}
	if s.lagStep != s.stepN+1 {
		s.lagVal, s.lagStep = s.cfg.FirstTokenLag(s.engineLoads()), s.stepN+1
	}
	return s.lagVal
}

// finish records a completed request whose last token reached the client
// at t, and starts its session's next one then.
func (s *simulator) finish(r simReq, t float64) {
	if s.done >= s.cfg.Warmup {
		rec := simRecord{ttft: r.firstTok - r.arrival, e2e: t - r.arrival,
			frontend: (r.ready - r.arrival) + (r.firstTok - r.engineTok), queue: r.started - r.ready, prefill: r.engineTok - r.started,
			prompt:     s.cfg.Frontend.servers() * s.cfg.Frontend.PromptTokenS * float64(r.input+r.hist),
			queueSteps: int32(r.startStep - r.readyStep), prefillSteps: int32(r.tokStep - r.startStep), chunks: r.chunks, rideDecodes: r.rideDecodes}
		rec.tpot = noTPOT
		if r.output > 1 {
			rec.tpot = (t - r.firstTok) / float64(r.output-1)
		}
		s.measured = append(s.measured, rec)
		s.inTok += r.input
	}
	s.done++
	if r.session < 0 && s.cfg.ClientCap > 0 {
		s.freeSlot(t)
	}
	if r.session >= 0 && s.more() {
		s.sent++
		if s.cfg.ThinkS > 0 {
			// Exponential think times (a finite-source Poisson stream): a
			// constant one would send the sessions a lock-step engine
			// finished together back together, wave after wave (what
			// ThinkFixed asks for).
			think := s.cfg.ThinkS
			if !s.cfg.ThinkFixed {
				think *= s.rng.ExpFloat64()
			}
			s.pend(s.newReq(t+think, r.session))
			return
		}
		s.arrive(s.newReq(t, r.session))
	}
}

// pend queues a closed-loop request that arrives later on the pending
// heap. A heap, not a sorted slice: inserting into the slice moved every
// later request (a simReq is ~200 bytes) on each of a closed-loop run's
// requests.
func (s *simulator) pend(r simReq) {
	s.pended++
	r.pseq = -s.pended
	s.pending = append(s.pending, r)
	q := s.pending
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !pendBefore(&q[i], &q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

// popPending removes and returns the earliest pending request.
func (s *simulator) popPending() simReq {
	q := s.pending
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && pendBefore(&q[c+1], &q[c]) {
			c++
		}
		if !pendBefore(&q[c], &q[i]) {
			break
		}
		q[i], q[c] = q[c], q[i]
		i = c
	}
	s.pending = q
	return top
}

// pendBefore orders the pending heap: by arrival, ties by pseq (the
// order the requests would have in a slice kept sorted by a stable
// insert before equal keys).
func pendBefore(a, b *simReq) bool {
	return a.arrival < b.arrival || (a.arrival == b.arrival && a.pseq < b.pseq)
}

// result turns the records into percentiles and throughput.
func (s *simulator) result() Result { return pooled([]*simulator{s}) }

// shed drops what only a running simulation needs (its ranks, queues and
// scratch), keeping what pooled reads: Replicate holds every replication
// until it pools them, and a finite run's queues hold the whole run.
func (s *simulator) shed() {
	s.ranks, s.loads, s.pending, s.ingest, s.ingestBase, s.pendingBase = nil, nil, nil, nil, nil, nil
	for i := range s.fronts { // their lastOut stays: pooled reads it
		s.fronts[i].ingest, s.fronts[i].ingestBase = nil, nil
	}
	s.deltas, s.scratch, s.prefix, s.enough = nil, nil, nil, nil
}

// pooled is the result of several independent runs taken together: their
// records in one distribution, their tokens over their summed measured
// time.
func pooled(ss []*simulator) Result { return pooledWith(ss, true) }

// pooledWith is pooled; without latencies it leaves TTFT, TPOT and E2E
// zero, for a caller that replaces them (Replicate's means over
// replications) and need not sort three distributions to throw them away.
func pooledWith(ss []*simulator, latencies bool) Result {
	var res Result
	var span, busy, areaRun, areaWait, areaKVWait float64
	var outTok, inTok int
	var histTok, histHit, promptTok, promptHit int64
	if len(ss) == 0 {
		return res
	}
	recs := ss[0].measured // read only: one run's records need no copy
	if len(ss) > 1 {
		n := 0
		for _, s := range ss {
			n += len(s.measured)
		}
		recs = make([]simRecord, 0, n)
	}
	for _, s := range ss {
		res.Preemptions += s.res.Preemptions
		res.Steps += s.res.Steps
		end := max(s.now, s.lastDelivered()) // the last output delivered
		res.SimulatedS += end
		res.Stalled = res.Stalled || s.res.Stalled
		res.Overloaded = res.Overloaded || s.res.Overloaded
		res.Truncated = res.Truncated || s.res.Truncated
		span += end - s.startT
		busy += s.busy
		areaRun += s.areaRun
		areaWait += s.areaWait
		areaKVWait += s.areaKVWait
		histTok += s.histTok
		histHit += s.histHit
		promptTok += s.promptTok
		promptHit += s.promptHit
		outTok += s.outTok
		inTok += s.inTok
		if len(ss) > 1 {
			recs = append(recs, s.measured...)
		}
	}
	res.Requests = len(recs)
	if histTok > 0 {
		res.HistoryReused = float64(histHit) / float64(histTok)
	}
	if promptTok > 0 {
		res.PromptCached = float64(promptHit) / float64(promptTok)
	}
	if span > 0 {
		res.OutputTokPerS = float64(outTok) / span
		res.TotalTokPerS = float64(outTok+inTok) / span
		res.MeanRunning = areaRun / span
		res.MeanWaiting = areaWait / span
		res.MeanKVWaiting = areaKVWait / span
		res.MeanStepS = busy / float64(max(1, res.Steps))
	}
	// One buffer serves every distribution in turn; TTFT's sorted values
	// give both its percentiles and its quantiles.
	v := make([]float64, len(recs))
	sorted := func(f func(simRecord) float64) []float64 {
		for i, r := range recs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v
	}
	res.TTFTSteps = ttftSteps(recs)
	var ttft []float64
	if len(ss) > 1 && mergeSorted(v, ss) {
		ttft = v // the runs' own sorted TTFTs, merged
	} else {
		ttft = sorted(func(r simRecord) float64 { return r.ttft })
	}
	if len(ss) == 1 && ss[0].keepTTFT {
		ss[0].ttftSorted = slices.Clone(ttft)
	}
	res.TTFTQuantiles = quantiles(ttft)
	if latencies {
		res.TTFT = percentilesOf(ttft)
		res.TPOT = tpotPercentiles(sorted(func(r simRecord) float64 { return r.tpot }))
		res.E2E = percentilesOf(sorted(func(r simRecord) float64 { return r.e2e }))
		res.TTFTParts = ttftParts(recs)
	}
	return res
}

// mergeSorted fills v with the TTFTs of every run of ss in increasing
// order by merging the runs' own sorted TTFTs (simulator.ttftSorted),
// where each run kept them and none holds a NaN or a negative zero: the
// values are then in a strict total order in which equal values have
// equal bits, so the merge is the very slice slices.Sort gives. False
// (v untouched) otherwise.
func mergeSorted(v []float64, ss []*simulator) bool {
	n := 0
	for _, s := range ss {
		if len(s.ttftSorted) != len(s.measured) {
			return false
		}
		for _, x := range s.ttftSorted {
			if x != x || (x == 0 && math.Signbit(x)) {
				return false
			}
		}
		n += len(s.ttftSorted)
	}
	if n != len(v) {
		return false
	}
	if n == 0 {
		return true
	}
	// The runs side by side in v, then adjacent sorted segments merged
	// pairwise, back and forth between v and a scratch slice.
	bounds := make([]int, 0, len(ss)+1)
	at := 0
	for _, s := range ss {
		bounds = append(bounds, at)
		at += copy(v[at:], s.ttftSorted)
	}
	bounds = append(bounds, at)
	src, dst := v, make([]float64, len(v))
	for len(bounds) > 2 {
		next := bounds[:0:0]
		for i := 0; i+1 < len(bounds); i += 2 {
			lo := bounds[i]
			next = append(next, lo)
			if i+2 >= len(bounds) {
				copy(dst[lo:bounds[i+1]], src[lo:bounds[i+1]]) // the odd one out
				continue
			}
			mergeTwo(dst[lo:bounds[i+2]], src[lo:bounds[i+1]], src[bounds[i+1]:bounds[i+2]])
		}
		next = append(next, bounds[len(bounds)-1])
		bounds, src, dst = next, dst, src
	}
	if &src[0] != &v[0] {
		copy(v, src)
	}
	return true
}

// mergeTwo merges the sorted a and b into dst (len(a)+len(b) long).
func mergeTwo(dst, a, b []float64) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if b[j] < a[i] {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// ttftParts is the mean of each TTFT part over the records.
func ttftParts(recs []simRecord) TTFTParts {
	var p TTFTParts
	if len(recs) == 0 {
		return p
	}
	for _, r := range recs {
		p.FrontendS += r.frontend
		p.QueueS += r.queue
		p.PrefillS += r.prefill
		p.PromptS += r.prompt
	}
	n := float64(len(recs))
	p.FrontendS, p.QueueS, p.PrefillS, p.PromptS = p.FrontendS/n, p.QueueS/n, p.PrefillS/n, p.PromptS/n
	return p
}

// ttftSteps is the mean of each step count of the records.
func ttftSteps(recs []simRecord) TTFTSteps {
	var st TTFTSteps
	if len(recs) == 0 {
		return st
	}
	var chunks, decodes float64
	for _, r := range recs {
		st.QueueSteps += float64(r.queueSteps)
		st.PrefillSteps += float64(r.prefillSteps)
		chunks += float64(r.chunks)
		decodes += float64(r.rideDecodes)
	}
	n := float64(len(recs))
	st.QueueSteps, st.PrefillSteps, st.ChunkSteps = st.QueueSteps/n, st.PrefillSteps/n, chunks/n
	if chunks > 0 {
		st.ChunkDecodes = decodes / chunks
	}
	return st
}

// quantiles are the nearest-rank k/CDFPoints quantiles of the sorted
// values v (zero without values).
func quantiles(v []float64) (out [CDFPoints]float64) {
	if len(v) == 0 {
		return out
	}
	for k := range out {
		out[k] = v[max(0, int(math.Ceil(float64(k+1)/CDFPoints*float64(len(v))))-1)]
	}
	return out
}

// percentilesOf reads the nearest-rank percentiles and the mean of the
// sorted values v (the mean summed in sorted order, as it always was).
func percentilesOf(v []float64) Percentiles {
	if len(v) == 0 {
		return Percentiles{}
	}
	q := func(p float64) float64 { return v[max(0, int(math.Ceil(p*float64(len(v))))-1)] }
	var sum float64
	for _, x := range v {
		sum += x
	}
	return Percentiles{Mean: sum / float64(len(v)), P50: q(0.50), P90: q(0.90), P95: q(0.95), P99: q(0.99)}
}
