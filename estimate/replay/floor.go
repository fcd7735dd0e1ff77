package replay

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/published"
)

// A first wave's TTFT floor: what the GPUs' datasheet peak allows.
//
// A closed loop of C sessions with an unlimited request rate (vLLM's bench
// serve and SGLang's bench_serving with --max-concurrency C and the default
// --request-rate inf) sends C requests at once: SGLang's client
// (sgl-project/sglang@0033168f python/sglang/bench_serving.py benchmark)
// creates a task per request without waiting and lets an
// asyncio.Semaphore(max_concurrency) admit C of them; each request's timer
// starts inside the request function, after the semaphore, and stops at the
// first streamed chunk that carries text, which a prompt has only after all
// its tokens were prefilled. A burst sends all of its requests at once. So
// the first wave's C prompts all start at one instant and each needs its
// whole prompt computed before its first token. Whatever the engine's
// batching, chunking or order, the GPUs do at most G × peak FLOPs a second;
// a prompt token costs at least 2 × (the parameters it touches outside the
// embedding, LM head and norms) FLOPs (attention scores, the LM head of the
// last token and any overhead only add to it), so at most
// G × peak / (2 × P) prompt tokens are prefilled a second: tokenS seconds
// each. Prefilling on one processor of that rate, the sum of the C
// completion times is smallest when the shortest prompts go first (Smith's
// rule), and over prompts of at most L tokens that total W it is smallest
// when the work sits in as few full-length prompts as possible:
//
//	Σ TTFT ≥ tokenS × (L × n(n+1)/2 + r × (n+1)),  n = ⌊W/L⌋, r = W − nL,
//
// and the run's mean over its N requests is at least that over N (every
// TTFT is ≥ 0). A P99 over N requests by numpy's linear interpolation
// (both clients: np.percentile(ttfts, 99)) leaves at most
// k = N − 1 − ⌊0.99 (N − 1)⌋ requests above it, so at least C − k of the
// first wave got their first token by the P99, and their prompts hold at
// least W − k × L tokens:
//
//	P99 ≥ tokenS × (W − k × L).
//
// Prompts the engine finds in its prefix cache need no prefill: the
// warm-up's (both clients warm up on the run's first prompt; vLLM's bench
// serve also sends it as its initial test) are taken off W at L tokens
// each. W itself is the first wave's prompt tokens: C × the run's mean for a
// burst (C = N), and for a closed loop of N > C the mean less three standard
// deviations of a C-prompt sample drawn from the run's N (lengths uniform
// over the client's range; the finite-population factor (N − C)/(N − 1)
// when the row publishes the run's mean, C × the length variance when it
// does not). The check applies to random-dataset rows whose client's length
// range is known; a figure below its floor cannot come from the stated
// protocol with each prompt prefilled: its prompts were cached (an earlier
// run of the same seeded prompts on the same server, or a dataset that
// repeats them) or its requests did not start together.

// TTFTFloor is the floor of a row's first wave (the derivation above).
type TTFTFloor struct {
	// Wave and Requests are C and N; Free the prompts taken off as
	// cached, Outliers the k a P99 may leave above it.
	Wave, Requests, Free, Outliers int
	// TokenS is the seconds per prompt token at the GPUs' dense peak:
	// FLOPsPerToken / (GPUs × PeakFLOPs).
	TokenS, FLOPsPerToken, PeakFLOPs float64
	GPUs                             int
	// MeanPrompt is the run's mean prompt, MaxPrompt the longest the
	// client can send, SigmaPrompt the lengths' standard deviation, and
	// WaveTokens the first wave's prompt tokens the floor counts (W,
	// after the 3σ margin and before the cached prompts come off).
	MeanPrompt, MaxPrompt, SigmaPrompt, WaveTokens float64
	// MeanS and P99S are the floors of the run's mean and P99 TTFT (0:
	// none: a wave no larger than its outliers has no P99 floor).
	MeanS, P99S float64
}

