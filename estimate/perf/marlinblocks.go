package perf

import "math"

// UseMarlinBlocks prices the routed experts that vLLM runs through
// Marlin's fused MoE (StepSetup.MarlinMoE) at the rows Marlin's kernel
// really multiplies: whole blocks of block_size_m rows per expert hit,
// with block_size_m chosen by fused_marlin_moe's own heuristic (trial
// switch, issue #28 "largebatch"; off: see the trial recorded below).
//
// What vLLM does (vllm/model_executor/layers/fused_moe/fused_marlin_moe.py,
// fused_marlin_moe: the same lines in Yuran-7/vllm-0.11 at 2665d4910 and
// vllm-project/vllm @00a130a0, so 0.11 through at least the newest stored
// copy, 0.19.0 between them):
//
//	M, K = hidden_states.size(); E = w1.size(0); topk = topk_ids.size(1)
//	for block_size_m in [8, 16, 32, 48, 64]:
//	    if M * topk / E / block_size_m < 0.9: break
//
// then moe_align_block_size pads every expert's tokens to whole blocks of
// block_size_m, and moe_wna16_marlin_gemm runs one tile per block: the
// kernel (csrc/moe/marlin_moe_wna16/marlin_template.h, same fork) issues
// its MMAs for all thread_m_blocks = block_size_m / 16 row blocks of a tile
// (the 8-row block through mma_trans), masking only the loads and stores of
// rows past block_num_valid_tokens — a block's tensor work is block_size_m
// rows whatever its real token count.
//
// Under expert parallelism with a gathering all-to-all (allgather /
// reduce-scatter or naive; MarlinExperts, standard activation format),
// hidden_states holds every DP rank's tokens (M = the step's total) while
// w1 holds only this GPU's E/EP experts, so M·topk/E counts EP times the
// pairs a local expert receives: the heuristic picks a block for EP times
// the real load. Kimi-K2.5 on 8 × H20 (384 experts, top-8, EP 8, 48 local
// experts) at 8 sequences a rank (M = 64): M·k/E = 10.7 → block 16, while
// a local expert gets 64·8/384 = 1.33 tokens; at 16 a rank (M = 128) block
// 32 for 2.67. The rows multiplied per GPU and layer are E_local ×
// E[ceil(n/B)] × B, n ~ Poisson(M·k/E_global) (uniform routing): 565 rows
// at M = 64, 1,430 at M = 128, against 64 and 128 real pairs. On most
// GPUs that is still weight streaming; on the H20 (148 TFLOPS BF16 dense
// against 4.0–4.8 TB/s, a ridge near 8 rows for INT4 weights) it is the
// step: 2 × 1,430 × 44 M × 60 layers = 7.5 TFLOP at M = 128.
//
// The padded rows run at the dense GEMM rate (gemmFLOPS × gemmEff: a
// block is a dense tile of MMAs); the expert term's compute side is the
// larger of that and the fused-MoE pricing of the real pairs, so the
// switch never makes a step cheaper. Point-to-point all-to-alls (DeepEP,
// pplx: BatchedMarlinExperts, a fixed block of 64 over per-expert batches)
// are left as they are.
//
// Evidence that the held-out source measured this shape (read, not fitted):
// pegainfer-project/pegainfer@e38dfdd8 docs/models/kimi-k2/
// tp1-dp8-ep8-performance.md, vLLM 0.19.0 TP1 + DP8 + EP8 on 8 × H20,
// ranks pinned at 8,8,8,8,8,8,8,8 run 48.41 ms TPOT, one rank at 9
// (every rank padded to CUDA-graph bucket 16, dp_utils.py's DP padding)
// 96.01 ms: doubling the padded tokens a rank runs from 8 to 16 doubles the
// step, as block 16 → 32 doubles the Marlin tiles' work.
//
// Trial (2026-12-06, no refit): calibration 140 of 160 within ±30%
// unchanged (only gpt-oss-20b on one H100 with Marlin MXFP4 moves, by 1–2%);
// holdout 102 -> 103 of 248; pegainfer-vllm-h20-baseline's output tok/s at
// 64 / 128 / 256 sessions +165% / +250% / +244% -> +105% / +60% / +45%, its
// p99 TTFT at 256 -57% -> -19%. The step it prices at 8 and 16 tokens a
// rank, 53.1 and 103.8 ms, is within 10% of the source's pinned controls
// (48.4 and 96.0 ms, above). What is left at 32–128 sessions is the DP load
// balancer's imbalance padded to the next CUDA-graph size (not modelled).
// With UseDPGraphPadding and sim.UseDPLB as well (the three together,
// no refit): calibration 140 of 160 unchanged, holdout 102 -> 109 of 248;
// the source 5 -> 12 of its 18 figures within ±30%, output tok/s at 16 / 32
// / 64 / 128 / 256 sessions +19 / +66 / +165 / +250 / +244% -> +5 / +34 /
// +27 / +14 / +13%, p99 TTFT -32 / -54 / -58 / -63 / -57% -> -23 / -46 /
// -24 / -28 / -22%; elsewhere only vllm-pr-29284's DP32 row moves (+63% ->
// +60%, the balancer's skew on its slowest rank).
// Adopted with the other two in session 32 (branch adopt, measured after
// the median-TPOT figures joined): calibration 164 of 184 unchanged,
// holdout 112 -> 123 of 263; moe-ep throughput 17 -> 20 of 23 within ±30%
// (median 14% -> 13%, LOSO coverage 83% -> 96%), moe-ep TPOT 6 -> 10 of 12
// (median 40% -> 12%). Every term is a cited mechanism of vLLM and the
// kernel, with no constant fitted to the source.
var UseMarlinBlocks = true

