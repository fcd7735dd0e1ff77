package vllm

// What CutlassExpertsMxfp4 (the CUTLASS MXFP4 × MXFP4 experts of a
// compressed-tensors MXFP4 checkpoint: PackedMXFP4MoEBackend) holds during
// one MoE layer's call, read at the tags v0.20.0, v0.21.0, v0.22.0, v0.23.0
// and v0.24.0 and at the main build 58d6a6e60 (a snapshot of kzwrime/vllm
// carrying vllm-project/vllm's tags; run_cutlass_moe_mxfp4 and
// CutlassExpertsMxfp4.workspace_shapes are byte-identical in all six;
// vllm/model_executor/layers/fused_moe/experts/cutlass_moe.py):
//
//   - workspace_shapes: workspace13 (M × top-k, max(2N, K)), workspace2
//     (M × top-k, N), output (M, K); FusedMoEKernelModularImpl._allocate_buffers
//     (modular_kernel.py) takes workspace13 and the output from one
//     common buffer of max(the two) and workspace2 beside it, from
//     current_workspace_manager().get_simultaneous — buffers kept across
//     layers — and _fused_experts passes M_full as the chunk (no
//     chunking; VLLM_FUSED_MOE_CHUNK_SIZE is gone from modular_kernel.py
//     at v0.18.0 and later).
//   - run_cutlass_moe_mxfp4 allocates per call, for the whole batch:
//     "a = ops.shuffle_rows(a, a_map)" (M × top-k rows of K, held to the
//     return), "c3 = ops.shuffle_rows(c3, c_map)" (the down projection's
//     output, row-shuffled into a new M × top-k × K tensor), and then
//     "(c3.view(m, num_topk, k) * topk_weights.view(m, num_topk, 1)
//     .to(out_dtype)).sum(dim=1)" — the weighted product (M × top-k × K)
//     and its sum (M × K) — before output.copy_. At that point the three
//     M × top-k × K tensors and the sum are live beside the workspaces.
//   - FusedMoEKernelModularImpl.apply allocates the layer's output,
//     "output = torch.empty_like(hidden_states)", before the experts run;
//     the shared experts (moe_runner.py _apply_quant_method) run first and
//     keep their output (SharedExpertsOrder.NO_OVERLAP above
//     VLLM_SHARED_EXPERTS_STREAM_TOKEN_THRESHOLD).
//
// CutlassExpertsMxfp4 is absent at v0.19.0 (compressed-tensors MXFP4 experts
// ran Marlin then) and was not read after v0.24.0.
const srcCutlassMXFP4Layer = "vllm/model_executor/layers/fused_moe/experts/cutlass_moe.py run_cutlass_moe_mxfp4 " +
	"(shuffle_rows of a and c3, the top-k-weighted product and its sum) and CutlassExpertsMxfp4.workspace_shapes; " +
	"modular_kernel.py _allocate_buffers (workspace manager, M_full unchunked); read at tags v0.20.0-v0.24.0 and build 58d6a6e60 " +
	"(kzwrime/vllm snapshot with upstream tags); class absent at v0.19.0"

// cutlassMXFP4LayerRead: the releases whose code was read.
var cutlassMXFP4LayerRead = Span{Since: v0200, Removed: v0250}

// CutlassMXFP4Layer reports whether release r's CutlassExpertsMxfp4 holds,
// per MoE call and for the whole batch, the row-shuffled input, the
// row-shuffled down-projection output, the top-k-weighted product and the
// sum beside the workspace manager's buffers (srcCutlassMXFP4Layer):
// Present at 0.20.0–0.24.x (read), Absent before 0.20.0 (no such class),
// Maybe from 0.25.0 (not read).
func (r Release) CutlassMXFP4Layer() (Presence, string) {
	switch {
	case r.Version.Less(cutlassMXFP4LayerRead.Since):
		return Absent, srcCutlassMXFP4Layer
	case cutlassMXFP4LayerRead.Contains(r.Version):
		return Present, srcCutlassMXFP4Layer
	}
	return Maybe, srcCutlassMXFP4Layer
}
