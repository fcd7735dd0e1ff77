package perf

// UseDPPaddingRouted counts the rows vLLM's DP padding adds to a
// CUDA-graphed lock-step step as tokens the routed experts serve (trial
// switch, ep45).
//
// With DP > 1 and CUDA graphs, vLLM pads every rank's batch to the largest
// rank's captured size (v0.10.1: GPUModelRunner.get_dp_padding, a CPU
// all-reduce of the ranks' token counts, skipped only under enforce_eager;
// later releases: vllm/v1/worker/dp_utils.py, should_dp_pad when the synced
// CUDA-graph mode is not NONE). The padded rows run the whole forward pass:
// the router scores them and the all-to-all dispatches them to their top-k
// experts like any token — no mask of padded rows was found in FusedMoE
// (vllm/model_executor/layers/fused_moe/layer.py at v0.10.1 and v0.11.0),
// and VLLM_RANDOMIZE_DP_DUMMY_INPUTS exists because dummy rows do reach
// experts (vllm/envs.py at v0.10.1). So one rank at 2 sequences while seven
// hold 1 makes the experts read the weights of 16 tokens' choices, not 9:
// vllm-issue23752's c9 against c8. Priced for decode steps only: a step
// with a prompt chunk pads every rank to that chunk's size on 0.10.1
// (get_dp_padding's "TODO(tms)": padding enabled for prefills) but not where
// the synced graph mode is NONE in later releases, which was not traced
// per release; and the tiled simulation (estimate/sim MaxRepRanks), whose
// ranks prefill in the same steps as their copies, would multiply that
// padding. The dummy rows' dense-layer work (M 1 → 2, memory-bound) and
// their all-to-all bytes are not added.
//
// Off (ep45). On, without a refit: vllm-issue23752 c9 20.3 → 22.8 ms (c9/c8
// 1.107 against 1.098 measured), holdout 489 → 490 of 658, moe-ep
// throughput 17 → 18 of 19, moe-ep TPOT median error 13% → 9% (pegainfer's
// c32 and c64 medians −27/−22% → −11/−6%), no regime losing a figure,
// calibration 202 of 220 unchanged. Held back by estimate/pd's
// TestPropertyMoreBandwidthNeverRaisesTTFT: on its wide-EP H200 case the
// TTFT p50 with infinite NICs comes out 2.2% above 400 Gbit/s ones (the
// noise bound is 2%): the prefill queue (0.485 → 0.503 s) and the decode
// admission's read notice (25 → 35 ms) move with the closed loop's
// arrivals; the mean moves +0.8%.
var UseDPPaddingRouted = false

// dpRoutedTokens is the tokens the routed experts serve in this step:
// sp.total, or with UseDPPaddingRouted on a vLLM CUDA-graphed lock-step
// decode step of DP > 1 ranks, the busy ranks × the busiest rank's
// captured size when that is more.
func (sm *StepModel) dpRoutedTokens(runs []RankRun, sp spread) float64 {
	s := &sm.S
	if !UseDPPaddingRouted || s.SGLang || s.DP <= 1 || !s.CUDAGraphs || s.EnforceEager || sm.experts == 0 {
		return sp.total
	}
	prefill := false
	eachLoad(runs, func(l RankLoad) { prefill = prefill || l.PrefillTokens > 0 })
	if prefill {
		return sp.total
	}
	busiest := maxRankTokens(runs, s.SpecTokens) * sm.microBatchFrac(runs)
	c := captureSize(busiest, s.captureCeiling())
	if c == 0 {
		return sp.total
	}
	return max(sp.total, float64(busyRanks(runs, s.SpecTokens))*c)
}

// busyRanks is the number of ranks with tokens this step. An idle rank's
// dummy batch is left out of the routed tokens: its rows are not a
// sequence's, and where the release replays it in a graph (0.11.0 on)
// pegainfer's one-sequence step (17.9 ms, against 26.4 at eight) shows it
// costs the experts far less than eight sequences' choices.
func busyRanks(runs []RankRun, spec int) int {
	n := 0
	for _, r := range runs {
		for _, l := range r.Loads {
			if l.tokens(spec) > 0 {
				n += max(0, r.N)
			}
		}
	}
	return n
}
