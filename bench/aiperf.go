package bench

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// NVIDIA AIPerf's profile_export_aiperf.json and its predecessor
// GenAI-Perf's profile_export_genai_perf.json, as read in:
//
//   - ai-dynamo/aiperf docs/tutorials/working-with-profile-exports.md
//     (nvda-ci/aiperf mirror, commit 8e6a033d): one object whose metrics are
//     objects {"unit", "avg", "p1" … "p99", "min", "max", "std"[, "count",
//     "sum"]}: request_latency, time_to_first_token, inter_token_latency,
//     inter_chunk_latency, input_sequence_length, output_sequence_length,
//     and the run's totals as {"unit", "avg"}: request_throughput,
//     output_token_throughput, request_count, benchmark_duration (sec),
//     total_isl, total_osl; error_request_count (null without errors),
//     error_summary, and input_config, "not guaranteed to be stable across
//     AIPerf versions": loadgen {concurrency, request_rate,
//     request_rate_mode or arrival_pattern, request_count} in the 2025
//     releases, phases [{name, type, requests, concurrency, rate,
//     exclude_from_results}] in 0.10 (schema_version 1.3, seen in real
//     exports);
//   - AIPerf's RequestCountMetric: request_count is "the total number of
//     valid requests processed by the benchmark"; errors are counted apart
//     (error_request_count);
//   - src/aiperf/metrics/types/inter_token_latency_metric.py (ai-dynamo/aiperf
//     commit 58dd5dea): inter_token_latency is per request (request latency −
//     TTFT) / (output tokens − 1), vLLM's TPOT; inter_chunk_latency is the
//     gap between streamed chunks over all requests, vLLM's ITL;
//   - GenAI-Perf (triton-inference-server/perf_analyzer, 24.x–25.x exports
//     pasted whole in perf_analyzer issue #298): the same metric objects
//     without request_count and benchmark_duration, and a flat input_config
//     {concurrency, request_rate, request_count (0 = perf_analyzer's
//     measurement windows), …}.
//
// Time metrics are converted to milliseconds from their unit.