// waveSigmas is the margin on a closed loop's first-wave prompt tokens, in
// standard deviations of the sample.
const waveSigmas = 3

// p99Outliers is how many of n values numpy's linear-interpolation 99th
// percentile can leave strictly above it: those sorted past index
// ⌊0.99 (n − 1)⌋.
func p99Outliers(n int) int {
	if n <= 1 {
		return 0
	}
	return n - 1 - int(math.Floor(0.99*float64(n-1)))
}

// firstWaveFloor is the derivation above: the floors of the mean TTFT over
// n requests and of their P99 for a first wave of c prompts of at most
// maxPrompt tokens totalling waveTokens, free of them cached, at tokenS
// seconds per prompt token.
func firstWaveFloor(c, n, free int, waveTokens, maxPrompt, tokenS float64) (meanS, p99S float64) {
	if c <= 0 || n <= 0 || maxPrompt <= 0 || tokenS <= 0 {
		return 0, 0
	}
	w := min(waveTokens, float64(c)*maxPrompt) - float64(free)*maxPrompt
	if w <= 0 {
		return 0, 0
	}
	full := math.Floor(w / maxPrompt)
	rest := w - full*maxPrompt
	meanS = tokenS * (maxPrompt*full*(full+1)/2 + rest*(full+1)) / float64(n)
	if k := p99Outliers(n); c > k+free {
		p99S = tokenS * max(0, w-float64(k)*maxPrompt)
	}
	return meanS, p99S
}

// promptRange is the lengths a random-dataset row's client draws its
// prompts from (published.Client.RangeAround: [L(1 − r), L(1 + r)] for
// vLLM's bench serve, SGLang's [max(1, ⌊rL⌋), L]); a row that names no
// client, or no ratio, gets the widest of the readings (SGLang's client
// never exceeds L whatever its ratio); other clients' ranges are not read.
func promptRange(w published.Workload) (lo, hi float64, ok bool) {
	l := w.InputTokens.V
	if w.Dataset != "random" || !w.InputTokens.Positive() {
		return 0, 0, false
	}
	c, named := published.ClientNamed(w.Client)
	r, known := w.RangeRatio.V, w.RangeRatio.Known
	switch {
	case named && c.Name != "sglang-bench-serving" && c.Name != "vllm-bench-serve":
		return 0, 0, false // another client's synthetic lengths (genai-perf's are normal)
	case named && !c.RangeAround:
		if !known {
			return 1, l, true
		}
		return max(1, math.Floor(r*l)), l, true
	case named && c.RangeAround && known:
		if r <= 0 {
			return l, l, true
		}
		return math.Floor(l * (1 - r)), math.Ceil(l * (1 + r)), true
	case known:
		// Either reading: the lowest low end and the highest high end.
		if r >= 1 {
			return l, l, true
		}
		return max(1, math.Floor(l*min(r, 1-r))), math.Ceil(l * (1 + r)), true
	}
	return 1, 2 * l, true
}

// peakFLOPs is the dense tensor-core peak a GPU reaches on weights of dtype
// (catalog.GPU, datasheet figures): BF16 for 16-bit weights, FP8 for FP8,
// FP4 for 4-bit floats; the highest of the GPU's peaks for int4 weights,
// whose activations may run at any of them.
func peakFLOPs(g *catalog.GPU, dtype string) float64 {
	t := g.BF16TFLOPS
	switch dtype {
	case "fp8":
		t = max(t, g.FP8TFLOPS)
	case "mxfp4", "nvfp4":
		t = max(t, g.FP8TFLOPS, g.FP4TFLOPS)
	case "int4", "int8":
		t = max(t, g.FP8TFLOPS, g.INT8TOPS)
	}
	return t * 1e12
}

// prefillFLOPsPerToken is 2 × the parameters a prompt token multiplies
// (catalog.ParamCounts.Active: its experts only) less the embedding, LM
// head and norms: a lower bound of the FLOPs a prompt token costs.
func prefillFLOPsPerToken(m *catalog.Model) float64 {
	p := m.ParamCounts()
	return 2 * (p.Active(m) - p.Embedding - p.LMHead - p.Norms)
}

