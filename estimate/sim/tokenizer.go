package sim

import "github.com/vlaunch/vlaunch/vllm"

// The API server's tokenizer thread (Frontend.Tokenizer off the loop). From
// vLLM 0.6.5 a request's handler parses it and renders its chat template
// on the event loop, then hands the prompt's encode to a one-thread
// executor and awaits it, so the loop parses the next request while the
// thread encodes this one: two servers in a row, the loop then the thread
// (vllm.TokenizeThread). On 0.10.0–0.23.x the thread is fed by
// AsyncMicrobatchTokenizer's batcher (vllm.TokenizeMicrobatch): it takes
// the first queued prompt once the thread is free, waits up to
// Frontend.ReadyDelayS (batch_wait_timeout_s) for more — the ones queued
// meanwhile, while the previous batch ran included — up to
// vllm.TokenizerMaxBatch, and encodes them in one batched call that
// HuggingFace's fast tokenizer spreads over rayon's threads, one prompt a
// thread: the batch takes as long as its longest prompt. That assumes the
// API server's host has a core for each of a batch's prompts (rayon's
// global pool has a thread per logical CPU; the calibration's hosts are
// 8-GPU servers with dozens of cores, and a batch holds at most 32); a
// host with fewer, or encode_batch's sub-linear scaling on many cores
// (huggingface/tokenizers issue #1929), would make it longer.

// tokThread is a front end's tokenizer thread: end is when its latest
// batch (or prompt) is encoded; a micro-batch still taking prompts (open)
// was taken at take, is dispatched to the thread at dispatch, holds the
// last n requests of the front end's ingest queue and encodes for longest
// (its longest prompt's encode).
type tokThread struct {
	end                     float64
	open                    bool
	take, dispatch, longest float64
	n                       int
}

// tokenize queues the encode of a request's prompt, w seconds of the
// thread (its share over the API servers), that reaches the thread at e
// (the loop has run its handler), and returns when it is encoded. A
// request joining an open micro-batch moves the batch's end, and so the
// ready times of the batch's requests queued before it (settleBatch).
func (s *simulator) tokenize(e, w float64) float64 {
	t := &s.tok
	if s.cfg.Frontend.Tokenizer != vllm.TokenizeMicrobatch {
		t.end = max(e, t.end) + w
		return t.end
	}
	if t.open && e <= t.dispatch && t.n <= len(s.ingest) {
		t.n++
		t.longest = max(t.longest, w)
		if t.n >= vllm.TokenizerMaxBatch { // full: the batcher stops waiting
			t.dispatch, t.open = max(t.take, e), false
		}
		t.end = t.dispatch + t.longest
		s.settleBatch()
		return t.end
	}
	t.take = max(e, t.end) // the batcher takes it once the thread is free
	t.dispatch = t.take + s.cfg.Frontend.ReadyDelayS
	t.longest, t.n, t.open = w, 1, vllm.TokenizerMaxBatch > 1
	t.end = t.dispatch + w
	return t.end
}

// settleBatch gives the requests of the open micro-batch already queued
// (all but the one joining it) the batch's end, plus each one's own
// process's rest of the encode (apiServerLatency), in queue order.
func (s *simulator) settleBatch() {
	f := s.cfg.Frontend
	first := len(s.ingest) - (s.tok.n - 1)
	prev := 0.0
	if first > 0 {
		prev = s.ingest[first-1].ready
	}
	for i := first; i < len(s.ingest); i++ {
		q := &s.ingest[i]
		q.ready = max(s.tok.end+f.apiServerLatency(f.PromptTokenS*float64(q.input+q.hist)), prev)
		prev = q.ready
	}
	s.lastReady = prev
}

// dropHandedOver forgets an open micro-batch some of whose requests the
// front end has handed to the engine (their ready times are spent): later
// prompts start a batch of their own.
func (s *simulator) dropHandedOver() {
	if s.tok.open && s.tok.n > len(s.ingest) {
		s.tok.open = false
	}
}

// arriveOffLoop is arrive for a front end whose tokenizer thread encodes
// the prompts (Frontend.offLoop): the loop runs the request's handler
// after the work queued before it, then the thread encodes its prompt.
func (s *simulator) arriveOffLoop(r *simReq) {
	f := s.cfg.Frontend
	loop := f.loopS()
	r.loopStart = max(s.feFree, r.arrival)
	s.feFree = r.loopStart + loop
	enc := f.PromptTokenS * float64(r.input+r.hist)
	done := s.tokenize(s.feFree+f.apiServerLatency(loop), enc)
	wait := 0.0
	if f.Tokenizer != vllm.TokenizeMicrobatch {
		wait = f.ReadyDelayS // the batcher's wait is inside its batches
	}
	r.ready = max(done+f.apiServerLatency(enc)+wait, s.lastReady)
	s.lastReady = r.ready
}
