package sim

import (
	"math"
	"math/rand/v2"
)

// Conversation lengths. A conversation dataset (ShareGPT, as `vllm bench
// serve` and SGLang's bench_serving sample it) is skewed: most first turns
// are short, a few run to the benchmark's length filter. In a burst the
// longest requests set how long the run lasts, and the run's throughput
// with it, so a spread that keeps the mean but not the tail (uniform over
// [0, 2] × the mean) makes bursts look up to twice as fast as they ran.

// LogNormal is a log-normal spread of request lengths, truncated the way
// the benchmark clients filter their samples (vLLM's and SGLang's ShareGPT
// samplers skip a conversation whose prompt is over MaxInput tokens or
// whose prompt and completion are over MaxTotal, and either under MinLen):
// each request's lengths are drawn from log-normal distributions with
// log-spread Sigma whose means, after the filter, are the configured
// lengths.
type LogNormal struct {
	// Sigma is the standard deviation of ln(length) before the filter.
	Sigma float64
	// MinLen, MaxInput and MaxTotal are the client's filter (0: none).
	MinLen, MaxInput, MaxTotal int
}

// ShareGPTFilter is the ShareGPT filter of vLLM's benchmark datasets
// (vllm/benchmarks/datasets.py is_valid_sequence: prompt and output at least
// 4 tokens, prompt at most 1,024, prompt + output at most 2,048) and of
// SGLang's bench_serving sample_sharegpt_requests (the same 1,024 / 2,048,
// minimum 2).
var ShareGPTFilter = LogNormal{MinLen: 4, MaxInput: 1024, MaxTotal: 2048}

// ConversationSigma is the log-spread of ShareGPT's first-turn lengths the
// replays assume: the median is exp(-σ²/2) ≈ 0.61 of the mean at σ = 1 and
// the 99th percentile ≈ 6.3× the mean before the filter cuts it. No
// per-request length table of the dataset the benchmarks draw (the V3
// split, model tokenizers) was found to measure it; the one table found,
// ShareGPT first turns in OPT tokens (sosp-ae-39/sosp-ae-astra
// datasets/sharegpt_opt_text_completion_length.pkl), has ln-spreads 1.35
// (prompts) and 1.01 (completions) under the filter at other means
// (docs/calibration-analysis.md, "ShareGPT burst TPOT"). The calibration
// split's ShareGPT figures chose it: within ±30% 10 of 15
// with the old uniform spread, 13 of 15 at σ 0.6–0.8 (0.8, the plateau's
// skewed end), 12 at 1.0–1.2; the held-out ShareGPT figures' worst error
// fell from +234% to +94% (docs/calibration-analysis.md). An assumption,
// named wherever a replay uses it.
const ConversationSigma = 0.8

func (l LogNormal) active() bool { return l.Sigma > 0 }

// For is the spread a run with mean lengths in and out draws from: l, or
// l without its filter when the means sit at the filter's edge (a client
// told to make long prompts from the dataset does not filter them away).
func (l LogNormal) For(in, out int) LogNormal {
	if (l.MaxInput > 0 && float64(in) >= 0.9*float64(l.MaxInput)) || (l.MaxTotal > 0 && in+out >= l.MaxTotal*9/10) {
		l.MaxInput, l.MaxTotal = 0, 0
	}
	return l
}

// lognormalMu is the μ of ln(length) whose log-normal, truncated to
// [lo, hi], has mean m (bisection on the truncated mean, which rises with
// μ). A mean outside (lo, hi) gives the nearest end's μ.
func lognormalMu(m, sigma, lo, hi float64) float64 {
	a, b := math.Log(max(lo, 1e-9))-6*sigma, math.Log(hi)+6*sigma
	for range 80 {
		mid := (a + b) / 2
		if truncatedMean(mid, sigma, lo, hi) < m {
			a = mid
		} else {
			b = mid
		}
	}
	return (a + b) / 2
}

// truncatedMean is the mean of a log-normal(μ, σ) conditioned on [lo, hi].
func truncatedMean(mu, sigma, lo, hi float64) float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	la, lb := math.Log(max(lo, 1e-9)), math.Log(hi)
	mass := phi((lb-mu)/sigma) - phi((la-mu)/sigma)
	if mass <= 0 {
		return math.Exp(mu)
	}
	part := phi((lb-mu-sigma*sigma)/sigma) - phi((la-mu-sigma*sigma)/sigma)
	return math.Exp(mu+sigma*sigma/2) * part / mass
}

// lengthDraw draws one request's (input, output) lengths from l around
// the means in and out, rejecting pairs outside the filter as the clients
// do.
type lengthDraw struct {
	l             LogNormal
	muIn, muOut   float64
	in, out       int
	maxIn, maxOut float64
}

func newLengthDraw(l LogNormal, in, out int) lengthDraw {
	maxIn := float64(l.MaxInput)
	if maxIn <= 0 {
		maxIn = math.Inf(1)
	}
	if l = l.For(in, out); l.MaxInput <= 0 {
		maxIn = math.Inf(1)
	}
	maxOut := math.Inf(1)
	if l.MaxTotal > 0 {
		// The pair filter cuts the completion at MaxTotal − prompt; the
		// mean is matched at the mean prompt (an approximation the
		// rejection below makes exact in distribution, not in mean).
		maxOut = max(float64(l.MinLen)+1, float64(l.MaxTotal-in))
	}
	lo := float64(max(1, l.MinLen))
	d := lengthDraw{l: l, in: in, out: out, maxIn: maxIn, maxOut: maxOut}
	d.muIn = lognormalMu(float64(in), l.Sigma, lo, min(maxIn, 1e12))
	d.muOut = lognormalMu(float64(out), l.Sigma, lo, min(maxOut, 1e12))
	if l.MaxTotal > 0 {
		d.correct()
	}
	return d
}

// correct moves μ so that the means after the pair filter are the
// configured ones: the filter rejects long prompts more often when
// completions are long, which the per-length truncation above ignores
// (under 0.2% for ShareGPT's means, 8% at 600 in / 900 out). A few
// fixed-point steps on a fixed-seed sample keep the draw deterministic.
func (d *lengthDraw) correct() {
	const n = 4096
	for range 4 {
		rng := rand.New(rand.NewPCG(7, 11))
		var sumIn, sumOut float64
		for range n {
			in, out := d.draw(rng.NormFloat64)
			sumIn += float64(in)
			sumOut += float64(out)
		}
		d.muIn += math.Log(float64(d.in) * n / sumIn)
		d.muOut += math.Log(float64(d.out) * n / sumOut)
	}
}

// draw returns a pair inside the filter (after 64 rejections, the means).
func (d lengthDraw) draw(normal func() float64) (int, int) {
	lo := max(1, d.l.MinLen)
	for range 64 {
		in := int(math.Round(math.Exp(d.muIn + d.l.Sigma*normal())))
		out := int(math.Round(math.Exp(d.muOut + d.l.Sigma*normal())))
		if in < lo || out < lo || float64(in) > d.maxIn || (d.l.MaxTotal > 0 && in+out > d.l.MaxTotal) {
			continue
		}
		return in, out
	}
	return d.in, d.out
}