// marlinBlockSizes are fused_marlin_moe's candidate block_size_m values.
var marlinBlockSizes = [...]float64{8, 16, 32, 48, 64}

// marlinBlockM is the block_size_m fused_marlin_moe picks for m tokens,
// topK experts per token and e experts held by the GPU (w1.size(0)): the
// first candidate with m·topK/e/block < 0.9, else the last (the Python
// loop's variable keeps its last value when nothing breaks).
func marlinBlockM(m, topK, e float64) float64 {
	for _, b := range marlinBlockSizes {
		if m*topK/e/b < 0.9 {
			return b
		}
	}
	return marlinBlockSizes[len(marlinBlockSizes)-1]
}

// expectedBlocks is E[ceil(n/b)] for n ~ Poisson(lambda): Σ_{j≥0} P(n >
// j·b), the blocks moe_align_block_size gives one expert. Past a mean of
// 500 (e^−λ underflows) the normal limit λ/b + 1/2 stands in.
func expectedBlocks(lambda, b float64) float64 {
	if lambda <= 0 || b <= 0 {
		return 0
	}
	if lambda > 500 {
		return lambda/b + 0.5
	}
	// Walk the pmf; blocks = Σ_n pmf(n)·ceil(n/b).
	p := math.Exp(-lambda)
	var sum, cum float64
	for n := 0; ; n++ {
		if n > 0 {
			p *= lambda / float64(n)
		}
		sum += p * math.Ceil(float64(n)/b)
		cum += p
		if float64(n) > lambda && (1-cum < 1e-12 || float64(n) > lambda+50*math.Sqrt(lambda)+50) {
			break
		}
	}
	return sum
}

// marlinRows is the rows Marlin's tiles multiply on one GPU in one MoE
// layer for total tokens routed (every DP rank's with a gathering
// all-to-all) in a call of m tokens, and the block size it picked.
//
// The block is picked for the call's tokens, m (DP padding included); the
// tokens per expert are the real ones, total (the padding's dummy rows are
// left out of the routing, as if they reached no expert).
func (sm *StepModel) marlinRows(total, m float64) (rows, block float64) {
	s := &sm.S
	local := sm.experts // TP-sharded experts: every GPU holds all of them (a slice each)
	if s.EP {
		local = sm.expertsPerGPU
	}
	if m <= 0 || local <= 0 || sm.experts <= 0 {
		return 0, 0
	}
	block = marlinBlockM(m, sm.topK, local)
	lambda := total * sm.topK / sm.experts
	return local * expectedBlocks(lambda, block) * block, block
}

