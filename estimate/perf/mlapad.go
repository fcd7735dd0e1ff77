package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/vllm"
)

// FlashMLA's query-row tile in dense MLA decode (DeepSeek-V2/V3/R1 on
// vLLM's FLASHMLA backend; issue #28).
//
// FlashMLA runs MLA decode as MQA over one latent KV head and folds the
// sequence's query positions into the head dimension: the query of one
// sequence is q_seq_per_hk = seqlen_q × (num_heads_q / num_heads_k) rows,
// computed in tiles of 64 rows, so a call multiplies
// ceil(q_seq_per_hk / 64) × 64 rows against every KV block it reads:
//   - deepseek-ai/FlashMLA@414a2f3 (the first release, 2025-02-21):
//     csrc/flash_api.cpp folds ngroups = num_heads / num_heads_k into
//     seqlen_q (q.view(b, s_q, h_k, ngroups, d).transpose(2, 3).reshape(b,
//     s_q·ngroups, h_k, d)); get_mla_metadata schedules with block_size_m
//     = 64 over ceil_div(num_heads_per_head_k, block_size_m);
//     csrc/flash_fwd_mla_kernel.h instantiates
//     Flash_fwd_kernel_traits_mla<576, 64, 64, 8, T, 512> (kBlockM = 64)
//     and launches num_m_block = ceil_div(params.seqlen_q, kBlockM) tiles;
//     flash_mla/flash_mla_interface.py documents num_heads_per_head_k as
//     "seq_len_q * num_heads_q // num_heads_k".
//   - deepseek-ai/FlashMLA@9241ae3 (2026-04-29): csrc/sm90/decode/dense/
//     config.h BLOCK_SIZE_M = 64; csrc/api/dense_decode.h q_seq_per_hk =
//     seqlen_q_ori × num_q_heads_per_hk, splitkv_mla.cuh num_m_block =
//     ceil_div(q_seq_per_hk, BLOCK_SIZE_M) CTAs a KV head and SM part,
//     each "responsible for all the BLOCK_SIZE_M q_heads in the m_block"
//     (the kernel's comment); rows past q_seq_per_hk are out-of-bound
//     rows of the tile (get_mask_len), not a smaller MMA.
//
// vLLM calls it with its rank's heads and one KV head: vllm/v1/attention/
// backends/mla/flashmla.py (vllm-project/vllm@01b1d340)
// FlashMLAMetadataBuilder._build_decode passes num_q_tokens_per_head_k =
// max_query_len × num_q_heads (num_q_heads = get_num_attention_heads(
// parallel_config): the heads of one TP rank) and num_heads_k = 1 ("MQA
// for the decode path"), and FlashMLAImpl._forward_decode reshapes q to
// (decodes, query_len, heads, 576) (reshape_query_for_spec_decode), so
// MTP's draft positions fold into the rows. The V1 backend of 0.8.x
// called get_mla_metadata(seq_lens, self.num_q_heads, 1) on one query
// position (a secondary reading of flashmla.py; not re-read at a tag).
//
// Which releases run it (vllm.Release.MLABackend, vllm/facts_mla.go): the
// default MLA backend on Hopper from 0.8.0 (PR #14451) to 0.11.0; from
// 0.11.1 FLASH_ATTN_MLA comes first (PR #27363) except with an FP8 KV
// cache, which falls to FlashMLA; Blackwell runs CUTLASS_MLA, then
// FLASHINFER_MLA; DeepSeek-V3.2 FLASHMLA_SPARSE (padded separately,
// dsv4.go / the sparse kernels). A row or spec that names the backend
// (VLLM_ATTENTION_BACKEND=FLASHMLA) runs it whatever the default.
//
// The cost: DeepSeek-V3 at TP8 has 128 / 8 = 16 heads a rank and one
// query position: 16 rows computed as 64, 4× the decode-attention FLOPs;
// at TP1 (128 rows, two tiles) nothing pads. deepseek-ai/FlashMLA issue
// #30 (H20, b = 128, 8,192 context, 16 heads): 30 TFLOPS and 1,012 GB/s
// at s_q = 1 against 120–130 TFLOPS at s_q 3–8 (48–128 rows) — the same
// tile's time, reported on the unpadded rows. The KV is read once per
// tile column: the bytes are unchanged.

