package perf

import "github.com/vlaunch/vlaunch/catalog"

// nasLayerKernels is the eager census (eagerLayers) of layer i of a
// Llama-Nemotron NAS model (catalog.Model.NAS): vLLM's DeciLMDecoderLayer
// (vllm/model_executor/models/nemotron_nas.py at local-inference-lab/vllm
// 28be48fa) runs input_layernorm and the attention only where
// attention.no_op is false, post_attention_layernorm and the MLP only where
// ffn.no_op is false: one norm plus the GQA row (5, two linears) for the
// one, one norm plus the dense-MLP row (4, two linears) for the other, and
// one activation quantization per linear under W8A8.
func nasLayerKernels(m *catalog.Model, i int, w8a8 bool) float64 {
	ops, linears := 0.0, 0.0
	if m.HasAttention(i) {
		ops, linears = ops+1+5, linears+2
	}
	if m.HasFFN(i) {
		ops, linears = ops+1+4, linears+2
	}
	if w8a8 {
		ops += linears
	}
	return ops
}

// boolToInt is 1 for true.
func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
