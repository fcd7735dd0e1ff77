package bench

// vLLM's result keys, as read in the client's source:
//
//   - vllm/benchmarks/serve.py (`vllm bench serve`) at commit 009e6d4a
//     (2026): date, endpoint_type, backend, label, model_id, tokenizer_id,
//     num_prompts, request_rate ("inf" as a string), burstiness,
//     max_concurrency (null without a cap), optional ramp_up_* keys, the
//     benchmark's duration, completed, failed, total_input_tokens,
//     total_output_tokens, request_throughput, request_goodput,
//     output_throughput, total_token_throughput, max_output_tokens_per_s,
//     max_concurrent_requests, rtfx, per-request lists (only with
//     --save-detailed, apart from latencies, queue_times), spec_decode_*,
//     diffusion_* and probe_* keys, and {mean,median,std,pN}_{metric}_ms for
//     ttft, tpot, itl, e2el (and the client-queue metrics with a cap);
//     --metadata KEY=VALUE adds string keys at the top level;
//   - benchmarks/benchmark_serving.py at commit 0049e29c (2025): the same
//     without endpoint_type, label, failed and the peak keys, with the key
//     "request_goodput:" (a stray colon);
//   - the 2024 script (copies of it read; the vLLM release that last
//     shipped it is not pinned — unverified): "request_inthroughput" and
//     input_throughput instead of request_throughput.
var vllmIgnored = []string{
	"tokenizer_id", "request_goodput", "request_goodput:", "input_throughput", "max_output_tokens_per_s",
	"max_concurrent_requests", "rtfx", "ttfts", "itls", "latencies", "start_times",
	"queue_times", "generated_texts", "errors", "ramp_up_start_rps", "ramp_up_end_rps", "rps_change_events",
	"version", "best_of", "use_beam_search", "probe_completed", "probe_failed", "probe_median_e2el_ms",
	"probe_p99_e2el_ms", "probe_max_e2el_ms", "spec_decode_acceptance_rate", "spec_decode_num_drafts",
	"spec_decode_draft_tokens", "spec_decode_accepted_tokens", "spec_decode_per_position_acceptance_rates",
	"diffusion_committed_throughput", "diffusion_steps_per_canvas", "diffusion_committed_per_step",
	"diffusion_committed_tokens", "diffusion_denoising_steps", "diffusion_canvas_positions",
	// `vllm bench sweep serve` adds run_number to each run's result
	// (vllm/benchmarks/sweep/serve.py _update_run_data, commit 0031557f).
	"run_number",
}

// vllmMetrics are the metric parts of vLLM's statistic keys.
var vllmMetrics = map[string]bool{"ttft": true, "tpot": true, "itl": true, "e2el": true,
	"client_queue_time": true, "e2el_including_client_queue": true}

// parseVLLM reads one vLLM result object.
func parseVLLM(o *object) (Result, error) {
	r := Result{Format: FormatVLLMScript}
	if o.has("endpoint_type") {
		r.Format = FormatVLLM
	}
	r.Date, r.Label, r.Model = o.str("date"), o.str("label"), o.str("model_id")
	r.Backend = o.str("backend")
	if r.Backend == "" {
		r.Backend = o.str("endpoint_type")
	}
	o.str("endpoint_type")
	var a arrivals
	a.rate, a.unlimited, a.rateKnown = o.rate("request_rate")
	a.trace = o.traced("request_rate")
	a.burstiness = o.nonNeg("burstiness")
	a.burstKnown = a.burstiness > 0
	a.maxConc, _ = o.count("max_concurrency")
	a.concStated = o.has("max_concurrency")
	a.rampUp = o.str("ramp_up_strategy")
	numPrompts, hasNum := o.count("num_prompts")
	readCommon(o, &r)
	var hasFailed bool
	r.Failed, hasFailed = o.count("failed")
	r.RequestsPerS = o.nonNeg("request_throughput")
	if r.RequestsPerS == 0 {
		r.RequestsPerS = o.nonNeg("request_inthroughput")
	}
	r.TotalTokPerS = o.nonNeg("total_token_throughput")
	o.stats(map[string]*Stat{"ttft": &r.TTFT, "tpot": &r.TPOT, "itl": &r.ITL, "e2el": &r.E2E}, vllmMetrics)
	r.SpecAcceptance, _ = o.num("spec_decode_acceptance_length")
	readIgnored(o, vllmIgnored)
	if o.err != nil {
		return r, o.err
	}
	a.prompts = sent(r.Completed, r.Failed, hasFailed, numPrompts, hasNum)
	r.Load, r.concUnstated = a.load(), !a.concStated
	r.Notes = append(r.Notes, a.assumedNotes()...)
	r.Metadata, r.Notes = metadata(o, r.Notes)
	return r, check(&r, numPrompts, hasNum)
}

// readCommon reads the keys vLLM and SGLang share.
func readCommon(o *object, r *Result) {
	r.DurationS = o.need("duration")
	c := o.need("completed")
	in, out := o.need("total_input_tokens"), o.need("total_output_tokens")
	r.OutputTokPerS = o.nonNeg("output_throughput")
	if o.err != nil {
		return
	}
	r.Completed, _ = o.count("completed")
	if _, ok := o.count("total_input_tokens"); !ok && o.err == nil {
		o.fail("total_input_tokens", "want a whole number")
	}
	if _, ok := o.count("total_output_tokens"); !ok && o.err == nil {
		o.fail("total_output_tokens", "want a whole number")
	}
	if c > 0 {
		r.Shape.InputTokens, r.Shape.OutputTokens = in/c, out/c
	}
	readLengths(o, &r.Shape)
}

// readIgnored marks keys the parser knows and does not use.
func readIgnored(o *object, keys []string) {
	for _, k := range keys {
		o.read[k] = true
	}
}

// sent is how many requests the run sent: completed plus failed where the
// client records failures, else the number of prompts asked for (at least
// the completed ones).
func sent(completed, failed int, hasFailed bool, numPrompts int, hasNum bool) int {
	if hasFailed || !hasNum {
		return completed + failed
	}
	return max(numPrompts, completed)
}
