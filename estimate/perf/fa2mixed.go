package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// FlashAttention-2's decode rows in a mixed step (issue #28, mixed44).
//
// vLLM's V1 FLASH_ATTN backend runs a step's prompt chunks and decodes in
// one varlen call: vllm/v1/attention/backends/flash_attn.py at v0.11.0,
// FlashAttentionImpl.forward, one flash_attn_varlen_func over all
// num_actual_tokens with max_seqlen_q = the step's longest query and the
// paged block_table. On compute capability 8.x that call is FA2
// (vllm/attention/utils/fa_utils.py at v0.11.0: fa_version = 3 only when
// device_capability.major == 9; the backend is the V1 default for SM 8.0+
// without sinks or an FP8 KV cache, vllm/platforms/cuda.py at v0.11.0,
// and first in the non-MLA priorities of SM ≠ 10 at v0.12.0–v0.24.0).
// FA2's varlen forward (vllm-project/flash-attention@04325b67, a stored
// commit; the one v0.11.0 pins was not read) packs a GQA group's heads
// into the query rows only when max_seqlen_q == 1 (seqlenq_ngroups_swapped
// in csrc/flash_attn/flash_api.cpp mha_varlen_fwd; flash_attn.py's own
// comment: "special max_query_len=1 packed-GQA handling in FA2"), and a
// paged KV cache sends it to the split-KV kernel (run_mha_fwd(params,
// stream, paged_KV)), whose tile is kBlockM = 64 query rows "Fixed for all
// head dimensions" (csrc/flash_attn/src/flash_fwd_launch_template.h
// run_mha_fwd_splitkv_dispatch, @fcc8a217). So in a step that carries a
// prompt chunk, every decode sequence's one query row of every query head
// is a 64-row tile swept over its whole context: 64× the decode-attention
// FLOPs, a compute-bound tile where the decode alone is bandwidth-bound
// (A100: 64 × 4 × 128 × 5 FLOPs per 512 KV bytes for Qwen3-14B's groups of
// five — 320 FLOPs a byte, twice the GPU's ridge). Decode-only steps
// (max_seqlen_q == 1) pack the group and are not touched here; Hopper runs
// FA3 (its pack_gqa and 128-row tiles not priced), Blackwell FlashInfer.

// UseFA2MixedDecodeRows prices the decode sequences of a mixed step on FA2
// at the split-KV kernel's 64-row tile (fa2MixedDecodeS).
var UseFA2MixedDecodeRows = true

// fa2SplitBlockM is FA2's split-KV tile height in query rows.
const fa2SplitBlockM = 64

// fa2TileFLOPSShare is the share of the GPU's BF16 peak the padded tiles
// run at: the low end of FlashAttention-2's published range on A100
// ("reaching 50-73% of the theoretical maximum FLOPs/s on A100", Dao,
// arXiv:2307.08691, abstract; its upper figures are the 128-row forward
// tiles, and the split-KV tile is half as tall). Not measured for this
// kernel; the rows it reaches fit at either end of the range
// (docs/calibration-analysis.md, mixed44). The model's fitted attention
// efficiency (Efficiency.Attention, about a fifth of the A100's peak once
// scaled) is not used: the A100 32K bursts, whose steps are mostly prefill
// attention, are already priced 1.3–1.5× too slow with it, and at that
// rate the padded tiles price the A100 mixed steps 1.25–1.4× too slow.
const fa2TileFLOPSShare = 0.5

// FA2VarlenFor says whether vLLM release rel runs model m's attention
// through FlashAttention-2's varlen call on GPU g (the V1 FLASH_ATTN
// backend on compute capability 8.x; not MLA, not with attention sinks or
// an FP8 KV cache, which fall to other backends; not when env names
// another backend).
func FA2VarlenFor(rel vllm.Release, g *catalog.GPU, m *catalog.Model, kvFP8 bool, env map[string]string) bool {
	if g == nil || m == nil || g.Vendor != "nvidia" || g.ComputeMajor != 8 || m.IsMLA() || m.AttentionSinks || kvFP8 {
		return false
	}
	if b, ok := env["VLLM_ATTENTION_BACKEND"]; ok && b != "FLASH_ATTN" {
		return false
	}
	k, _ := rel.Scheduler()
	return k == vllm.SchedDecodeFirst // V1: one varlen call for the whole step
}

// fa2MixedDecodeS is the attention compute time the padded decode rows of
// a mixed step add on FA2: (64 / rows − 1) × the decode attention's FLOPs,
// at fa2TileFLOPSShare of the BF16 peak.
func (sm *StepModel) fa2MixedDecodeS(l RankLoad) float64 {
	s := &sm.S
	if !UseFA2MixedDecodeRows || !s.FA2Varlen || s.SGLang || l.PrefillTokens <= 0 || l.DecodeSeqs <= 0 {
		return 0
	}
	rows := float64(1 + s.SpecTokens)
	pad := math.Ceil(rows/fa2SplitBlockM) * fa2SplitBlockM / rows
	return (pad - 1) * sm.attnFLOPs(l, true) / (s.attnFLOPS(false) * fa2TileFLOPSShare)
}