// isNVExport reports whether o is an AIPerf or GenAI-Perf export: its
// throughput is an object with a unit, and it records its input_config.
func isNVExport(o *object) bool {
	raw, ok := o.fields["request_throughput"]
	if !ok || !o.has("input_config") {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, unit := m["unit"]
	return unit
}

// nvTimeScale converts a time unit to milliseconds.
var nvTimeScale = map[string]float64{"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1000, "sec": 1000}

// nvMetric is one metric object of an export.
type nvMetric struct {
	unit   string
	values map[string]float64
}

// get returns one statistic of a metric (nil-safe).
func (m *nvMetric) get(name string) (float64, bool) {
	if m == nil {
		return 0, false
	}
	v, ok := m.values[name]
	return v, ok && v >= 0
}

// cv is the coefficient of variation (std over avg) of a per-request
// length metric, the spread readLengths computes from vLLM's lists.
func (m *nvMetric) cv() (float64, bool) {
	mean, ok1 := m.get("avg")
	std, ok2 := m.get("std")
	if !ok1 || !ok2 || !(mean > 0) {
		return 0, false
	}
	return std / mean, true
}

// nvRead reads metric key of o: absent or null gives nil; a metric that is
// not an object of numbers (null statistics are skipped) is an error.
func nvRead(o *object, key string) (*nvMetric, error) {
	raw, ok := o.raw(key)
	if !ok {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("%q: want a metric object, got %s", key, clip(raw))
	}
	m := &nvMetric{values: map[string]float64{}}
	for k, v := range fields {
		switch k {
		case "unit":
			if json.Unmarshal(v, &m.unit) != nil {
				return nil, fmt.Errorf("%q: unit %s is not a string", key, clip(v))
			}
			continue
		case "tag", "header":
			continue
		}
		if string(v) == "null" {
			continue
		}
		var f float64
		if err := json.Unmarshal(v, &f); err != nil {
			var s string
			if json.Unmarshal(v, &s) == nil && (s == "NaN" || strings.HasSuffix(s, "Infinity")) {
				return nil, fmt.Errorf("%q: %s %s is not a finite number", key, k, s)
			}
			return nil, fmt.Errorf("%q: %s: want a number, got %s", key, k, clip(v))
		}
		m.values[k] = f
	}
	return m, nil
}

// nvStat converts a time metric to a Stat in milliseconds: avg → mean,
// p50 → median, std, and the other percentiles.
func nvStat(key string, m *nvMetric) (Stat, error) {
	if m == nil {
		return nil, nil
	}
	scale, ok := nvTimeScale[m.unit]
	if !ok {
		return nil, fmt.Errorf("%q: unit %q is not a time unit vlaunch knows (ns, us, ms, s, sec)", key, m.unit)
	}
	st := Stat{}
	for k, v := range m.values {
		name := k
		switch {
		case k == "avg":
			name = "mean"
		case k == "p50":
			name = "median"
		case k == "std":
		case strings.HasPrefix(k, "p"):
			if _, err := strconv.ParseFloat(k[1:], 64); err != nil || !validPercentile(k) {
				continue
			}
		default: // min, max, count, sum
			continue
		}
		if v < 0 {
			return nil, fmt.Errorf("%q: negative %s %g", key, k, v)
		}
		st[name] = v * scale
	}
	if len(st) == 0 {
		return nil, nil
	}
	return st, nil
}

// nvAvg reads a metric's avg (ok false when the metric or its avg is absent).
func nvAvg(o *object, key string) (float64, bool, error) {
	m, err := nvRead(o, key)
	if err != nil || m == nil {
		return 0, false, err
	}
	v, ok := m.values["avg"]
	if ok && v < 0 {
		return 0, false, fmt.Errorf("%q: negative average %g", key, v)
	}
	return v, ok, nil
}

// parseNVExport reads an AIPerf or GenAI-Perf export.
func parseNVExport(o *object) (Result, error) {
	r := Result{Format: FormatGenAIPerf}
	if o.has("aiperf_version") || o.has("benchmark_duration") || o.has("request_count") {
		r.Format = FormatAIPerf
	}
	var err error
	read := func(key string) *nvMetric {
		m, e := nvRead(o, key)
		err = firstErr(err, e)
		return m
	}
	avg := func(key string) (float64, bool) {
		v, ok, e := nvAvg(o, key)
		err = firstErr(err, e)
		return v, ok
	}
	stat := func(key string) Stat {
		st, e := nvStat(key, read(key))
		err = firstErr(err, e)
		return st
	}
	r.TTFT = stat("time_to_first_token")
	r.TPOT = stat("inter_token_latency")
	r.ITL = stat("inter_chunk_latency")
	r.E2E = stat("request_latency")
	r.RequestsPerS, _ = avg("request_throughput")
	r.OutputTokPerS, _ = avg("output_token_throughput")
	r.TotalTokPerS, _ = avg("total_token_throughput")
	count, hasCount := avg("request_count")
	failed, _ := avg("error_request_count")
	dur := read("benchmark_duration")
	islM, oslM := read("input_sequence_length"), read("output_sequence_length")
	isl, hasISL := islM.get("avg")
	osl, hasOSL := oslM.get("avg")
	r.Shape.InputCV, r.Shape.InputCVKnown = islM.cv()
	r.Shape.OutputCV, r.Shape.OutputCVKnown = oslM.cv()
	totalISL, hasTotalISL := avg("total_isl")
	totalOSL, hasTotalOSL := avg("total_osl")
	if err != nil {
		return r, err
	}
	cfg := o.sub("input_config", true)
	r.Date = o.str("start_time")
	if o.err != nil {
		return r, o.err
	}
	if cfg == nil {
		return r, fmt.Errorf("%q: missing", "input_config")
	}
	r.Model, r.Backend = nvModel(cfg)

	// The requests measured and the run's duration.
	configured, hasConfigured := cfg.count("request_count")
	switch {
	case hasCount:
		if count != float64(int(count)) || count > maxCount {
			return r, fmt.Errorf("%q: want a whole number, got %g", "request_count", count)
		}
		r.Completed = int(count)
	case hasConfigured && configured > 0 && r.RequestsPerS > 0:
		r.Completed = configured
		r.Notes = append(r.Notes, fmt.Sprintf("the export does not count its requests: taken as the %d configured (input_config.request_count)", configured))
	default:
		return r, fmt.Errorf("the export records neither how many requests completed nor the run's duration (GenAI-Perf's measurement windows, input_config.request_count 0): vlaunch cannot replay it; rerun with --request-count")
	}
	if failed != float64(int(failed)) || failed > maxCount {
		return r, fmt.Errorf("%q: want a whole number, got %g", "error_request_count", failed)
	}
	r.Failed = int(failed)
	switch {
	case dur != nil:
		scale, ok := nvTimeScale[dur.unit]
		if !ok {
			return r, fmt.Errorf("%q: unit %q is not a time unit vlaunch knows", "benchmark_duration", dur.unit)
		}
		r.DurationS = dur.values["avg"] * scale / 1000
	case r.RequestsPerS > 0:
		r.DurationS = float64(r.Completed) / r.RequestsPerS
		r.Notes = append(r.Notes, "the export does not record the run's duration: taken as the requests over the request throughput")
	}

	// Mean request lengths: the totals over the requests, else the averages.
	switch {
	case hasTotalISL && r.Completed > 0:
		r.Shape.InputTokens = totalISL / float64(r.Completed)
	case hasISL:
		r.Shape.InputTokens = isl
	}
	switch {
	case hasTotalOSL && r.Completed > 0:
		r.Shape.OutputTokens = totalOSL / float64(r.Completed)
	case hasOSL:
		r.Shape.OutputTokens = osl
	}

	var notes []string
	r.Load, notes, err = nvLoad(cfg, r.Completed+r.Failed)
	if err != nil {
		return r, fmt.Errorf("input_config: %w", err)
	}
	r.Notes = append(r.Notes, notes...)
	return r, check(&r, 0, false)
}

// nvModel reads the model and endpoint kind from input_config in its
// layouts: models.items[].name (AIPerf 0.10), endpoint.model_names
// (AIPerf 2025), model (GenAI-Perf); endpoint.type or endpoint_type.
func nvModel(cfg *object) (model, backend string) {
	var probe struct {
		Models struct {
			Items []struct {
				Name string `json:"name"`
			} `json:"items"`
		} `json:"models"`
		Endpoint json.RawMessage `json:"endpoint"`
		Model    json.RawMessage `json:"model"`
		Type     string          `json:"endpoint_type"`
		Service  string          `json:"service_kind"`
	}
	raw, _ := json.Marshal(cfg.fields)
	_ = json.Unmarshal(raw, &probe)
	if len(probe.Models.Items) > 0 {
		model = probe.Models.Items[0].Name
	}
	var ep struct {
		ModelNames []string `json:"model_names"`
		Type       string   `json:"type"`
	}
	if json.Unmarshal(probe.Endpoint, &ep) == nil {
		if model == "" && len(ep.ModelNames) > 0 {
			model = ep.ModelNames[0]
		}
		backend = ep.Type
	}
	var names []string
	if model == "" && json.Unmarshal(probe.Model, &names) == nil && len(names) > 0 {
		model = names[0]
	}
	if backend == "" {
		backend = probe.Type
	}
	return clipText(model), clipText(backend)
}

// nvLoad maps the export's load settings to a load. AIPerf: --concurrency N
// alone keeps N requests in flight (a closed loop; request_rate_mode
// concurrency_burst), --request-rate R with the poisson arrival pattern is
// Poisson, constant intervals and gamma arrivals are not simulated.
// GenAI-Perf's --request-rate goes to perf_analyzer, whose request
// distribution is constant by default.
func nvLoad(cfg *object, prompts int) (Load, []string, error) {
	l := Load{Prompts: prompts}
	var notes []string
	if multiTurn(cfg) {
		notes = append(notes, "a multi-turn dataset: each turn resends its conversation and waits for the previous one; replayed as independent requests of the mean lengths")
	}
	if raw, ok := cfg.raw("phases"); ok {
		var phases []struct {
			Name        string   `json:"name"`
			Type        string   `json:"type"`
			Exclude     bool     `json:"exclude_from_results"`
			Concurrency *float64 `json:"concurrency"`
			Rate        *float64 `json:"rate"`
			Smoothness  *float64 `json:"smoothness"`
		}
		if err := json.Unmarshal(raw, &phases); err != nil {
			return l, notes, fmt.Errorf("%q: want a list of phases", "phases")
		}
		var measured []int
		for i, p := range phases {
			if !p.Exclude {
				measured = append(measured, i)
			}
		}
		if len(measured) != 1 {
			return other(l, fmt.Sprintf("%d measured phases", len(measured))), notes, nil
		}
		p := phases[measured[0]]
		return nvShape(l, p.Type, p.Concurrency, p.Rate, p.Smoothness), notes, nil
	}
	if lg := cfg.sub("loadgen", false); lg != nil {
		mode := lg.str("request_rate_mode")
		if mode == "" {
			mode = lg.str("arrival_pattern")
		}
		c, hasC := lg.num("concurrency")
		rate, hasRate := lg.num("request_rate")
		smooth, hasSmooth := lg.num("arrival_smoothness")
		if lg.err != nil {
			return l, notes, fmt.Errorf("loadgen: %w", lg.err)
		}
		var cp, rp, sp *float64
		if hasC {
			cp = &c
		}
		if hasRate {
			rp = &rate
		}
		if hasSmooth {
			sp = &smooth
		}
		switch {
		case mode == "concurrency_burst" || mode == "" && !hasRate:
			mode = "concurrency"
		case mode == "" && hasSmooth:
			// --request-rate with --arrival-smoothness and no pattern is
			// gamma (AIPerf's config test "v1 parity: … auto-promotes to
			// gamma").
			mode = "gamma"
		case mode == "":
			return other(l, "a request rate whose arrival pattern the export does not record"), notes, nil
		}
		return nvShape(l, mode, cp, rp, sp), notes, nil
	}
	// GenAI-Perf's flat input_config.
	c, hasC := cfg.num("concurrency")
	rate, hasRate := cfg.num("request_rate")
	if cfg.err != nil {
		return l, notes, cfg.err
	}
	switch {
	case hasRate:
		return other(l, fmt.Sprintf("GenAI-Perf's request rate %g/s (perf_analyzer sends at constant intervals by default), not Poisson", rate)), notes, nil
	case hasC:
		return nvShape(l, "concurrency", &c, nil, nil), notes, nil
	}
	return other(l, "the export records neither a concurrency nor a request rate"), notes, nil
}

// nvShape maps one phase (type, concurrency, rate, gamma smoothness) to a
// load.
//
// AIPerf's gamma arrivals are vLLM's --burstiness: shape = smoothness,
// scale = 1/(rate·smoothness), "same value = same distribution"
// (src/aiperf/timing/intervals.py, GammaIntervalGenerator, nvda-ci/aiperf
// mirror commit 6d826197); a smoothness of 1 or none is Poisson.
//
// A rate with a concurrency cap is not vLLM's capped open loop (LoadCapped:
// an arrival that finds the cap full waits in the client's queue and is
// sent when a slot frees). AIPerf never queues arrivals: in its 2025
// releases the issuing loop blocks on the semaphore and sleeps the next gap
// only after the send, so "hitting the concurrency limit proportionally
// delays the entire schedule" (src/aiperf/timing/request_rate_strategy.py,
// nvda-ci/aiperf commit 699a0121; docs/tutorials/request-rate-concurrency.md,
// commit dbf2f2ab: "No catch-up behavior"); in its 2026 releases an
// arrival that finds no slot is not sent and the loop waits for the next
// interval (src/aiperf/timing/strategies/request_rate.py, ai-dynamo/aiperf
// commit 142cf65b, try_issue_credit returning None; src/aiperf/credit/
// issuer.py commit 01a4d174). Neither times a wait, but both offer the
// server fewer requests than vLLM's queue would once the cap binds, so the
// run is not replayed.
func nvShape(l Load, kind string, conc, rate, smooth *float64) Load {
	n := 0
	if conc != nil {
		if *conc < 1 || *conc != float64(int(*conc)) || *conc > maxCount {
			return other(l, fmt.Sprintf("concurrency %g", *conc))
		}
		n = int(*conc)
	}
	switch kind {
	case "concurrency", "concurrency_burst":
		switch {
		case n == 0:
			return other(l, "a concurrency phase without a concurrency")
		case n >= l.Prompts:
			l.Kind = LoadBurst
		default:
			l.Kind, l.Concurrency = LoadClosedLoop, n
		}
		return l
	case "poisson", "gamma":
		shape := 0.0
		if kind == "gamma" && smooth != nil {
			if !(*smooth > 0) || *smooth > 1e6 {
				return other(l, fmt.Sprintf("gamma arrivals of smoothness %g", *smooth))
			}
			if *smooth != 1 {
				shape = *smooth
			}
		}
		switch {
		case rate == nil || !(*rate > 0):
			return other(l, "open-loop arrivals without a rate")
		case n > 0 && n < l.Prompts:
			return other(l, fmt.Sprintf("arrivals at %s/s under AIPerf's cap of %d in flight: AIPerf does not queue an arrival that finds the cap full "+
				"(it pauses or skips the schedule), vLLM's client does, and vlaunch replays vLLM's queue", strconv.FormatFloat(*rate, 'g', 4, 64), n))
		}
		l.RatePerS = *rate
		if shape > 0 {
			l.Kind, l.Burstiness = LoadGamma, shape
		} else {
			l.Kind = LoadPoisson
		}
		return l
	case "constant":
		return other(l, "requests at constant intervals, not Poisson")
	}
	return other(l, fmt.Sprintf("AIPerf's %q timing mode", clipText(kind)))
}

// multiTurn reports whether the export's dataset is multi-turn.
func multiTurn(cfg *object) bool {
	raw, ok := cfg.fields["datasets"]
	if !ok {
		return false
	}
	var ds []struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(raw, &ds)
	for _, d := range ds {
		if d.Format == "multi_turn" {
			return true
		}
	}
	return false
}

// nvOtherExport explains an AIPerf file that is not a run's client metrics:
// the multi-run aggregate and collated files (metadata.aggregation_type, as
// AIPerf's multi-run confidence guide shows them) and the server metrics
// export (summary, metrics[].series, per AIPerf's "Server Metrics JSON
// Export Schema" doc); a failed run's export holds only records.
func nvOtherExport(o *object) error {
	switch {
	case o.has("metadata") && o.has("metrics"):
		return fmt.Errorf("an AIPerf multi-run aggregate (statistics over runs, without the runs' request counts and load): give a run's profile_runs/run_NNNN/profile_export_aiperf.json")
	case o.has("summary") && o.has("metrics"):
		return fmt.Errorf("AIPerf's server metrics export (Prometheus series), not a benchmark result: give the run's profile_export_aiperf.json")
	}
	return fmt.Errorf("an AIPerf export without the client metrics and input_config vlaunch reads (%s): give the run's profile_export_aiperf.json", keysText(o))
}
