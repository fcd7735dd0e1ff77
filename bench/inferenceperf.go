package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// kubernetes-sigs/inference-perf's lifecycle reports (the JSON llm-d's
// guides publish), as written by inference_perf/reportgen/base.py
// summarize_requests and ReportGenerator (commit 7de5ef2e, 2026-08; the
// same keys in the reports pasted in llm-d/llm-d guides, 2025):
//
//   - one object {benchmark_time_seconds (later releases), load_summary,
//     successes, failures}; summary_lifecycle_metrics.json covers every
//     stage of a run, stage_N_lifecycle_metrics.json one stage;
//   - load_summary: count (requests sent), schedule_delay; a stage's adds
//     send_duration, requested_rate (the stage's rate) and achieved_rate,
//     and concurrency for a concurrent stage;
//   - successes: count, latency {request_latency, time_to_first_token,
//     time_per_output_token, normalized_time_per_output_token,
//     inter_token_latency}, each summarize()d {mean, min, max, median,
//     pN} in seconds (null without values: TTFT and TPOT need streaming);
//     throughput {input_tokens_per_sec, output_tokens_per_sec,
//     total_tokens_per_sec, requests_per_sec} over the stage's time
//     (last end − first start); output_len, the client's count of each
//     request's output tokens; prompt_len, the client's count of each
//     prompt, until a486b01 (2026-08) and prompt_tokens, the server's
//     (usage.prompt_tokens, chat template included): {total, cached,
//     uncached} from 803b44a (2026-05), with the per-request distribution
//     from a486b01, where prompt_len goes; the server's count is read
//     where present;
//   - failures: count, …
//
// Its *_prometheus_metrics.json reports reuse the three keys for the model
// server's metrics (summarize_prometheus_metrics: successes {count, rate,
// queue_len, kv_cache_usage_percentage, …} without latency); they are
// refused, naming the lifecycle report to give.
//
// time_per_output_token is (last − first token time) / (output tokens − 1),
// vLLM's TPOT. inter_token_latency is the gap between consecutive output
// tokens, each token of a streamed chunk stamped with the chunk's arrival
// ("intra-chunk ITL is 0"), not vLLM's gap between chunks: it is not read.
// output_tokens_per_sec divides output_len's client-side counts by the
// stage's time, so output_len's mean is the output length read.
//
// The load: a concurrent stage (load.type concurrent) is run with its rate
// set to num_requests over one second (inference_perf/main.py) and its
// workers capped to concurrency_level, and its report records that
// concurrency; a session-replay stage also records a concurrency, with its
// session rate (0 when unset) as the rate. A rate stage records only its
// rate: whether the arrivals were at constant intervals (load.type
// constant, the default) or Poisson is in the run's config, not the report
// (loadgen/load_generator.py get_timer).

// isInferencePerf reports whether o is an inference-perf lifecycle report.
func isInferencePerf(o *object) bool {
	return o.has("load_summary") && o.has("successes") && o.has("failures")
}

// ipStat reads one summarize()d distribution, values multiplied by scale:
// mean, median and the pN percentiles (min and max are not statistics
// vlaunch compares).
func ipStat(o *object, key string, scale float64) (Stat, error) {
	d := o.sub(key, false)
	if d == nil {
		return nil, o.err
	}
	st := Stat{}
	for _, k := range d.sortedKeys() {
		name := k
		switch {
		case k == "mean" || k == "median":
		case strings.HasPrefix(k, "p"):
			if _, err := strconv.ParseFloat(k[1:], 64); err != nil || !validPercentile(k) {
				return nil, fmt.Errorf("%s: %q is not a percentile", key, clipText(k))
			}
		case k == "min" || k == "max":
			d.num(k)
			continue
		default:
			d.num(k) // the prompt-token totals (total, cached, uncached)
			continue
		}
		v, ok := d.num(k)
		if !ok {
			continue
		}
		if v < 0 {
			return nil, fmt.Errorf("%s: negative %s %g", key, k, v)
		}
		st[name] = v * scale
	}
	if d.err != nil {
		return nil, fmt.Errorf("%s: %w", key, d.err)
	}
	if len(st) == 0 {
		return nil, nil
	}
	return st, nil
}