// FloorOf is row r's first-wave TTFT floor, when r is a closed loop or a
// burst of a random dataset whose lengths and request count are known.
func FloorOf(r published.Row) (TTFTFloor, bool) {
	ld, w := r.Load, r.Workload
	var c, n int
	switch ld.Kind {
	case published.LoadClosedLoop:
		if !ld.Concurrency.Positive() || !ld.NumPrompts.Positive() {
			return TTFTFloor{}, false
		}
		c, n = ld.Concurrency.Int(), ld.NumPrompts.Int()
	case published.LoadBurst, published.LoadOfflineBatch:
		if !ld.BurstRequests.Positive() {
			return TTFTFloor{}, false
		}
		c, n = ld.BurstRequests.Int(), ld.BurstRequests.Int()
	default:
		return TTFTFloor{}, false
	}
	c = min(c, n)
	lo, hi, ok := promptRange(w)
	if !ok || !r.Hardware.GPUs.Positive() {
		return TTFTFloor{}, false
	}
	m, err := catalog.LookupModel(r.Model.Catalog)
	if err != nil {
		return TTFTFloor{}, false
	}
	g, err := catalog.LookupGPU(r.Hardware.GPU)
	if err != nil {
		return TTFTFloor{}, false
	}
	f := TTFTFloor{Wave: c, Requests: n, Outliers: p99Outliers(n), GPUs: r.Hardware.GPUs.Int(), MaxPrompt: hi,
		FLOPsPerToken: prefillFLOPsPerToken(m), PeakFLOPs: peakFLOPs(g, dtypeOf(r.Model.Weights, "bf16"))}
	f.Free = 1
	if ld.WarmupRequests.Positive() {
		f.Free += ld.WarmupRequests.Int()
	}
	f.TokenS = f.FLOPsPerToken / (float64(f.GPUs) * f.PeakFLOPs)
	d := hi - lo
	f.SigmaPrompt = math.Sqrt(((d+1)*(d+1) - 1) / 12) // discrete uniform over [lo, hi]
	f.MeanPrompt = (lo + hi) / 2
	sample := f.SigmaPrompt * math.Sqrt(float64(c)) // the run's mean unknown
	if w.InputTokensMean.Positive() {
		f.MeanPrompt = w.InputTokensMean.V
		sample = 0
		if n > 1 {
			sample = f.SigmaPrompt * math.Sqrt(float64(c)*float64(n-c)/float64(n-1))
		}
	}
	f.WaveTokens = max(0, float64(c)*f.MeanPrompt-waveSigmas*sample)
	f.MeanS, f.P99S = firstWaveFloor(c, n, f.Free, f.WaveTokens, hi, f.TokenS)
	return f, f.MeanS > 0 || f.P99S > 0
}

// floorMs is the floor of a TTFT figure of regime reg (0: none).
func (f TTFTFloor) floorMs(reg Regime) float64 {
	switch reg {
	case RegimeTTFTMean:
		return 1e3 * f.MeanS
	case RegimeTTFTP99:
		return 1e3 * f.P99S
	}
	return 0
}

// String states the floor's terms.
func (f TTFTFloor) String() string {
	return fmt.Sprintf("%d requests, the first %d sent at once; prompts of %.0f tokens on average, at most %.0f; first wave counted at %.0f tokens "+
		"(%d σ margin), %d of them cached (warm-up); %.1f GFLOP a prompt token over %d GPUs at %.0f TFLOPS dense peak = %.1f µs a token; "+
		"mean ≥ %.0f ms, P99 ≥ %.0f ms (at most %d requests above a P99)",
		f.Requests, f.Wave, f.MeanPrompt, f.MaxPrompt, f.WaveTokens, waveSigmas, f.Free, f.FLOPsPerToken/1e9, f.GPUs, f.PeakFLOPs/1e12,
		f.TokenS*1e6, 1e3*f.MeanS, 1e3*f.P99S, f.Outliers)
}
