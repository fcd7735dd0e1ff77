package perf

import "github.com/vlaunch/vlaunch/catalog"

// Without CUDA graphs every operation of a layer is dispatched from Python
// and launched one by one, so the host cost of a step grows with the
// operations per layer. The counts are a named, rough census of vLLM's
// forward pass (not measured per release):
//   - two RMSNorms per layer;
//   - GQA attention: QKV projection, rotary embedding, attention, output
//     projection, TP all-reduce (5);
//   - MLA attention: q_a, q_a norm, q_b, kv_a, kv_a norm, split, rotary
//     embedding, W_UK, attention, W_UV, output projection, all-reduce (12);
//   - dense MLP: gate/up, activation, down, all-reduce (4);
//   - MoE: router, top-k selection (grouped: 4), token alignment, two grouped
//     GEMMs with the activation between, weighted sum, all-reduce, plus a
//     shared expert's three when the model has one (11 + 3);
//   - FP8 weights: one activation quantization per linear input;
//   - DeepSeek-V4's hyper-connections: two mHC blocks of two kernels each
//     (mhcKernelsPerLayer, mhc.go).
//
// eagerOpsRef is the dense GQA layer (2 + 5 + 4 + 0) the constant
// EagerPerLayerS is stated for.
const eagerOpsRef = 11

// eagerLayers is Σ over decoder layers of ops(layer) / eagerOpsRef.
func eagerLayers(m *catalog.Model, weights string) float64 {
	// W8A8 (FP8 or INT8) adds one activation-quantization kernel per linear.
	fp8 := weights == "fp8" || weights == "int8"
	var sum float64
	for i := 0; i < m.NumLayers; i++ {
		ops, linears := 2.0, 0.0
		if m.IsMLA() {
			ops, linears = ops+12, linears+5
		} else {
			ops, linears = ops+5, linears+2
		}
		if m.IsMoELayer(i) {
			ops, linears = ops+11, linears+2
			if m.NumSharedExperts > 0 {
				ops, linears = ops+3, linears+2
			}
		} else {
			ops, linears = ops+4, linears+2
		}
		if fp8 {
			ops += linears
		}
		ops += mhcKernelsPerLayer(m)
		sum += ops / eagerOpsRef
	}
	return sum
}

// kernelsOutsideLayers is the kernels a forward pass runs outside its
// decoder layers: embedding, final norm, LM head and the logits' gather,
// counted on every stage (a named rough count; the sampler runs on the
// host's side of the step, StepOverheadS).
const kernelsOutsideLayers = 4

// stageKernels is the kernels one stage's forward pass runs: the census
// above (one kernel per operation) over its layers, plus the pass's
// kernels outside them.
func stageKernels(eagerLayers float64) float64 {
	return eagerLayers*eagerOpsRef + kernelsOutsideLayers
}