// parseInferencePerf reads one lifecycle report.
func parseInferencePerf(o *object) (Result, error) {
	r := Result{Format: FormatInferencePerf}
	ls := o.sub("load_summary", true)
	succ := o.sub("successes", true)
	fail := o.sub("failures", true)
	benchTime, hasTime := o.num("benchmark_time_seconds")
	if o.err != nil {
		return r, o.err
	}
	if !succ.has("latency") && (succ.has("queue_len") || succ.has("kv_cache_usage_percentage")) {
		// summarize_prometheus_metrics: the model server's figures, an
		// empty load_summary and benchmark_time_seconds 0.
		return r, fmt.Errorf("inference-perf's Prometheus (model server) metrics report, not the client's: give the run's stage_N_lifecycle_metrics.json")
	}
	sent, hasSent := ls.count("count")
	rate, hasRate := ls.num("requested_rate")
	conc, hasConc := ls.count("concurrency")
	if ls.err != nil {
		return r, fmt.Errorf("load_summary: %w", ls.err)
	}
	completed, _ := succ.count("count")
	if fail != nil {
		r.Failed, _ = fail.count("count")
		if fail.err != nil {
			return r, fmt.Errorf("failures: %w", fail.err)
		}
	}
	r.Completed = completed
	lat := succ.sub("latency", false)
	tp := succ.sub("throughput", false)
	if succ.err != nil {
		return r, fmt.Errorf("successes: %w", succ.err)
	}
	var err error
	stat := func(o *object, key string, scale float64) Stat {
		if o == nil {
			return nil
		}
		st, e := ipStat(o, key, scale)
		err = firstErr(err, e)
		return st
	}
	r.E2E = stat(lat, "request_latency", 1000)
	r.TTFT = stat(lat, "time_to_first_token", 1000)
	r.TPOT = stat(lat, "time_per_output_token", 1000)
	// Input: the server's prompt_tokens (its mean, else its total over the
	// successes, the 2026-05 layout), else the client's prompt_len.
	var inTotal float64
	if pt := succ.sub("prompt_tokens", false); pt != nil {
		inTotal = pt.nonNeg("total")
		if pt.err != nil {
			return r, fmt.Errorf("successes.prompt_tokens: %w", pt.err)
		}
	}
	in := stat(succ, "prompt_tokens", 1)
	client := stat(succ, "prompt_len", 1)
	out := stat(succ, "output_len", 1)
	if err != nil {
		return r, fmt.Errorf("successes: %w", err)
	}
	switch {
	case in["mean"] > 0:
		r.Shape.InputTokens = in["mean"]
	case inTotal > 0 && completed > 0:
		r.Shape.InputTokens = inTotal / float64(completed)
	default:
		r.Shape.InputTokens = client["mean"]
	}
	r.Shape.OutputTokens = out["mean"]
	if tp != nil {
		r.OutputTokPerS = tp.nonNeg("output_tokens_per_sec")
		r.TotalTokPerS = tp.nonNeg("total_tokens_per_sec")
		r.RequestsPerS = tp.nonNeg("requests_per_sec")
		if tp.err != nil {
			return r, fmt.Errorf("successes.throughput: %w", tp.err)
		}
	}
	switch {
	case hasTime && benchTime > 0:
		r.DurationS = benchTime
	case r.RequestsPerS > 0:
		// requests_per_sec is the successes over the stage's time.
		r.DurationS = float64(completed) / r.RequestsPerS
		r.Notes = append(r.Notes, "the report does not record its duration (benchmark_time_seconds): taken as the successful requests over requests_per_sec")
	}
	if !hasSent {
		sent = r.Completed + r.Failed
	}
	l := Load{Prompts: sent}
	switch {
	case hasConc && hasRate && rate >= float64(sent):
		switch {
		case conc == 0:
			l = other(l, "a concurrent stage of concurrency 0")
		case conc >= sent:
			l.Kind = LoadBurst
		default:
			l.Kind, l.Concurrency = LoadClosedLoop, conc
		}
		r.Notes = append(r.Notes, "inference-perf's concurrent stage: its requests are queued within its first second and its worker processes "+
			"hold the concurrency between them; replayed as one closed loop")
	case hasConc:
		l = other(l, fmt.Sprintf("an inference-perf stage of %d concurrent sessions (session replay)", conc))
	case hasRate:
		l = other(l, fmt.Sprintf("an inference-perf rate stage at %s/s: the report does not record whether the arrivals were at constant intervals "+
			"(load.type constant, the default) or Poisson (poisson); that is in the run's config", strconv.FormatFloat(rate, 'g', 4, 64)))
	default:
		l = other(l, "inference-perf's summary over all of a run's stages (summary_lifecycle_metrics.json): give a stage_N_lifecycle_metrics.json")
	}
	r.Load = l
	return r, check(&r, 0, false)
}
