package sim

import "math"

// SGLang admits a waiting prompt only if the KV pool holds it beside what
// the running requests are expected to decode yet (Config.ReserveDecodes).
// sgl-project/sglang python/sglang/srt/managers/schedule_policy.py,
// PrefillAdder (read in stored copies of the file, not at the v0.5.4.post2
// tag the GPUStack rows ran: the tag could not be fetched here; the rule
// below is the same in the copies read, before and after the budget was
// moved into a memory_budget object):
//
//   - rem_total_tokens = free + evictable tokens − rem_total_token_offset,
//     the offset starting at Σ over the running batch of
//     min(max_new_tokens − len(output_ids), CLIP_MAX_NEW_TOKENS) ×
//     new_token_ratio;
//   - add_one_req refuses a prompt (NO_TOKEN, and the batch ends there) when
//     its extend_input_len + min(max_new_tokens, CLIP_MAX_NEW_TOKENS) ≥
//     rem_total_tokens, and an admitted one adds its extend length and
//     min(max_new_tokens, CLIP) — unscaled — to the offset
//     (_update_prefill_budget);
//   - CLIP_MAX_NEW_TOKENS is SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION, 4,096.
//
// new_token_ratio is the scheduler's (python/sglang/srt/managers/
// scheduler.py; its defaults in python/sglang/srt/environ.py, earlier in
// python/sglang/global_config.py): it starts at SGLANG_INIT_NEW_TOKEN_RATIO
// 0.7 (× --schedule-conservativeness, 1.0), falls by (0.7 − 0.7 ×
// SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14) / SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS
// 600 after each decode batch that found room, down to 0.098; is reset to
// 0.7 when the scheduler finds nothing to run (self_check_during_idle); and
// after a decode batch that had to retract requests is set to
// (Σ decoded tokens + SGLANG_RETRACT_DECODE_STEPS 20 × requests) /
// Σ max_new_tokens over the batch (ScheduleBatch.retract_decode), at most 1.
//
// A request's max_new_tokens is its output length here: the clients that
// ran these rows send each request's dataset output length as max_tokens.

// SGLang's new_token_ratio schedule and estimate clip (see above).
const (
	initTokenRatio    = 0.7
	minTokenRatio     = initTokenRatio * 0.14
	tokenRatioDecay   = (initTokenRatio - minTokenRatio) / 600
	retractSteps      = 20
	clipMaxNewTokens  = 4096
	maxTokenRatioOnce = 1.0
)

// UseDecodeReserve applies Config.ReserveDecodes (SGLang's admission
// reserve) where a configuration asks for it. Off: prompts are admitted
// while the pool holds their chunk, as vLLM does.
var UseDecodeReserve = true

// reserving reports whether rank admission reserves for decodes.
func (s *simulator) reserving() bool {
	return UseDecodeReserve && s.cfg.ReserveDecodes && s.cfg.Policy == PrefillFirst
}

// ratio is the rank's new_token_ratio.
func (rk *simRank) ratio() float64 {
	if rk.tokenRatio <= 0 {
		return initTokenRatio
	}
	return rk.tokenRatio
}

// decodeReserve is the pool units the running requests of rk are expected
// to take yet (PrefillAdder's starting offset): for each, its remaining
// output clipped to 4,096 tokens × the ratio, beyond what it holds; for a
// prompt still being prefilled, its remaining prompt and its clipped
// output in full (it was admitted with them).
func (s *simulator) decodeReserve(rk *simRank) int {
	q := rk.ratio()
	u := 0
	for i := range rk.running {
		r := &rk.running[i]
		if r.done < r.prompt {
			u += s.withOutput(r) - s.kv.units(r.done)
			continue
		}
		held := r.prompt + r.ctxExtra
		more := int(math.Ceil(float64(min(max(r.output-r.out, 0), clipMaxNewTokens)) * q))
		u += s.kv.units(held+more) - s.kv.units(held)
	}
	return u
}

// admitReserved is add_one_req's token check for request r with hit
// prompt tokens cached, against the running requests' reserve and what
// this step admitted already (reserved): false (NO_TOKEN) when its prompt
// and clipped output do not fit the rest. A rank with nothing running and
// nothing admitted takes a request its pool holds at all (the simulation
// must not stall on a request SGLang would have refused at its tokenizer).
func (s *simulator) admitReserved(rk *simRank, r *simReq, reserved int, first bool) bool {
	if first && len(rk.running) == 0 {
		return true
	}
	return rk.kvUsed+reserved+s.withOutput(r) < s.kv.capacity
}

// withOutput is the units request r takes with its whole prompt and its
// output clipped to 4,096 tokens (what an admitted request adds to the
// offset, less the units it holds).
func (s *simulator) withOutput(r *simReq) int {
	return s.kv.units(r.prompt + min(r.output, clipMaxNewTokens))
}

// afterDecodes moves rank rk's ratio after a decode batch: down by the
// decay when it found room, to the retraction estimate when it had to
// preempt the retracted requests now at the front of its queue (the batch
// was those and the ones still running).
func (rk *simRank) afterDecodes(retracted int) {
	if retracted <= 0 {
		rk.tokenRatio = max(minTokenRatio, rk.ratio()-tokenRatioDecay)
		return
	}
	decoded, maxNew := 0, 0
	batch := len(rk.running) + min(retracted, len(rk.waiting))
	for _, q := range [][]simReq{rk.running, rk.waiting[:min(retracted, len(rk.waiting))]} {
		for i := range q {
			decoded += q[i].out
			maxNew += q[i].output
		}
	}
	if maxNew <= 0 {
		return
	}
	rk.tokenRatio = min(maxTokenRatioOnce, float64(decoded+retractSteps*batch)/float64(maxNew))
}

// reserveHeld reports a rank whose waiting requests the reserve holds
// back: the ratio falls every decode step, so any step may admit them, and
// no steady segment may span them.
func (s *simulator) reserveHeld() bool {
	if !s.reserving() {
		return false
	}
	for i := range s.ranks {
		if rk := &s.ranks[i]; rk.kvHeld && len(rk.waiting) > 0 {
			return true
		}
	}
	return false
}

// decaySegment applies the ratio's decay to the decode steps of a steady
// segment of m steps beyond its first (whose schedule applied it).
func (s *simulator) decaySegment(m int) {
	if !s.reserving() || m <= 1 {
		return
	}
	for i := range s.ranks {
		if rk := &s.ranks[i]; len(rk.running) > 0 {
			rk.tokenRatio = max(minTokenRatio, rk.ratio()-float64(m-1)*tokenRatioDecay)
		}
	}
}
