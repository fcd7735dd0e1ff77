package perf

import "math"

// UseEPStraggler prices the routed experts' weight reads at the busiest
// expert-parallel rank's share instead of the mean rank's (issue #28). On
// since session 44: measured with no refit on the then main (minimax44,
// docs/calibration-analysis.md "MiniMax-M2.5 decode on H100"): holdout 477
// -> 483 of 658 within ±30% (six figures in, none out), calibration 202 of
// 220 unchanged, aiconfigurator 112 of 141 unchanged; the reference
// scenario's decode at 32 sessions 73.5 -> 80.0 ms. Off in sessions 42-43
// when, on an older main, it moved holdout 116 -> 115 of 298.
//
// With expert parallelism every rank holds E/EP whole experts and runs the
// experts its tokens' top-k picks land on; the layer's output then meets a
// collective every rank takes part in — the TP all-reduce of vLLM's
// MoEPrepareAndFinalizeNoDPEPModular (TP + EP, no DP: each rank computes
// its local experts for all tokens and the partial sums are all-reduced) or
// the all-to-all combine with DP. A collective finishes when its slowest
// member arrives, so the layer takes the busiest rank's expert time, not
// the mean. Under uniform routing the number of distinct local experts a
// rank's step hits is Binomial(E/EP, p), p = 1 − (1 − k/E)^T (expertWork's
// hit rate), independently per rank to first order; the step pays, per
// layer, the expected maximum of EP such draws (epBusiestHit). At decode
// sizes the weights of the experts hit are the expert term (weight
// streaming), so the straggler multiplies it by E[max]/mean: DeepSeek-V4-
// Flash on 8 ranks (256 experts, 32 a rank, top-6) at batch 1 reads 2.10
// experts on its busiest rank per layer against 0.75 on the mean rank; at
// batch 8 8.69 against 5.53 (TestEPBusiestHit). The ratio falls towards 1 as the batch grows
// (the hit rate nears 1, every rank reads all its experts). The FLOPs stay
// at the mean share: the pairs a rank gets are Binomial(T·k, 1/EP), whose
// spread relative to the mean shrinks as 1/√(T·k/EP) (≈ 1.2% of a σ at a
// prefill step of 8,192 tokens, top-6, EP 8).
//
// The published trace of tant2tls/Deepseek-serving (reports/blog-
// architecture-h100-v1/components.csv at 84d04315, DeepSeek-V4-Flash 0731
// on 8 × H100, TP8 + EP, vLLM 0.31.1rc1.dev50) shows the wait where the
// mechanism puts it: the TP all-reduce kernels, 86 a step, sum to 0.79–0.98
// ms a step at batch 1 (9–11 µs a call) and 1.38–1.50 ms at batch 8, against
// vLLM's custom all-reduce floor on 8 H100s of 4.61 µs (KernelFigures.
// AllReduceS, aiconfigurator) — the excess, ~0.47 and ~0.9 ms a step, is
// time the all-reduce spends waiting for the slowest rank, of the size the
// straggler adds to the experts (+0.60 and +1.40 ms, expertTime at the
// model's expert HBM rate: 0.33 -> 0.93 ms and 2.46 -> 3.86 ms a step).
// vLLM's TP + EP path without DP: MoEPrepareAndFinalizeNoDPEPModular
// (vllm-project/vllm vllm/model_executor/layers/fused_moe/prepare_finalize/
// no_dp_ep.py at 029329a8) communicates nothing in prepare or finalize and
// reports output_is_reduced() false, so the layer's output is reduced by
// the TP all-reduce after it — one collective a MoE layer, the one the
// census already counts (dsv4MoEKernels). The trace is of the held-out source, so it is
// evidence of the mechanism, not a fit: nothing here is read from it.
var UseEPStraggler = true

// epBusiestHit is the expected maximum over ranks draws of Binomial(n, p):
// the distinct experts the busiest of ranks expert-parallel ranks, each
// holding n experts, reads when each of its experts is hit with
// probability p. E[max] = Σ_{j ≥ 1} P(max ≥ j) = Σ_{j=1..n} 1 − F(j−1)^ranks,
// F the binomial's CDF. n is rounded to a whole number of experts.
func epBusiestHit(n, p float64, ranks int) float64 {
	k := int(math.Round(n))
	if k <= 0 || p <= 0 || ranks <= 1 {
		return n * p
	}
	if p >= 1 {
		return float64(k)
	}
	q := 1 - p
	pmf := math.Pow(q, float64(k)) // P(X = 0)
	cdf := pmf
	var e float64
	for j := 1; j <= k; j++ {
		e += 1 - math.Pow(cdf, float64(ranks)) // P(max ≥ j) with cdf = F(j−1)
		pmf *= float64(k-j+1) / float64(j) * p / q
		cdf = min(1, cdf+pmf)
		if cdf >= 1 {
			break
		}
	}
	return e
}

// expertsRead is the experts one layer's expert time reads on the rank
// that sets the pace: the mean rank's expertsPerGPU × hit, or with
// UseEPStraggler under expert parallelism the busiest rank's.
func (sm *StepModel) expertsRead(hit float64) float64 {
	s := &sm.S
	if UseEPStraggler && s.EP && s.EPSize() > 1 {
		return epBusiestHit(sm.expertsPerGPU, hit, s.EPSize())
	}
	return sm.expertsPerGPU * hit
}
