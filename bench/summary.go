package bench

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// summaryBanner opens the block `vllm bench serve` (and benchmark_serving.py,
// and SGLang's bench_serving) print to stdout at the end of a run.
const summaryBanner = " Serving Benchmark Result "

// isSummary reports whether data is printed output rather than a JSON result.
func isSummary(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] != '{' && t[0] != '[' && bytes.Contains(data, []byte(summaryBanner))
}

// parseSummaries reads every printed result block in data. Lines are
// "Label:  value" (vLLM prints them with "{:<40} {:<10}"); a block ends at
// a line of '=' only. The arrival settings are read from the block (newer
// clients print "Maximum request concurrency:" and, for a finite rate,
// "Request rate configured (RPS):") or from the lines the client printed
// before the run ("Traffic request rate: inf", "Burstiness factor: ...").
func parseSummaries(source string, data []byte) ([]Result, error) {
	var out []Result
	pre := map[string]string{}
	var cmd clientCommand
	var block map[string]string
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(strings.TrimRight(lines[i], "\r"))
		if block == nil {
			if c, n := readCommand(lines, i); n > 0 {
				cmd, i = c, i+n-1
				continue
			}
		}
		switch {
		case strings.Contains(line, summaryBanner):
			block = map[string]string{}
		case block != nil && line != "" && strings.Trim(line, "=") == "":
			r, err := summaryResult(pre, block, cmd)
			if err != nil {
				return nil, fmt.Errorf("%s: printed result %d: %w", source, len(out)+1, err)
			}
			out = append(out, r)
			if len(out) > MaxRecords {
				return nil, fmt.Errorf("%s: more than %d results", source, MaxRecords)
			}
			block, pre, cmd = nil, map[string]string{}, clientCommand{}
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(k) == "" {
				continue
			}
			if block != nil {
				block[strings.TrimSpace(k)] = strings.TrimSpace(v)
			} else {
				pre[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	if block != nil {
		// A paste often stops at the last figure, without the closing
		// line of '=' (qa/realin39's llama31-8b-multinode-dp-c16.txt):
		// the block is kept when every figure calibrate needs is there.
		r, err := unclosedResult(pre, block, cmd)
		if err != nil {
			return nil, fmt.Errorf("%s: printed result %d is cut off (no closing line of '='): %w", source, len(out)+1, err)
		}
		out = append(out, r)
		if len(out) > MaxRecords {
			return nil, fmt.Errorf("%s: more than %d results", source, MaxRecords)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no benchmark result in the file", source)
	}
	for i := range out {
		out[i].Source, out[i].Record, out[i].Records = source, i+1, len(out)
	}
	return out, nil
}

// unclosedResult reads a block with no closing line: an error when a
// figure the replay needs is missing — the totals summaryResult requires,
// and a centre (median or mean) of TTFT and of TPOT, the latencies
// calibrate fits (calibrate/metrics.go targetsOf) — else the result, noted.
func unclosedResult(pre, b map[string]string, cmd clientCommand) (Result, error) {
	r, err := summaryResult(pre, b, cmd)
	if err != nil {
		return r, err
	}
	for name, s := range map[string]Stat{"TTFT": r.TTFT, "TPOT": r.TPOT} {
		if _, ok := s.Get("median"); ok {
			continue
		}
		if _, ok := s.Get("mean"); !ok {
			return r, fmt.Errorf("no median or mean %s line", name)
		}
	}
	r.Notes = append(r.Notes, "the printed block has no closing line of '=' (pasted without it): read because every figure the replay needs is present")
	return r, nil
}

// summaryStats maps the printed statistic labels to a Result's Stat.
var summaryStats = map[string]string{"TTFT": "ttft", "TPOT": "tpot", "ITL": "itl", "E2EL": "e2el", "E2E Latency": "e2el"}

// summaryResult turns one block (and the lines before it, and the
// client's command line when one was recorded before it) into a Result.
func summaryResult(pre, b map[string]string, cmd clientCommand) (Result, error) {
	r := Result{Format: FormatVLLM, Notes: []string{"read from the printed summary, whose figures are rounded to 2 decimals"}}
	if _, ok := b["Total generated tokens (retokenized)"]; ok {
		r.Format = FormatSGLang
	}
	// SGLang's bench_serving prints its --backend in the block
	// ("Backend: sglang"; python/sglang/bench_serving.py, commit 0033168f):
	// which server the run measured (calibrate/endpoint.go otherEngine).
	if v, ok := b["Backend"]; ok {
		r.Backend = clipText(v)
	} else if v, ok := pre["Backend"]; ok {
		r.Backend = clipText(v)
	}
	num := func(key string) (float64, bool, error) {
		s, ok := b[key]
		if !ok {
			return 0, false, nil
		}
		v, err := printedNumber(key, s)
		return v, true, err
	}
	need := func(key string) (float64, error) {
		v, ok, err := num(key)
		if err == nil && !ok {
			err = fmt.Errorf("no %q line", key)
		}
		return v, err
	}
	completed, err := need("Successful requests")
	if err != nil {
		return r, err
	}
	if r.DurationS, err = need("Benchmark duration (s)"); err != nil {
		return r, err
	}
	in, err := need("Total input tokens")
	if err != nil {
		return r, err
	}
	outTok, err := need("Total generated tokens")
	if err != nil {
		return r, err
	}
	if completed != math.Trunc(completed) || completed > 1e9 {
		return r, fmt.Errorf("%q: want a whole number", "Successful requests")
	}
	r.Completed = int(completed)
	failed, hasFailed, err := num("Failed requests")
	if err != nil || failed != math.Trunc(failed) || failed > 1e9 {
		return r, fmt.Errorf("%q: want a whole number", "Failed requests")
	}
	r.Failed = int(failed)
	if r.Completed > 0 {
		r.Shape.InputTokens, r.Shape.OutputTokens = in/completed, outTok/completed
	}
	for key, dst := range map[string]*float64{"Request throughput (req/s)": &r.RequestsPerS,
		"Output token throughput (tok/s)": &r.OutputTokPerS, "Total Token throughput (tok/s)": &r.TotalTokPerS,
		"Total token throughput (tok/s)": &r.TotalTokPerS} {
		if v, ok, err := num(key); err != nil {
			return r, err
		} else if ok {
			*dst = v
		}
	}
	if err := summaryLatencies(b, &r); err != nil {
		return r, err
	}
	a, notes, err := summaryArrivals(pre, b, cmd)
	if err != nil {
		return r, err
	}
	r.Notes = append(r.Notes, notes...)
	if r.Format == FormatVLLM {
		r.Notes = append(r.Notes, a.assumedNotes()...)
	}
	commandDataset(&r, cmd)
	a.prompts = r.Completed + r.Failed
	if !hasFailed {
		r.Notes = append(r.Notes, "no 'Failed requests' line: the requests sent are taken as the successful ones")
	}
	r.Load, r.concUnstated = a.load(), !a.concStated
	return r, checkPrinted(&r)
}

// checkPrinted checks a printed result like a JSON one, with the tolerance
// its 2-decimal rounding needs (a throughput of 0.01 tok/s is printed as
// 0.01 whatever its third digit).
func checkPrinted(r *Result) error {
	if r.OutputTokPerS > 0 && r.OutputTokPerS < 1 {
		r.OutputTokPerS = 0 // too coarse to check; check recomputes it from the totals
	}
	return check(r, 0, false)
}

// printedNumber reads the value of a printed figure (its first field):
// a negative one is refused as negative, as the JSON path refuses it
// (object.go nonNeg), not as "not a number" (qa44c F9).
func printedNumber(key, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.Fields(s + " x")[0], 64)
	switch {
	case err != nil || math.IsInf(v, 0) || math.IsNaN(v):
		return 0, fmt.Errorf("%q: %q is not a number", key, s)
	case v < 0:
		return 0, fmt.Errorf("%q: negative (%s)", key, s)
	}
	return v, nil
}

// summaryLatencies reads "Mean TTFT (ms):", "Median TPOT (ms):", "P99 ITL (ms):" …
func summaryLatencies(b map[string]string, r *Result) error {
	stats := map[string]*Stat{"ttft": &r.TTFT, "tpot": &r.TPOT, "itl": &r.ITL, "e2el": &r.E2E}
	for key, val := range b {
		if !strings.HasSuffix(key, " (ms)") {
			continue
		}
		stat, metric, ok := strings.Cut(strings.TrimSuffix(key, " (ms)"), " ")
		name := summaryStats[metric]
		if !ok || name == "" {
			continue
		}
		stat = strings.ToLower(stat)
		if stat != "mean" && stat != "median" && stat != "std" {
			if _, err := strconv.ParseFloat(strings.TrimPrefix(stat, "p"), 64); err != nil || !strings.HasPrefix(stat, "p") {
				continue
			}
		}
		v, err := printedNumber(key, val)
		if err != nil {
			return err
		}
		if *stats[name] == nil {
			*stats[name] = Stat{}
		}
		(*stats[name])[stat] = v
	}
	return nil
}

// summaryArrivals reads the request rate, burstiness and concurrency cap:
// from the block or the lines the client printed before the run, else
// from the client's recorded command line (readCommand: a report that
// pastes the command and the block alone, as qa/realin40's GB10 reports
// do, prints no "Burstiness factor" line). The notes say which figure
// came from the command line.
// SGLang's bench_serving (0.4.x) printed the cap as "Max reqeuest
// concurrency:" (sic; quoted in sgl-project/sglang issue #2805 and, from
// SGLang's client run against vLLM, vllm-project/vllm issue #13082, where it
// reads 1024 over 10000 prompts: a closed loop, not a burst).
// A summary that states no rate comes from a run at an unlimited rate in
// the clients that print one only when it is finite (and --request-rate's
// default is inf: vllm-project/vllm@009e6d4a vllm/benchmarks/serve.py
// add_cli_args); older clients printed it before the run ("Traffic request
// rate:"), which is read when present.
func summaryArrivals(pre, b map[string]string, cmd clientCommand) (arrivals, []string, error) {
	a := arrivals{rateKnown: true, unlimited: true}
	var notes []string
	printed := func(keys ...string) (string, bool) {
		for _, k := range keys {
			if v, ok := b[k]; ok {
				return v, true
			}
			if v, ok := pre[k]; ok {
				return v, true
			}
		}
		return "", false
	}
	// fromCommand is a flag's value on the command line when it reads
	// (valid); a value the shell would expand ($RATE) or a garbled one is
	// not read, and said.
	fromCommand := func(flag string, valid func(string) bool) (string, bool) {
		v, ok := cmd.flag(flag)
		switch {
		case !ok:
			return "", false
		case !valid(v):
			notes = append(notes, fmt.Sprintf("the client's command line gives --%s %q, which is not a value vlaunch reads: not used", flag, clipText(v)))
			return "", false
		}
		notes = append(notes, fmt.Sprintf("--%s %s read from the client's command line recorded with the result (the printed summary does not state it)", flag, clipText(v)))
		return v, true
	}
	rate, ok := printed("Request rate configured (RPS)", "Traffic request rate")
	if !ok {
		rate, ok = fromCommand("request-rate", func(v string) bool { _, err := positive(v); return v == "inf" || err == nil })
		if _, given := cmd.flag("request-rate"); given && !ok {
			a.unknown = "the client's command line gives the request rate as a value vlaunch cannot read"
		}
	}
	if ok && rate == "trace" {
		a.trace = true
	} else if ok && rate != "inf" {
		v, err := positive(rate)
		if err != nil {
			return a, nil, fmt.Errorf("request rate %q is not a positive number or inf", rate)
		}
		a.rate, a.unlimited = v, false
	}
	burst, ok := printed("Burstiness factor")
	if ok {
		burst = strings.Fields(burst + " x")[0] // "0.5 (Gamma distribution)"
	} else {
		burst, ok = fromCommand("burstiness", func(v string) bool { _, err := positive(v); return err == nil })
	}
	if v, err := positive(burst); ok && err == nil {
		a.burstiness, a.burstKnown = v, true
	} else if !ok && cmd.found() && cmd.vllm {
		// The command line was recorded without --burstiness: the client
		// ran at its default, 1.0 (Poisson; vllm-project/vllm@009e6d4a
		// vllm/benchmarks/serve.py add_cli_args: default=1.0).
		a.burstKnown = true
	}
	conc, ok := printed("Maximum request concurrency", "Max request concurrency", "Max reqeuest concurrency")
	if !ok {
		conc, ok = fromCommand("max-concurrency", func(v string) bool { n, err := strconv.Atoi(v); return err == nil && n >= 1 })
		if _, given := cmd.flag("max-concurrency"); given && !ok {
			a.unknown = "the client's command line gives --max-concurrency as a value vlaunch cannot read"
		}
	}
	a.concStated = ok
	if ok && conc != "not set" && conc != "None" {
		v, err := strconv.Atoi(strings.Fields(conc + " x")[0])
		if err != nil || v < 1 {
			return a, nil, fmt.Errorf("request concurrency %q is not a positive whole number", conc)
		}
		a.maxConc = v
	}
	return a, notes, nil
}

// positive reads a positive finite number.
func positive(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && (!(v > 0) || math.IsInf(v, 0)) {
		err = fmt.Errorf("%q is not a positive number", s)
	}
	return v, err
}

// commandDataset reads the dataset from vLLM's client command line, which
// a printed summary does not state: its name (--dataset-name: a ShareGPT
// run is replayed with the conversation spread), and for the random
// dataset the nominal lengths and their range ratio (--random-input-len,
// --random-output-len, --random-range-ratio), whose uniform spread
// randomSpread takes where the measured means agree. Only flags given are
// read: the defaults changed between the clients (benchmark_serving.py's
// --dataset-name was sharegpt, `vllm bench serve`'s is random).
func commandDataset(r *Result, cmd clientCommand) {
	if !cmd.vllm || r.Shape.Dataset != "" {
		return
	}
	name, ok := cmd.flag("dataset-name")
	if !ok || name == "" {
		return
	}
	r.Shape.Dataset = clipText(name)
	if name != "random" {
		return
	}
	length := func(flag string) int {
		v, _ := cmd.flag(flag)
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxCount {
			return 0
		}
		return n
	}
	r.Shape.NominalInput, r.Shape.NominalOutput = length("random-input-len"), length("random-output-len")
	if v, ok := cmd.flag("random-range-ratio"); ok {
		if ratio, err := strconv.ParseFloat(v, 64); err == nil {
			randomSpread(r, ratio, true, "--random-range-ratio")
		}
	}
}
