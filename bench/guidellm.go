package bench

import (
	"encoding/json"
	"fmt"
)

// GuideLLM's report layout, as read in neuralmagic/guidellm
// src/guidellm/benchmark/benchmark.py (commit 00a210d0) and
// src/guidellm/objects/statistics.py (commit f3b95006): a report object
// with "benchmarks", each a generative_benchmark with args.strategy
// (type_ synchronous | concurrent with streams | throughput | constant or
// poisson with rate), total_count {successful, incomplete, errored},
// duration, and metrics whose entries are {successful, errored,
// incomplete, total} distribution summaries (mean, median, std_dev, min,
// max, percentiles p001 … p999). Their inter_token_latency_ms is
// (last − first token time) / (output tokens − 1): vLLM's TPOT; their
// time_per_output_token_ms divides by all output tokens and is not used.
// request_latency is in seconds. Later GuideLLM releases restructured the
// report; such a report is refused with this layout named.

// maxBenchmarks bounds one report.
const maxBenchmarks = MaxRecords

// parseGuideLLM reads every benchmark of a report.
func parseGuideLLM(o *object) ([]Result, error) {
	raw, _ := o.raw("benchmarks")
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%q: want a list of benchmarks", "benchmarks")
	}
	if len(list) > maxBenchmarks {
		return nil, fmt.Errorf("more than %d benchmarks", maxBenchmarks)
	}
	var out []Result
	for i, b := range list {
		r, err := parseGuideBenchmark(b)
		if err != nil {
			return nil, fmt.Errorf("benchmark %d: %w", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseGuideBenchmark(raw json.RawMessage) (Result, error) {
	b, err := newObject(raw)
	if err != nil {
		return Result{}, err
	}
	if t := b.str("type_"); t != "generative_benchmark" {
		return Result{}, fmt.Errorf("type %q: vlaunch reads GuideLLM's generative_benchmark entries", t)
	}
	r := Result{Format: FormatGuideLLM}
	// The strategy is under args (the layout of 00a210d0) or config
	// (src/guidellm/benchmark/schemas/base.py BenchmarkConfig.strategy,
	// commit 14ffe9c6); the counts under total_count or, in the later
	// layout, metrics.request_totals (schemas/generative/metrics.py,
	// commit 06cef291).
	settings := "args"
	if !b.has("args") && b.has("config") {
		settings = "config"
	}
	args := b.sub(settings, false)
	if args == nil {
		if b.err != nil {
			return r, b.err
		}
		return r, fmt.Errorf("neither args.strategy nor config.strategy: not a GuideLLM report layout vlaunch reads (guidellm benchmark.py at 00a210d0, schemas/base.py at 14ffe9c6)")
	}
	strategy := args.sub("strategy", true)
	m := b.sub("metrics", true)
	var counts *object
	switch {
	case b.has("total_count"):
		counts = b.sub("total_count", true)
	case m != nil:
		counts = m.sub("request_totals", true)
		if m.err != nil {
			return r, fmt.Errorf("metrics: %w", m.err)
		}
	}
	r.DurationS = b.need("duration")
	if b.err != nil || args.err != nil {
		return r, firstErr(b.err, args.err)
	}
	if counts != nil {
		ok, _ := counts.count("successful")
		bad, _ := counts.count("errored")
		inc, _ := counts.count("incomplete")
		r.Completed, r.Failed = ok, bad+inc
		if counts.err != nil {
			return r, fmt.Errorf("request counts: %w", counts.err)
		}
	}
	if err := guideMetrics(m, &r); err != nil {
		return r, fmt.Errorf("metrics: %w", err)
	}
	r.Load = guideLoad(strategy, r.Completed+r.Failed)
	// A concurrent strategy may stagger its first requests over
	// rampup_duration seconds (src/guidellm/scheduler/strategies.py,
	// ConcurrentStrategy, commit 03820eba); the replay starts them at once.
	if strategy != nil && r.Load.Kind == LoadClosedLoop {
		if ramp, _ := strategy.num("rampup_duration"); ramp > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("the client spread its first %d requests over %g s (rampup); replayed as starting at once", r.Load.Concurrency, ramp))
		}
	}
	if strategy != nil && strategy.err != nil {
		return r, fmt.Errorf("args.strategy: %w", strategy.err)
	}
	return r, check(&r, 0, false)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// guideLoad maps a GuideLLM strategy to a load.
func guideLoad(s *object, prompts int) Load {
	l := Load{Prompts: prompts}
	switch t := s.str("type_"); t {
	case "synchronous":
		l.Kind, l.Concurrency = LoadClosedLoop, 1
	case "concurrent":
		n, _ := s.count("streams")
		if n < 1 {
			return other(l, "a concurrent strategy without streams")
		}
		l.Kind, l.Concurrency = LoadClosedLoop, n
	case "poisson":
		rate, _ := s.num("rate")
		if !(rate > 0) {
			return other(l, "a poisson strategy without a rate")
		}
		l.Kind, l.RatePerS = LoadPoisson, rate
	case "constant":
		return other(l, "requests at constant intervals, not Poisson")
	case "throughput":
		return other(l, "GuideLLM's throughput strategy (as many requests in flight as its workers allow)")
	default:
		return other(l, fmt.Sprintf("strategy %q", t))
	}
	return l
}

// guidePercentiles maps GuideLLM's percentile keys to the clients' names.
var guidePercentiles = map[string]string{"p001": "p0.1", "p01": "p1", "p05": "p5", "p10": "p10", "p25": "p25",
	"p75": "p75", "p90": "p90", "p95": "p95", "p99": "p99", "p999": "p99.9"}

// guideMetrics reads the successful requests' distributions. The output
// throughput is left to check, which computes it from the mean output
// length, the successful requests and the duration (GuideLLM's own
// output_tokens_per_second is a time-weighted distribution of rates).
func guideMetrics(m *object, r *Result) error {
	if m == nil {
		return fmt.Errorf("missing")
	}
	var err error
	read := func(key string, scale float64) Stat {
		st, e := guideStat(m, key, scale)
		err = firstErr(err, e)
		return st
	}
	r.TTFT = read("time_to_first_token_ms", 1)
	r.TPOT = read("inter_token_latency_ms", 1)
	r.E2E = read("request_latency", 1000)
	r.MeanConcurrent = read("request_concurrency", 1)["mean"]
	r.Shape.InputTokens = read("prompt_token_count", 1)["mean"]
	r.Shape.OutputTokens = read("output_token_count", 1)["mean"]
	return err
}

// guideStat reads metrics[key].successful, values multiplied by scale.
func guideStat(m *object, key string, scale float64) (Stat, error) {
	d := m.sub(key, false)
	if d == nil {
		return nil, m.err
	}
	s := d.sub("successful", true)
	if s == nil {
		return nil, fmt.Errorf("%s: %w", key, d.err)
	}
	st := Stat{}
	for name, k := range map[string]string{"mean": "mean", "median": "median", "std_dev": "std"} {
		if v, ok := s.num(name); ok {
			st[k] = v * scale
		}
	}
	for k, v := range st {
		if v < 0 {
			return nil, fmt.Errorf("%s.successful: negative %s %g", key, k, v)
		}
	}
	if p := s.sub("percentiles", false); p != nil {
		for gk, name := range guidePercentiles {
			if v, ok := p.num(gk); ok {
				st[name] = v * scale
			}
		}
		s.err = firstErr(s.err, p.err)
	}
	if s.err != nil {
		return nil, fmt.Errorf("%s.successful: %w", key, s.err)
	}
	return st, nil
}