// UseFlashMLAHeadPadding prices vLLM's dense MLA decode on the FLASHMLA
// backend on its padded query rows (flashMLAPadFactor). Off: the FLOPs are
// the rank's heads' own.
//
// Measured without a refit (2026-12-06): calibration 171 of 184 within
// ±30% either way, holdout 163 of 375 (dense-bursts summary) and the
// holdout split 142 of 295 unchanged, the MoE and moe-ep throughput and
// TPOT coverage rows unchanged, the aiconfigurator guard passing. The
// rows it reaches are vLLM's FLASHMLA ones at TP8 (21 targetable:
// tanjunchen H20 0.8.2, gpustack H200 0.11.0, dstack H200 0.7.3 with
// VLLM_ATTENTION_BACKEND=FLASHMLA) and they barely move: the H20 rows are
// 128-token prompts (little context to attend), and on an H200 even the
// padded kernel stays under the ridge (2 × 1,088 × 64 / 1,152 B = 121
// FLOPs a byte against 989 TFLOPS / 4.8 TB/s ≈ 206), so only steps that
// add prefill FLOPs to the same roof move (gpustack 32K TPOT +0.7%).
// Adopted: the mechanism is the kernel's, cited, and costs nothing
// measured; it matters where the GPU's ridge is low (H20: 37 FLOPs a
// byte) at long contexts.
var UseFlashMLAHeadPadding = true

// flashMLABlockM is FlashMLA's dense decode query tile (BLOCK_SIZE_M,
// kBlockM): 64 rows.
const flashMLABlockM = 64

// FLASH_ATTN_MLA (vLLM's Hopper default from 0.11.1 without an FP8 KV
// cache) pads the same way, in the same 64-row tile:
//   - vllm/v1/attention/backends/mla/flashattn_mla.py (vllm-project/vllm,
//     stored version 00b9b7ad) FlashAttnMLAImpl.forward_mqa calls the FA3
//     kernel as MQA over one latent KV head: flash_attn_varlen_func(q=q_pe
//     [64 wide], k=k_pe_cache.unsqueeze(-2), v=kv_c_cache.unsqueeze(-2)
//     [512 wide], q_v=q_nope, cu_seqlens_q=query_start_loc, ...), so the
//     kernel sees headdim 64, headdim_v 512, h_k = 1 and h = the rank's
//     heads; the scheduler metadata is built with num_heads_q = num_heads
//     × dcp_world_size (DCP's gathered heads) and num_heads_kv = 1.
//   - vllm-project/flash-attention (vLLM's fork) hopper/tile_size.h
//     tile_size_fwd_sm90: element_size 2, headdim <= 64, headdim_v == 512
//     → {kBlockM 64, kBlockN 64} — the same line at 0a721dae (2025-04-10,
//     the upstream sync that brought the MLA shapes), 13d0fd9c, 2d3b7508,
//     4695e6be, 07602adc and 617264c1 (2026-08-06), so whichever fork
//     commit 0.11.1 pins (not read) computes 64-row tiles.
//   - hopper/flash_api.cpp get_pack_gqa (617264c1): PackGQA is always on
//     for paged KV without TMA or with splits, and otherwise
//     hopper/heuristics.h should_pack_gqa returns true for a varlen query
//     ("if (varlen_q) return true"), which vLLM's cu_seqlens_q makes it;
//     hopper/flash_prepare_scheduler.cu counts a sequence's M blocks as
//     ceil(seqlen_q × qhead_per_khead / kBlockM): query positions × heads
//     folded into 64-row tiles, exactly FlashMLA's rule.
//
// CUTLASS_MLA (Blackwell's default up to 0.13.x) pads every query token's
// heads to one 128-row tile:
//   - vllm/v1/attention/backends/mla/cutlass_mla.py (stored version
//     008c4fe4): MAX_HEADS = 128, CutlassMLAImpl passes q_pad_num_heads =
//     MAX_HEADS, allocates out as (B_q, MAX_HEADS, 512) and keeps [:, :H];
//     B_q is the decode tokens (UNIFORM_SINGLE_TOKEN_DECODE), one query
//     position a call entry, so positions are not folded into the rows.
//   - csrc/attention/mla/sm100_cutlass_mla_kernel.cu (stored version
//     0f5257e2) MlaSm100::TileShape = Shape<_128, _128, Shape<_512, _64>>
//     and the problem shape's H is the static TileShapeH (128) whatever
//     the model's heads.
//
//   - Spec decode: CUTLASS_MLA's builder declares single-token decode, so
//     this prices each verified position as its own 128-row tile (the
//     drafts' real path under it was not read).
//
// FLASHINFER_MLA (Blackwell from 0.14.0) runs FlashInfer's trtllm-gen MLA
// decode cubins. FlashInfer's own selector was not read; TensorRT-LLM's
// copy (NVIDIA/TensorRT-LLM cpp/tensorrt_llm/kernels/trtllmGenKernels/
// fmha/fmhaKernels.h, stored version 01c84c67, hashFromRunnerParams) runs
// MLA generation with <= 32 heads a KV head on the low-latency
// SwapsMmaAbForGeneration kernel with maxNumHeadsQPerKvInCta (tileSizeQ)
// 16 (8 at <= 8 heads), else KeepsMmaAbForGeneration with 64, and checks
// heads < tile or heads % tile == 0: DeepSeek's 128 / TP heads (8, 16,
// 32, 64, 128) fill those tiles, so nothing pads at power-of-two TP. Not
// modelled (factor 1), which is what that reading gives.
// TRITON_MLA: not read, not modelled.

