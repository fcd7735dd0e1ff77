package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// termCutlassMXFP4Layer names the CUTLASS MXFP4 experts' layer live set.
const termCutlassMXFP4Layer = "CUTLASS MXFP4 MoE layer"

// cutlassMXFP4Layer is what a compressed-tensors MXFP4 checkpoint's MoE
// layer holds during the profile's dummy forward pass where vLLM runs its
// routed experts through CutlassExpertsMxfp4 (vllm.Release.PackedMXFP4MoEBackend
// gives CUTLASS W4A4 and vllm.Release.CutlassMXFP4Layer is Present; its
// source lists the lines read): two terms in place of the Triton rule's
// shared workspace.
//
// Workspace (kept across layers by vLLM's workspace manager, so added to the
// peak like the Triton path's): one buffer of max(M × top-k × max(2N, K),
// M × K) for workspace13 and the output, and workspace2, M × top-k × N.
//
// Layer (allocated inside the call and freed on return, so compared with
// the forward pass, as marlinMoELayer is): the residual, the MoE input, the
// shared experts' output where the model has shared experts and the layer's
// output (each M × hidden), plus what run_cutlass_moe_mxfp4 holds at its
// sum — the row-shuffled input, the row-shuffled down-projection output and
// their top-k-weighted product (each M × top-k × K) and the sum (M × K). M
// is max_num_batched_tokens (no all-to-all backend, no expert parallelism:
// CutlassExpertsMxfp4 takes ep_size 1 only; the modular kernel does not
// chunk in these releases). With data parallelism the tokens the experts
// see were not traced, so DP > 1 keeps the Triton rule.
//
// The experts' activation is not read from config.json: "silu" is asked,
// as estimate/perf does; CUTLASS lists SiLU, GELU, SwiGLU-OAI and
// SwiGLU-step alike, and the one MXFP4 family with another (Kimi-K3's SiTU)
// takes gpt-oss's method instead (vllm.MXFP4MethodFor).
func cutlassMXFP4Layer(in *input.Input) (layer, workspace Term, ok bool) {
	m := in.Model
	if !m.IsMoE() || in.All2AllBackend != "" || in.Layout.EP || in.Layout.DP > 1 || in.GPU == nil || !packedMXFP4Experts(m) {
		return Term{}, Term{}, false
	}
	rel := in.Release()
	if rel.PackedMXFP4MoEBackend(in.GPU.ComputeMajor, "silu").Kernel != vllm.MXFP4MoECutlassW4A4 {
		return Term{}, Term{}, false
	}
	if p, _ := rel.CutlassMXFP4Layer(); p != vllm.Present {
		return Term{}, Term{}, false
	}
	t := float64(in.MaxNumBatchedTokens)
	h := float64(m.HiddenSize)
	n := moeWidthPerGPU(in)
	k := float64(m.ExpertsPerToken)
	ws := (max(t*k*max(2*n, h), t*h) + t*k*n) * actBytes / GiB
	workspace = Term{termMoEWorkspace, ws, fmt.Sprintf(
		"CutlassExpertsMxfp4's workspaces from vLLM's workspace manager: max(%d tokens × top-k %d × max(2 × expert width %.0f, hidden %d), %d × %d) "+
			"+ %d × %d × %.0f, × 2 B", in.MaxNumBatchedTokens, m.ExpertsPerToken, n, m.HiddenSize, in.MaxNumBatchedTokens, m.HiddenSize,
		in.MaxNumBatchedTokens, m.ExpertsPerToken, n)}
	hidden, which := 3.0, "residual, input, output"
	if m.NumSharedExperts > 0 {
		hidden, which = 4, "residual, input, shared experts' output, output"
	}
	perCall := (3*t*k*h + t*h) * actBytes / GiB
	gib := t*hidden*h*actBytes/GiB + perCall
	heldText := ""
	if held, what := pieceInputs(in); held > 0 {
		gib += t * held * actBytes / GiB
		heldText = fmt.Sprintf(" + %d tokens × %.0f held by the compiled graph across the attention op (%s) × 2 B", in.MaxNumBatchedTokens, held, what)
	}
	layer = Term{termCutlassMXFP4Layer, gib, fmt.Sprintf(
		"%d tokens × %.0f × hidden %d × 2 B (%s) + run_cutlass_moe_mxfp4's per-call tensors: the shuffled input, the shuffled down-projection "+
			"output and their top-k-weighted product, 3 × %d × top-k %d × %d, and the sum, %d × %d, × 2 B = %.2f GiB%s: one layer's peak, "+
			"compared with the forward pass, not added to it (vllm.Release.CutlassMXFP4Layer)",
		in.MaxNumBatchedTokens, hidden, m.HiddenSize, which, in.MaxNumBatchedTokens, m.ExpertsPerToken, m.HiddenSize,
		in.MaxNumBatchedTokens, m.HiddenSize, perCall, heldText)}
	return layer, workspace, true
}

// packedMXFP4Experts reports routed experts stored as compressed-tensors
// MXFP4 that vLLM serves with CompressedTensorsW4A4Mxfp4MoEMethod
// (vllm.MXFP4MethodFor), whether the whole checkpoint or only its experts
// are MXFP4.
func packedMXFP4Experts(m *catalog.Model) bool {
	f := m.RoutedExpertFormat()
	if f == "" {
		f = m.CheckpointDType()
	}
	return f == catalog.FormatMXFP4 && vllm.MXFP4MethodFor(m.Architecture, m.Quant.Method) == vllm.MXFP4MethodPacked
}

// UseCutlassMXFP4Layer switches cutlassMXFP4Layer into the activation
// peak in place of the Triton rule's workspace. On (branch models41): the
// one public log on this path (MiniMax-M3's MXFP4 conversion on 2 × B200,
// minimaxm3_log_test.go) goes from +23% to within 10% with it, and no other
// row of either memory doc runs these experts.
var UseCutlassMXFP4Layer = true
