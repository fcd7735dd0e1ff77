package bench

import (
	"fmt"
	"math"
)

// SGLang's bench_serving result keys, as read in
// python/sglang/bench_serving.py (sgl-project/sglang at commit 0033168f,
// 2025): the arguments backend, dataset_name, request_rate (Python writes
// an unlimited rate as the bare word Infinity), max_concurrency (null
// without a cap), sharegpt_output_len, random_input_len,
// random_output_len, random_range_ratio; the results duration, completed,
// total_input_tokens, total_output_tokens,
// total_output_tokens_retokenized, request_throughput, input_throughput,
// output_throughput, {mean,median,std,p99}_e2e_latency_ms,
// {mean,median,std,p99}_ttft_ms, {mean,median,std,p99}_tpot_ms,
// {mean,median,std,p95,p99}_itl_ms, concurrency (the measured mean) and
// accept_length (speculative decoding, or null); --output-details adds
// the per-request lists. Each run appends one line to the --output-file.
// Other releases write a subset of these keys (an older one adds
// num_prompts and a "timestampe" key) or fixed_output_len; 0.5.x adds tag,
// server_info (the server's settings), total_input_text_tokens,
// total_input_vision_tokens, max_output_tokens_per_s and
// max_concurrent_requests, and writes "trace" as the request rate of a
// --use-trace-timestamps run.
var sglangIgnored = []string{
	"total_output_tokens_retokenized", "input_throughput", "total_throughput",
	"ttfts", "itls", "generated_texts", "errors", "timestampe", "fixed_output_len",
	"sharegpt_output_len", "server_info", "total_input_text_tokens", "total_input_vision_tokens",
	"max_output_tokens_per_s", "max_concurrent_requests",
}

var sglangMetrics = map[string]bool{"ttft": true, "tpot": true, "itl": true, "e2e_latency": true}

// parseSGLang reads one SGLang result line.
func parseSGLang(o *object) (Result, error) {
	r := Result{Format: FormatSGLang, Backend: o.str("backend")}
	r.Shape.Dataset = o.str("dataset_name")
	var a arrivals
	a.rate, a.unlimited, a.rateKnown = o.rate("request_rate")
	a.trace = o.traced("request_rate")
	a.maxConc, _ = o.count("max_concurrency")
	a.concStated = o.has("max_concurrency")
	numPrompts, hasNum := o.count("num_prompts")
	readCommon(o, &r)
	r.RequestsPerS = o.nonNeg("request_throughput")
	r.MeanConcurrent = o.nonNeg("concurrency")
	inLen, _ := o.count("random_input_len")
	outLen, _ := o.count("random_output_len")
	if len(r.Shape.Dataset) >= 6 && r.Shape.Dataset[:6] == "random" {
		r.Shape.NominalInput, r.Shape.NominalOutput = inLen, outLen
	}
	ratio, hasRatio := o.num("random_range_ratio")
	if r.Shape.NominalInput > 0 && hasRatio && o.err == nil {
		randomSpread(&r, ratio, false, "random_range_ratio")
	}
	o.stats(map[string]*Stat{"ttft": &r.TTFT, "tpot": &r.TPOT, "itl": &r.ITL, "e2e_latency": &r.E2E}, sglangMetrics)
	r.SpecAcceptance, _ = o.num("accept_length")
	readIgnored(o, sglangIgnored)
	if o.err != nil {
		return r, o.err
	}
	if !hasNum {
		r.Notes = append(r.Notes, "SGLang records neither the prompts sent nor failed requests: taken as the completed ones")
	}
	a.prompts = sent(r.Completed, 0, false, numPrompts, hasNum)
	r.Load, r.concUnstated = a.load(), !a.concStated
	r.Metadata, r.Notes = metadata(o, r.Notes)
	return r, check(&r, numPrompts, hasNum)
}

// randomSpread sets the length spread of a random dataset when the result
// does not carry the per-request lists. SGLang's sample_random_requests
// (python/sglang/bench_serving.py, commit 0033168f) draws each input
// length uniformly from [max(⌊L_in·r⌋, 1), L_in] and each output length
// from [⌊L_out·r⌋, L_out] (numpy randint), r = random_range_ratio; vLLM's
// (around: published.Client.RangeAround, which cites RandomDataset.
// get_sampling_params) from [⌊L·(1−r)⌋, ⌈L·(1+r)⌉]. The spread is taken
// only where the measured mean length agrees with that uniform's mean
// (within four standard errors and 2%): an output cut short by EOS
// (--disable-ignore-eos), or another release's sampling, leaves it
// unknown. from says where the ratio was read, for the note.
func randomSpread(r *Result, ratio float64, around bool, from string) {
	if !(ratio >= 0 && ratio <= 1) || r.Completed < 2 || (around && ratio >= 1) {
		return
	}
	set := func(lo, hi int, measured float64, cv *float64, known *bool) {
		if *known || hi <= 0 || lo > hi {
			return
		}
		n := float64(hi - lo + 1)
		mean := float64(lo+hi) / 2
		sd := math.Sqrt((n*n - 1) / 12)
		if !(mean > 0) || math.Abs(measured-mean) > 4*sd/math.Sqrt(float64(r.Completed))+0.02*mean {
			return
		}
		*cv, *known = sd/mean, true
	}
	bounds := func(l int, minLo int) (int, int) {
		if around {
			return max(int(math.Floor(float64(l)*(1-ratio))), minLo), int(math.Ceil(float64(l) * (1 + ratio)))
		}
		return max(int(float64(l)*ratio), minLo), l
	}
	s := &r.Shape
	if s.NominalInput > 0 {
		lo, hi := bounds(s.NominalInput, 1)
		set(lo, hi, s.InputTokens, &s.InputCV, &s.InputCVKnown)
	}
	if s.NominalOutput > 0 {
		lo, hi := bounds(s.NominalOutput, 0)
		set(lo, hi, s.OutputTokens, &s.OutputCV, &s.OutputCVKnown)
	}
	if s.InputCVKnown || s.OutputCVKnown {
		s.CVFromRatio = true
		client := "SGLang"
		if around {
			client = "vLLM"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("request lengths drawn uniformly by %s's random dataset (%s %g)", client, from, ratio))
	}
}
