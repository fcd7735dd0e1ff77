package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// marlinMoELayer is the live set of one MoE layer during the profile's
// dummy forward pass where the release runs the routed experts through
// Marlin's fused MoE and that call allocates its caches itself, for the
// whole batch (vllm.Release.MarlinMoE: Runs and WholeBatch both Present).
//
// Why a layer's live set and not a workspace added to the forward pass: the
// Triton path's workspace sits in buffers shared across layers and calls,
// still allocated while every other layer runs, so vlaunch adds it to the
// forward pass's widest layer. fused_marlin_moe instead allocates
// intermediate_cache13 (M × top-k × max(2N, K)) and intermediate_cache2 (M ×
// top-k × N) with torch.empty inside the call and drops them on return;
// PyTorch's allocator then hands the same blocks to the next layer, and
// vLLM's profile reads the allocator's peak of allocated bytes, so the
// caches count once, at the MoE layer, and never beside another layer's
// intermediates. The peak is therefore the larger of the forward pass's
// widest layer and this one, not their sum.
//
// The layer's live set at its peak, the down projection's GEMM: the
// residual, the MoE input (the post-attention norm's output), the
// shared experts' output where the model has shared experts, and the
// summed output (M × K, allocated before the down GEMM by MarlinExperts and
// after it by the direct call), each M × hidden; plus the two caches, M ×
// top-k × (max(2N, K) + N). Where the direct call allocates the output only
// after the helper holding cache2 has returned (0.11.1-0.19.1, read at the
// tags: vllm.MarlinMoEPath.SumAfterCaches), the output and cache2 never
// coexist and only the larger of the two counts; up to 0.11.0 one function
// holds all three. M is
// max_num_batched_tokens: without an all-to-all backend the layer sees the
// rank's whole batch and nothing chunks it. Router logits and top-k ids
// (M × experts, M × top-k) are under 3% of the caches and left out.
func marlinMoELayer(in *input.Input) (Term, bool) {
	m := in.Model
	if !m.IsMoE() || in.All2AllBackend != "" {
		return Term{}, false
	}
	p := input.MarlinMoE(in)
	if p.Runs != vllm.Present || p.WholeBatch != vllm.Present {
		return Term{}, false
	}
	t := float64(in.MaxNumBatchedTokens)
	h := float64(m.HiddenSize)
	n := moeWidthPerGPU(in)
	k := float64(m.ExpertsPerToken)
	hidden, which := 3.0, "residual, input, output"
	if m.NumSharedExperts > 0 {
		hidden, which = 4, "residual, input, shared experts' output, output"
	}
	caches := t * k * (max(2*n, h) + n) * actBytes / GiB
	gib := t*hidden*h*actBytes/GiB + caches
	after := ""
	if p.SumAfterCaches == vllm.Present {
		// The summed output is allocated once intermediate_cache2 is freed
		// (vllm.MarlinMoEPath.SumAfterCaches): it and cache2 never coexist,
		// so only the larger of the two counts.
		cache2, out := t*k*n*actBytes/GiB, t*h*actBytes/GiB
		gib -= min(cache2, out)
		after = fmt.Sprintf(" − min(cache2 %.2f, output %.2f) GiB (the output is allocated only once cache2 is freed, from 0.11.1)", cache2, out)
	}
	heldText := after
	if held, what := pieceInputs(in); held > 0 {
		gib += t * held * actBytes / GiB
		heldText += fmt.Sprintf(" + %d tokens × %.0f held by the compiled graph across the attention op (%s) × 2 B", in.MaxNumBatchedTokens, held, what)
	}
	return Term{termMarlinLayer, gib, fmt.Sprintf(
		"%d tokens × %.0f × hidden %d × 2 B (%s) + Marlin's caches %d × top-k %d × (max(2 × expert width %.0f, hidden %d) + %.0f) × 2 B = %.2f GiB%s, "+
			"allocated per call for the whole batch and freed on return (%s): one layer's peak, compared with the forward pass, not added to it",
		in.MaxNumBatchedTokens, hidden, m.HiddenSize, which, in.MaxNumBatchedTokens, m.ExpertsPerToken, n, m.HiddenSize, n, caches, heldText, p.Why)}, true
}

// UseMarlinMoELayer switches the Marlin MoE layer's live set
// (marlinMoELayer) into the activation peak in place of the Triton path's
// shared workspace, where vLLM runs the experts through fused_marlin_moe
// with whole-batch caches. Built and off (2026-12-06); on since session 32
// (branch marlinon), once the Kimi-K2-Thinking logs were read as the
// sorting-sampler build they are (below): with that, it brings the one log
// it decides closer and moves no other row of either memory doc.
//
// What Marlin's path holds at the profile peak, read from vLLM's source
// for the two public logs on it (marlin_test.go, pieces_test.go): the two
// caches and the summed output, nothing else — c_tmp (≤ 35 MB, inside each
// GEMM) is below the summed output it never coexists with, a_tmp exists
// only with act-order g_idx (reset to (E, 0) otherwise), the workspace is
// SMs × 4 int32 made with the weights, and the repack keeps one layout
// (replace_parameter; Kimi-Linear's logged weights match to −0.01%).
//
//   - Kimi-K2-Thinking on 8 × H200 (the recipe's TP8 and TP8 + DCP8 logs,
//     46.80 GiB): Marlin's layer (1.47 GiB at 8,192 tokens) cannot set
//     the peak, the sampler of 1,024 rows does. The run is a main build
//     after PR #26859, whose profile sorts (the cases' flashinfer note):
//     off −2.5% (45.61 GiB), on −0.5% (46.58). Read with FlashInfer's
//     sampler, as 0.11.0 sampled, it was +5.5% off and +7.5% on — the
//     reason this switch was left off.
//   - Kimi-Linear-48B AWQ on 2 × RTX 3090 (vllm#28228): +29% off (2.958,
//     the Triton workspace vLLM does not allocate on this path), +41% on
//     (3.246 against 2.30; +29% until the summed output was read as coming
//     after cache2 is freed, branch models42); ≈0.94 GiB of the logged
//     non-KV memory is in no tensor of the source, Marlin's included
//     (kimilinear_log_test.go).
//   - gpt-oss-120b's failed H100 start-up (holdout
//     gptoss120b-27508-h100-u095-mnbt1024): 6.07 → 6.16 GiB predicted
//     against 1.71 logged, a known gap either way.
//
// Every other row of both memory docs is unchanged by it. Not the KDA
// layer's chunked kernels: KimiDeltaAttention._forward returns at once in
// the profile run (attn_metadata None, "V1 profile run": kda.py
// @01a7e5d9), as vLLM's attention ops do. What the piecewise-compiled
// graph keeps alive through the MoE layer's piece — its inputs, referenced
// by the caller until the piece returns: the old residual, the layer's
// output buffer and KDA's core_attn_out and gate (pieceInputs, 1.04 GiB for
// Kimi-Linear) — is its own switch, UseCompiledPieceInputs (on since
// session 31), which adds it to this layer and, where it exceeds the
// residual and output slots, to the forward pass.
var UseMarlinMoELayer = true
