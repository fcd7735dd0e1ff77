package perf

// Prefill attention read as measured (attn44, issue #28).
//
// The aiconfigurator prefill-attention curves (KernelFigures.PrefillAttn)
// time vLLM's own attention backend on one causal prefill: FLOPs
// 2·b·h·d·s² over latency (tools/aicdata/README.md, "Definitions"), the
// convention of FlashAttention-2's paper ("4·seqlen²·head dimension·number
// of heads ... With causal mask, we divide this number by 2", Dao,
// arXiv:2307.08691 §4.1). The curves agree with the kernels' papers: A100
// FA2 56% of the BF16 peak at 8–16 Ki, inside the paper's "50-73% of the
// theoretical maximum FLOPs/s on A100"; H100 FA3 61–67% against FA3's "up
// to 740 TFLOPs/s (75% utilization)" in FP16 (Shah et al.,
// arXiv:2407.08608, abstract). They were multiplied by MeasuredCompute
// (0.42, fitted) as well, pricing an A100 8K chunk at a 12K span at 24% of
// the peak and H100 at 27%: a second discount on a measurement.
// MeasuredCompute's mechanism (perf_constants.go: "the tables time one
// kernel at a time on hot buffers, a step runs hundreds back to back on
// cold weights") has no reading for this kernel: prefill attention holds
// no weights (its K and V are the chunk's own, just written, and the
// prefix's cache), and a long chunk is compute-bound. The cited curves
// (H20's FA3 0.73, AMD's AITER) were already read unscaled
// (citedScaledByMeasuredCompute).

// UsePrefillAttnAsMeasured reads the tables' prefill-attention curve
// unscaled (prefillAttnShare). Off: × MeasuredCompute, as before attn44.
// Off: on, the held-out vLLM-on-Hopper rows lose more than the A100 and
// SGLang rows gain (docs/calibration-analysis.md, attn44). perf45 found no
// under-priced Hopper GEMM for the share to be carrying; what holds the
// switch back is scicom's Qwen3-14B TP 4–8 rows, too fast at every load
// with decode included, and the dense curve's use for MLA prefill.
var UsePrefillAttnAsMeasured = false

// prefillAttnShare is the share of the prefill-attention curve a serving
// step reaches: 1 (the curve as measured) under UsePrefillAttnAsMeasured,
// else kernelShare.
func (e *Efficiency) prefillAttnShare() float64 {
	if UsePrefillAttnAsMeasured {
		return 1
	}
	return e.kernelShare()
}