// marlinFLOPs is one GPU's Marlin tile FLOPs for a step of total tokens
// over all DP ranks in a call of call tokens (total with the DP padding of
// a graphed step, dpGraphTokens): the padded rows through each expert's
// (slice of the) weights, in every MoE layer.
func (sm *StepModel) marlinFLOPs(total, call float64) float64 {
	s := &sm.S
	rows, _ := sm.marlinRows(total, call)
	params := sm.expertParams
	if !s.EP && s.EPSize() > 1 {
		params /= float64(s.EPSize())
	}
	return 2 * rows * params * sm.moeLayers
}

// marlinApplies says the step's experts run through fused_marlin_moe's
// block heuristic: the setup says Marlin runs them, and no point-to-point
// all-to-all hands them per-expert batches.
func (s *StepSetup) marlinApplies() bool {
	return UseMarlinBlocks && s.MarlinMoE && !s.A2A.PointToPoint()
}

// UseDPGraphPadding counts, in the tokens a gathered fused-MoE call holds
// (what Marlin's block heuristic reads, UseMarlinBlocks), the padding a
// CUDA-graphed lock-step step gives every DP rank (trial switch, issue #28
// "largebatch"; off).
//
// vLLM pads a rank's batch to the next captured size (the default sizes
// [1, 2, 4] + range(8, 256, 8) + range(256, max + 1, 16), vllm/config/
// vllm.py _set_cudagraph_sizes: the source's H20 log shows the 51 PIECEWISE
// sizes of max 512), and with DP and CUDA graphs on pads every rank to the
// largest rank's padded count (vllm/v1/worker/dp_utils.py
// _synchronize_dp_ranks: should_dp_pad = synced_cudagraph_mode != 0, then
// _post_process_dp_padding's max over ranks; stored vllm-project/vllm
// @00746147, and read by the source in 0.19.0's installed copy). The
// gathering all-to-all then hands the experts DP × that many rows. One rank
// at 9 while the others hold 8 makes the call 8 × 16 = 128 rows, not 72.
// Only Marlin's block choice reads it (the padding's dummy rows are not
// priced through the dense layers or the all-to-all). It matters only
// with ranks out of balance, which vLLM's DP load balancer makes
// (sim.UseDPLB); the trial and adoption of the three switches are at
// UseMarlinBlocks.
var UseDPGraphPadding = true

// captureSize is the smallest of vLLM's default CUDA-graph sizes (up to
// ceiling) that holds n tokens; 0 past the ceiling (the step runs
// without a graph, unpadded).
func captureSize(n, ceiling float64) float64 {
	var c float64
	switch {
	case n <= 0:
		return 0
	case n <= 2:
		c = math.Ceil(n)
	case n <= 4:
		c = 4
	case n < 256:
		c = 8 * math.Ceil(n/8)
	default:
		c = 256 + 16*math.Ceil((n-256)/16)
	}
	if c > ceiling {
		return 0
	}
	return c
}

// dpGraphTokens is the tokens the step's gathered fused-MoE call holds:
// sp.total, or with UseDPGraphPadding on a CUDA-graphed lock-step step of
// DP > 1 ranks, DP × the busiest rank's captured size.
func (sm *StepModel) dpGraphTokens(runs []RankRun, sp spread) float64 {
	s := &sm.S
	if !UseDPGraphPadding || s.DP <= 1 || !s.CUDAGraphs || s.EnforceEager || sm.experts == 0 || s.A2A.PointToPoint() {
		return sp.total
	}
	busiest := maxRankTokens(runs, s.SpecTokens) * sm.microBatchFrac(runs)
	c := captureSize(busiest, s.captureCeiling())
	if c == 0 {
		return sp.total
	}
	return max(sp.total, float64(s.DP)*c)
}