// UseFlashAttnMLAHeadPadding extends the padding to FLASH_ATTN_MLA's
// 64-row tile (mlaDecodeTile). Off: FLASH_ATTN_MLA's FLOPs are the rank's
// heads' own.
//
// Measured without a refit (2026-12-06, with UseCutlassMLAHeadPadding):
// calibration 174 of 184, holdout 162 of 375 (dense-bursts summary) and
// the holdout split 142 of 295, all as on main; the MoE and moe-ep
// throughput and TPOT rows unchanged; the aiconfigurator guard passing.
// The rows it reaches: p5-c8/16/32 (DeepSeek-R1, H200 TP8, vLLM release
// unknown, so the newest's FLASH_ATTN_MLA): TTFT +0.02/+0.03/+0.08%,
// which moves only the moe and moe-ep ttft_mean band edges by ≤ 0.05%;
// ten holdout TP1 rows (H20-141G 0.19.0 at 1-token prompts, H200
// 0.11.1rc5) that do not move. Adopted: the kernel's tile, cited, at no
// measured cost.
var UseFlashAttnMLAHeadPadding = true

// UseCutlassMLAHeadPadding extends the padding to CUTLASS_MLA's 128-head
// tile (mlaDecodeTile). Off: CUTLASS_MLA's FLOPs are the rank's heads' own.
// No calibration or holdout row runs CUTLASS_MLA (the B200 vLLM rows run
// FLASHINFER_MLA): the replay tables are identical with it on or off. On:
// vLLM pads the query to 128 heads itself (cited above).
var UseCutlassMLAHeadPadding = true

// mlaDecodeTile is the query-row tile of vLLM's dense MLA decode kernel on
// the backend, and whether the sequence's query positions fold into the
// rows (true) or each position is its own tile (false); rows 0 where the
// backend is not modelled or its switch is off.
func mlaDecodeTile(backend string) (rows int, foldsPositions bool) {
	switch {
	case backend == vllm.MLAFlashMLA && UseFlashMLAHeadPadding:
		return flashMLABlockM, true
	case backend == vllm.MLAFlashAttn && UseFlashAttnMLAHeadPadding:
		return 64, true // tile_size_fwd_sm90(64, 512, ...) kBlockM, PackGQA
	case backend == vllm.MLACutlass && UseCutlassMLAHeadPadding:
		return 128, false // MlaSm100 TileShapeH, MAX_HEADS
	}
	return 0, false
}

// flashMLAQueryRows is the query rows one sequence's FlashMLA decode call
// computes on one rank before padding: the rank's heads (ceil(heads / TP)),
// × the DCP group (its queries are all-gathered: dcp.go), × the verified
// positions (1 + draft tokens).
func flashMLAQueryRows(s *StepSetup) float64 {
	return mlaHeadRows(s) * float64(1+s.SpecTokens)
}

// mlaHeadRows is one query position's rows on one rank: the rank's heads
// × the DCP group.
func mlaHeadRows(s *StepSetup) float64 {
	m := s.Model
	heads := (m.NumHeads + max(1, s.TP) - 1) / max(1, s.TP)
	return float64(heads * max(1, s.DCP))
}

// flashMLAPadFactor is the padded over the real query rows of one rank's
// dense MLA decode call where the step runs a vLLM MLA backend whose tile
// mlaDecodeTile knows (FLASHMLA, FLASH_ATTN_MLA, CUTLASS_MLA) and its
// switch is on; 1 elsewhere (other backends, SGLang, sparse MLA and
// DeepSeek-V4, which dsv4HeadsPerRank pads itself).
func flashMLAPadFactor(s *StepSetup) float64 {
	m := s.Model
	if m == nil || !m.IsMLA() || m.DSV4 != nil || m.IsSparseAttention() || s.SGLang {
		return 1
	}
	tile, folds := mlaDecodeTile(s.MLABackend)
	if tile <= 0 {
		return 1
	}
	rows := mlaHeadRows(s)
	if folds {
		rows = flashMLAQueryRows(s)
	}
	if rows <= 0 {
		return 1
	}
	return math.Ceil(rows/float64(tile)) * float64(tile) / rows
}
