package perf

import "math"

// Pipeline parallelism: how a step's work goes through PP stages (qa44b F1).
//
// vLLM V1 keeps up to PP scheduler outputs in flight under PP: EngineCore's
// batch queue has max_concurrent_batches entries (vllm/v1/executor/
// multiproc_executor.py: pipeline_parallel_size at v0.11.0, "PP requires
// PP-size concurrent batches to fill the pipeline" at v0.20.0), and
// step_with_batch_queue (vllm/v1/engine/core.py, both tags) schedules a new
// batch whenever the queue is not full, blocking on the oldest only when it
// is. Each scheduler output is one micro-batch: every request's tokens of
// that output run together through stage 1, then stage 2, and so on. What
// may sit in the next micro-batch:
//   - a decoding sequence: no; its next token is sampled by the last stage
//     and returns to the engine core first (num_new_tokens is 0 until then);
//   - the next chunk of a prompt: yes; Scheduler._update_after_schedule
//     advances num_computed_tokens at scheduling time "allowing us to
//     schedule the prefill request again immediately in the next scheduling
//     step" (vllm/v1/core/sched/scheduler.py, v0.11.0 and v0.20.0), so the
//     chunks of a long prompt follow each other one stage apart.
//
// So a micro-batch's latency is the sum over the stages (plus its hand-offs),
// and the pipeline's throughput one stage per micro-batch once the batch
// queue is full. A step of the model is a round in which every scheduled
// sequence advances once: its work splits into microBatches micro-batches
// (at most PP), each one stage's share of the time in turn, so the round
// takes PP × stage(load / micro-batches) plus the hand-offs (pipelineRound) —
// for decode and prefill alike. A lone prompt's last chunk is one
// micro-batch and crosses every stage on its own (PP × its stage time),
// where the division by PP had it half as long at PP 2 (TP8 × PP2
// Llama-405B FP8, 2,000 tokens: 91.9 ms of GPU time, below the 102 ms FP8
// floor); chunks with more of the prompt behind them keep the pipeline
// full and cost one stage each.

// microBatches is how many micro-batches the step's busiest pipeline
// keeps in flight: each DP rank is an engine of its own with its own batch
// queue, so each splits its own work (RankLoad.microBatchCount); the most
// of any rank with tokens (PP for a step with none, 1 without PP). The
// hand-offs are counted by it (networkTime).
func (sm *StepModel) microBatches(runs []RankRun) float64 {
	pp := float64(sm.S.PP)
	if pp <= 1 {
		return 1
	}
	m := 0.0
	eachLoad(runs, func(l RankLoad) {
		if l.tokens(sm.S.SpecTokens) > 0 {
			m = max(m, l.microBatchCount(pp))
		}
	})
	if m == 0 {
		return pp
	}
	return m
}

// microBatchCount is how many micro-batches l's work fills through pp
// stages: PP when it holds enough independent work, fewer when it does
// not. Its units are its decoding sequences, its final prefill chunks, and
// PP for each chunk with more of its prompt to come (its successors fill
// the pipeline behind it).
func (l RankLoad) microBatchCount(pp float64) float64 {
	if pp <= 1 {
		return 1
	}
	return min(pp, max(1, math.Floor(l.pipelineUnits(pp))))
}

// stageLoad is the micro-batch of l that sets its pipeline's pace: the
// busiest of the microBatchCount micro-batches its work splits into (l
// itself without PP).
func (l RankLoad) stageLoad(pp float64) RankLoad {
	return l.microBatch(l.microBatchCount(pp))
}

// pipelineUnits is how many micro-batches l's work can be cut into: one per
// decoding sequence and per final prefill chunk (vLLM never splits one
// request's scheduled tokens), pp per chunk with more to come.
func (l RankLoad) pipelineUnits(pp float64) float64 {
	final := min(max(0, l.PrefillFinal), l.PrefillSeqs)
	return l.DecodeSeqs + final + pp*(l.PrefillSeqs-final)
}

// pipelineRound is the GPU time of a step through pp stages run in turn:
// each of the step's micro-batches takes stage per stage (the stage time
// of one micro-batch, StepTime's per-stage rooflines), so the round is pp
// stage times, plus the hand-offs between the stages (StepTime.PPS).
// Decode and prefill steps both take this path (stepWith).
func pipelineRound(pp, stage, handoffs float64) float64 {
	return pp*stage + handoffs
}

// microBatch is the busiest of the mb micro-batches l's work splits into:
// 1/mb of its decodes and of its chunks with more to come, and whole final
// chunks — vLLM puts a request's scheduled tokens in one micro-batch, so the
// micro-batch that holds a prompt's last chunk holds all of it, and that
// micro-batch crosses every stage before the prompt's first token (with f
// final chunks, ⌈f/mb⌉ of them; their share of the prefill terms is taken
// by count).
func (l RankLoad) microBatch(mb float64) RankLoad {
	if mb <= 1 {
		return l
	}
	f := min(max(0, l.PrefillFinal), l.PrefillSeqs)
	if f <= 0 {
		return l.scaled(1 / mb)
	}
	fin := RankLoad{PrefillTokens: l.PrefillTokens, PrefillPairs: l.PrefillPairs, PrefillPrefix: l.PrefillPrefix,
		PrefillSeqs: l.PrefillSeqs, PrefillFinal: f}.scaled(f / l.PrefillSeqs)
	rest := l.plus(fin.scaled(-1)).scaled(1 / mb)
	return rest.plus(fin.scaled(min(1, math.Ceil(f/mb)/f)))
}

// plus is the sum of two loads, field by field.
func (l RankLoad) plus(o RankLoad) RankLoad {
	return RankLoad{l.DecodeSeqs + o.DecodeSeqs, l.DecodeCtx + o.DecodeCtx, l.PrefillTokens + o.PrefillTokens,
		l.PrefillPairs + o.PrefillPairs, l.PrefillPrefix + o.PrefillPrefix, l.PrefillSeqs + o.PrefillSeqs, l.PrefillFinal + o.PrefillFinal}
}

// microBatchFrac is the share of the busiest rank's tokens the busiest
// stage load carries (1/PP when every rank's work splits evenly into PP
// micro-batches; up to 1 for a lone final chunk): the fraction the step's
// communication and expert terms are priced at.
func (sm *StepModel) microBatchFrac(runs []RankRun) float64 {
	pp := float64(sm.S.PP)
	if pp <= 1 {
		return 1
	}
	var all, part float64
	eachLoad(runs, func(l RankLoad) {
		all = max(all, l.tokens(sm.S.SpecTokens))
		part = max(part, l.stageLoad(pp).tokens(sm.S.SpecTokens))
	})
	if all <= 0 {
		return 1 / pp
	}
	return part / all
}
