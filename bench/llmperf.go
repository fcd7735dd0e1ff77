package bench

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ray-project/llmperf's summary file ({model}_{in}_{out}_summary.json), as
// written by token_benchmark_ray.py at commit f1d6bed4 (2024-12): one
// object {version "2023-08-31", name, model, mean_input_tokens,
// stddev_input_tokens, mean_output_tokens, stddev_output_tokens,
// num_concurrent_requests, additional_sampling_params…, and
// metrics_summary() flattened under "results_"}:
//
//   - results_{m}_quantiles_p25 … _p99, _mean, _min, _max, _stddev for m in
//     inter_token_latency_s, ttft_s, end_to_end_latency_s (seconds),
//     request_output_throughput_token_per_s, number_input_tokens,
//     number_output_tokens, over the requests without an error; the file is
//     written with json.dump(default=str), so numpy integers (the token
//     counts' min and max) are strings;
//   - results_num_requests_started (errors included), results_number_errors,
//     results_mean_output_throughput_token_per_s (output tokens over the
//     run's wall time), results_num_completed_requests and
//     results_num_completed_requests_per_min (completed over the wall time,
//     × 60).
//
// The load: num_concurrent_requests threads, each sending its next request
// when its previous one returns, until max_num_completed_requests completed
// or the timeout: a closed loop. inter_token_latency_s is the sum of every
// gap from the send, the first token's included, over the output tokens
// (src/llmperf/ray_clients/openai_chat_completions_client.py): about
// end-to-end latency over output tokens, not vLLM's TPOT, so it is not
// read. Token counts are LLMPerf's own, with the
// hf-internal-testing/llama-tokenizer, not the served model's tokenizer.

// isLLMPerf reports whether o is an LLMPerf summary.
func isLLMPerf(o *object) bool {
	return o.has("results_num_completed_requests") || (o.has("num_concurrent_requests") && o.has("results_ttft_s_mean"))
}

// lpNum reads a number LLMPerf may have written as a string
// (json.dump(default=str) of a numpy scalar).
func lpNum(o *object, key string) (float64, bool) {
	raw, ok := o.raw(key)
	if !ok {
		return 0, false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v != v || v > 1e300 || v < -1e300 {
			o.fail(key, "want a number, got %q", clipText(s))
			return 0, false
		}
		return v, true
	}
	return o.num(key)
}

// lpStat reads results_{metric}_{mean,stddev,quantiles_pNN} times scale.
func lpStat(o *object, metric string, scale float64) (Stat, error) {
	prefix := "results_" + metric + "_"
	st := Stat{}
	for _, k := range o.sortedKeys() {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		name := ""
		switch {
		case rest == "mean":
			name = "mean"
		case rest == "stddev":
			name = "std"
		case strings.HasPrefix(rest, "quantiles_p"):
			name = strings.TrimPrefix(rest, "quantiles_")
			if name == "p50" {
				name = "median"
			} else if _, err := strconv.ParseFloat(name[1:], 64); err != nil || !validPercentile(name) {
				return nil, fmt.Errorf("%q: not a percentile", k)
			}
		default: // min, max
			lpNum(o, k)
			continue
		}
		v, ok := lpNum(o, k)
		if o.err != nil {
			return nil, o.err
		}
		if !ok {
			continue
		}
		if v < 0 {
			return nil, fmt.Errorf("%q: negative %g", k, v)
		}
		st[name] = v * scale
	}
	if len(st) == 0 {
		return nil, nil
	}
	return st, nil
}

// parseLLMPerf reads one LLMPerf summary.
func parseLLMPerf(o *object) (Result, error) {
	r := Result{Format: FormatLLMPerf}
	r.Model = clipText(o.str("model"))
	r.Label = clipText(o.str("name"))
	var err error
	stat := func(metric string, scale float64) Stat {
		st, e := lpStat(o, metric, scale)
		err = firstErr(err, e)
		return st
	}
	r.TTFT = stat("ttft_s", 1000)
	r.E2E = stat("end_to_end_latency_s", 1000)
	in, out := stat("number_input_tokens", 1), stat("number_output_tokens", 1)
	// Read so that they are known (not unread metadata): the statistics not
	// compared (inter_token_latency_s is not vLLM's TPOT).
	stat("inter_token_latency_s", 1)
	stat("request_output_throughput_token_per_s", 1)
	if err != nil {
		return r, err
	}
	r.Shape.InputTokens, r.Shape.OutputTokens = in["mean"], out["mean"]
	completed, hasCompleted := lpNum(o, "results_num_completed_requests")
	perMin, _ := lpNum(o, "results_num_completed_requests_per_min")
	started, hasStarted := lpNum(o, "results_num_requests_started")
	errs, _ := lpNum(o, "results_number_errors")
	r.OutputTokPerS, _ = lpNum(o, "results_mean_output_throughput_token_per_s")
	conc, hasConc := lpNum(o, "num_concurrent_requests")
	nomIn, _ := lpNum(o, "mean_input_tokens")
	nomOut, _ := lpNum(o, "mean_output_tokens")
	if o.err != nil {
		return r, o.err
	}
	for name, v := range map[string]float64{"results_num_completed_requests": completed, "results_num_requests_started": started,
		"results_number_errors": errs, "num_concurrent_requests": conc} {
		if v < 0 || v != float64(int64(v)) || v > maxCount {
			return r, fmt.Errorf("%q: want a whole number, got %g", name, v)
		}
	}
	if !hasCompleted {
		return r, fmt.Errorf("%q: missing", "results_num_completed_requests")
	}
	if r.OutputTokPerS < 0 || perMin < 0 {
		return r, fmt.Errorf("negative throughput")
	}
	r.Completed, r.Failed = int(completed), int(errs)
	if perMin > 0 {
		// per_min = completed / (end − start) × 60.
		r.DurationS = completed * 60 / perMin
	}
	if nomIn > 0 && nomIn <= maxCount && nomOut > 0 && nomOut <= maxCount {
		r.Shape.NominalInput, r.Shape.NominalOutput = int(nomIn), int(nomOut)
	}
	prompts := r.Completed + r.Failed
	if hasStarted {
		prompts = max(int(started), r.Completed)
	}
	l := Load{Prompts: prompts}
	switch {
	case !hasConc || conc < 1:
		l = other(l, "the summary does not record num_concurrent_requests")
	case int(conc) >= prompts:
		l.Kind = LoadBurst
	default:
		l.Kind, l.Concurrency = LoadClosedLoop, int(conc)
	}
	r.Load = l
	r.Notes = append(r.Notes, "LLMPerf counts tokens with its own Llama tokenizer, not the served model's",
		"LLMPerf's inter_token_latency_s includes the first token (end-to-end latency over output tokens): not read as TPOT")
	readIgnored(o, []string{"version", "stddev_input_tokens", "stddev_output_tokens", "results_error_rate",
		"results_error_code_frequency", "timestamp"})
	r.Metadata, r.Notes = metadata(o, r.Notes)
	return r, check(&r, 0, false)
}
