package sim

import "math"

// Sessions with history (Config.SessionTokens): each closed-loop session
// is a conversation whose turns follow input.Conversation.History — a turn
// of in + out tokens starts from the history so far while it fits within
// SessionTokens, else from nothing — so a turn's prompt is its history
// plus its new input, and a running turn holds KV for, and decodes over,
// its whole context.
//
// What vLLM's V1 engine does with the history (vllm-project/vllm
// vllm/v1/core/kv_cache_manager.py get_computed_blocks @003df296: the
// longest run of cached full blocks of the prompt, at most its length −
// 1; vllm/v1/core/single_type_kv_cache_manager.py @129ab7c6:
// get_num_blocks_to_allocate counts a hit block that sits in the free
// queue as taking a free block, allocate_new_computed_blocks touches it
// out of the queue, free() returns a finished request's blocks "in
// reverse order so that the tail blocks are freed first";
// vllm/v1/core/block_pool.py @002f3491: get_new_block(s) pops the free
// queue's front and evicts the block's cached hash, free_blocks appends
// to its tail): a finished turn's blocks stay cached in the free queue,
// behind the blocks free before them, until allocations pop them; its
// last blocks go first, its first blocks last, so what survives is a
// prefix of the history. A new turn then computes only what is not cached,
// but admission still needs room for its whole context: hit blocks in the
// free queue count as taken.
//
// The simulator counts, per rank, the units ever allocated from the free
// queue (simRank.popped; a hit takes none). When a turn finishes, the
// free queue holds capacity − kvUsed units ahead of its u units, so its
// blocks leave the queue as popped passes popped + (capacity − kvUsed) +
// u, last block first: at the next turn end − popped units of it are
// still cached, a prefix of its context. The next turn's prompt finds the
// full blocks of that prefix within its history (at most prompt − 1
// tokens) when it is admitted on the same rank: vLLM's DP load balancer
// routes by queue lengths, not by prefix (dplb.go), so on another rank
// the history is recomputed. Hits that leave the queue from its middle
// move the blocks behind them forward in vLLM, which this count ignores:
// it evicts a history no later than vLLM would, so it never overstates
// the cache. A session's first turn in a steady run starts at a uniformly
// drawn turn of its conversation with nothing cached. A layout with state
// pages (KVCost.Fixed: a hybrid's Mamba state) has no hits here: its
// prefix caching is release- and model-specific (vllm.
// StatePagesPerRequestFor).

// sessState is one session's conversation: the history its next turn
// starts from, and where its last turn's blocks were left cached (at nil:
// nowhere) — end is the rank's popped count at which they are all
// evicted, units their size, held the tokens they held.
type sessState struct {
	hist  int
	at    *simRank
	end   int
	units int
	held  int
}

// startConversations gives every closed-loop session its conversation
// when Config.SessionTokens asks for history (else sess stays nil): in a
// steady run each starts at a turn drawn uniformly from a conversation of
// the configured lengths; a finite run (Pool) starts every conversation
// afresh, as a benchmark's clients do.
func (s *simulator) startConversations() {
	c := s.cfg
	if c.Sessions <= 0 || c.SessionTokens <= c.InputTokens+c.OutputTokens {
		return
	}
	s.conv.Limit = c.SessionTokens
	s.sess = make([]sessState, c.Sessions)
	if c.Pool > 0 {
		return
	}
	turns := s.conv.Turns(c.InputTokens, c.OutputTokens)
	for i := range s.sess {
		s.sess[i].hist = s.rng.IntN(turns) * (c.InputTokens + c.OutputTokens)
	}
}

// nextTurn makes r, a session's next request, a turn of its conversation:
// its prompt is the history (input.Conversation.History) plus its input.
func (s *simulator) nextTurn(r *simReq) {
	st := &s.sess[r.session]
	st.hist = s.conv.History(st.hist, r.input, r.output)
	if st.hist == 0 {
		st.at = nil // a new conversation: nothing of it is cached
	}
	r.hist = st.hist
	r.prompt = st.hist + r.input
}

// release records where finished request r of rank rk leaves its blocks
// (before rk.kvUsed drops them), and the history its session's next turn
// starts from.
func (s *simulator) release(rk *simRank, r *simReq) {
	st := &s.sess[r.session]
	st.hist = r.hist + r.input + r.output
	st.at, st.units, st.held = rk, r.blocks, r.prompt+r.ctxExtra
	st.end = math.MaxInt
	if s.kv.capacity != math.MaxInt {
		st.end = rk.popped + (s.kv.capacity - rk.kvUsed) + r.blocks
	}
}

// preempted records where preempted request r of rank rk leaves its
// blocks (before rk.kvUsed drops them): vLLM frees them as it frees a
// finished request's, so its readmission finds what survives of them
// (historyHit), where the simulator without sessions recomputes all of it.
func (s *simulator) preempted(rk *simRank, r *simReq) {
	st := &s.sess[r.session]
	st.at, st.units, st.held = rk, r.blocks, r.done+r.genCtx()
	st.end = math.MaxInt
	if s.kv.capacity != math.MaxInt {
		st.end = rk.popped + (s.kv.capacity - rk.kvUsed) + r.blocks
	}
}

// historyHit is how many of waiting request r's prompt tokens rank rk
// finds in its prefix cache, and the units they take: the full blocks of
// its history (of what it had computed, once preempted) that survive
// there, at most its prompt − 1 tokens; none without PrefixCaching.
func (s *simulator) historyHit(rk *simRank, r *simReq) (tokens, units int) {
	if !s.cfg.PrefixCaching || (r.hist <= 0 && !r.begun) {
		return 0, 0
	}
	st := &s.sess[r.session]
	if st.at != rk {
		return 0, 0
	}
	left := min(st.units, st.end-rk.popped)
	if left <= 0 {
		return 0, 0
	}
	limit := min(st.held, r.prompt-1)
	if !r.begun {
		limit = min(limit, r.hist)
	}
	n := s.kv.tokensWithin(left, limit)
	if n <= 0 {
		return 0, 0
	}
	return n, s.kv.units(n)
}

// tokensWithin is the most tokens, in whole blocks of the first cache
// group and at most limit, whose cost fits u units (0 for a layout with a
// fixed part: state pages are not prefix-cached here).
func (m *kvModel) tokensWithin(u, limit int) int {
	if m.fixed > 0 || len(m.terms) == 0 || limit <= 0 {
		return 0
	}
	b := m.terms[0].block
	lo, hi := 0, limit/b
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.units(mid*b) <= u {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo * b
}
