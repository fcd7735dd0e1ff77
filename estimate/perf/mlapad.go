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

// flashMLAQueryRows is the query rows one sequence's FlashMLA decode call
// computes on one rank before padding: the rank's heads (ceil(heads / TP)),
// × the DCP group (its queries are all-gathered: dcp.go), × the verified
// positions (1 + draft tokens).
func flashMLAQueryRows(s *StepSetup) float64 {
	m := s.Model
	heads := (m.NumHeads + max(1, s.TP) - 1) / max(1, s.TP)
	return float64(heads * max(1, s.DCP) * (1 + s.SpecTokens))
}

// flashMLAPadFactor is the padded over the real query rows of one rank's
// dense MLA decode call where the step runs vLLM's FLASHMLA backend and
// UseFlashMLAHeadPadding is on; 1 elsewhere (other backends, SGLang,
// sparse MLA and DeepSeek-V4, which dsv4HeadsPerRank pads itself).
func flashMLAPadFactor(s *StepSetup) float64 {
	m := s.Model
	if !UseFlashMLAHeadPadding || m == nil || !m.IsMLA() || m.DSV4 != nil || m.IsSparseAttention() ||
		s.SGLang || s.MLABackend != vllm.MLAFlashMLA {
		return 1
	}
	rows := flashMLAQueryRows(s)
	if rows <= 0 {
		return 1
	}
	return math.Ceil(rows/flashMLABlockM) * flashMLABlockM / rows
}
