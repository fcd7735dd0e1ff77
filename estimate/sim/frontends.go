package sim

import "math"

// A front end per DP rank (Frontend.PerRank). Behind an external router
// each DP rank is a `vllm serve --data-parallel-rank R` of its own
// (vLLM's external DP load balancing, vllm.Release.ExternalLBLaunch), and
// runs its own API server(s): vLLM 0.11.0's vllm/entrypoints/cli/serve.py
// (tag b8b302cde434) starts a rank's API servers for that rank's engine
// alone (run_multi_api_server's `assert external_dp_lb or hybrid_dp_lb or
// dp_rank == 0`; an unset --api-server-count is one). The router picks a
// rank when the request arrives and sends it to that rank's port, so the
// request is ingested by that rank's API server and its tokens are
// streamed back by it: DP front ends, each with its own queue, not one
// pool of DP × count processes that any request may reach. A burst the
// router spreads evenly then costs each front end its share of the
// requests; a router that sends a rank more (cache_aware's affinity)
// queues them at that rank's front end.

// frontEnd is one front end's state (one API-server group: the whole
// deployment's, or a rank's with Frontend.PerRank).
type frontEnd struct {
	// ingest holds requests the front end has not yet handed to the
	// engine, in order (their ready times do not decrease), ingestBase the
	// start of its backing array (pushBack); feFree is when the front end
	// finishes the work queued so far; roundStart and roundEnd bound its
	// latest round of ingests (joinRound), whose requests are the last
	// openN of ingest, their ready times due to be set to its end
	// (settleRound); lastOut the delivery time of the latest output.
	ingest, ingestBase   []simReq
	feFree               float64
	roundStart, roundEnd float64
	openN                int
	lastOut              float64
	// lastReady is the latest ready time the front end has given a
	// request (Frontend.apiServerLatency keeps them in order).
	lastReady float64
	// tok is its tokenizer thread (Frontend.offLoop; tokenizer.go).
	tok tokThread
}

// startFronts gives every DP rank a front end of its own where the
// configuration asks for it (Frontend.PerRank with a router routing over
// DP > 1 ranks and a front end that costs something).
func (s *simulator) startFronts() {
	if !s.cfg.Frontend.PerRank || s.router == nil || !s.cfg.Frontend.active() {
		return
	}
	s.fronts = make([]frontEnd, len(s.ranks))
	for i := range s.fronts {
		s.fronts[i] = frontEnd{roundStart: math.Inf(-1)}
	}
	s.fronts[0] = s.frontEnd // the buffers it was given
	s.feCur = 0
}

// useFront makes front end g the one the front-end code works on: the
// embedded frontEnd holds it, fronts[feCur] is stale until the next
// switch.
func (s *simulator) useFront(g int) {
	if s.fronts == nil || g == s.feCur {
		return
	}
	s.fronts[s.feCur] = s.frontEnd
	s.frontEnd, s.feCur = s.fronts[g], g
}

// frontOf is front end g, wherever it is held.
func (s *simulator) frontOf(g int) *frontEnd {
	if s.fronts == nil || g == s.feCur {
		return &s.frontEnd
	}
	return &s.fronts[g]
}

// frontCount is the number of front ends.
func (s *simulator) frontCount() int { return max(1, len(s.fronts)) }

// routeToFront routes an arriving request with per-rank front ends: the
// router picks its rank now, its load counting the requests that rank's
// API server has not yet handed over (vllm-router counts a worker's load
// from dispatch to the end of its response), and the request queues at
// that rank's front end. Without per-rank front ends the request is
// routed when it reaches the engine (enqueue).
func (s *simulator) routeToFront(r *simReq) {
	if s.fronts == nil {
		return
	}
	g := s.router.routeRank(r, s.frontLoad, len(s.ranks))
	r.front = int32(g)
	s.useFront(g)
}

// frontLoad is rank i's requests in flight as its router sees them: in
// its API server's queue, waiting or running at its engine.
func (s *simulator) frontLoad(i int) int { return s.rankLoad(i) + len(s.frontOf(i).ingest) }

// ingested is the number of requests the front ends have not handed over.
func (s *simulator) ingested() int {
	n := 0
	for g := range s.frontCount() {
		n += len(s.frontOf(g).ingest)
	}
	return n
}

// nextReady is the earliest time a front end hands a request over (+Inf:
// none queued).
func (s *simulator) nextReady() float64 {
	next := math.Inf(1)
	for g := range s.frontCount() {
		if f := s.frontOf(g); len(f.ingest) > 0 {
			next = math.Min(next, f.ingest[0].ready)
		}
	}
	return next
}

// lastDelivered is when the latest output was delivered, over the front
// ends.
func (s *simulator) lastDelivered() float64 {
	t := s.lastOut
	for g := range s.frontCount() {
		t = max(t, s.frontOf(g).lastOut)
	}
	return t
}

// rankOutputs is the number of rank i's requests the step that just
// ended gives an output token (s.outputs, for the rank alone).
func (s *simulator) rankOutputs(i int) int {
	n := 0
	for j := range s.ranks[i].running {
		if r := &s.ranks[i].running[j]; r.sched > 0 && r.done+r.sched >= r.prompt {
			n++
		}
	}
	return n
}
