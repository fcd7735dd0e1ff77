package generator

import (
	"fmt"

	"github.com/vlaunch/vlaunch/resolve"
)

// vLLM loads the weights a checkpoint stores; model.weights that differ
// from the checkpoint's dtype (resolve: WeightsFromCheckpoint false) need
// either a flag or a different checkpoint.
const (
	// wideDTypes can be quantized to FP8 online (--quantization fp8) or
	// switched between each other (--dtype).
	dtypeBF16 = "bf16"
	dtypeFP16 = "fp16"
	dtypeFP8  = "fp8"
)

// weightArgs are the flags that make vLLM serve the weights the spec
// asks for from a wider checkpoint: FP8 by online quantization, or the
// other 16-bit float type. Weights a pre-quantized model.path ships are
// the checkpoint's (resolve.Deployment.PathQuant): no flag, vLLM reads the
// method from the checkpoint and refuses another on the command line.
func weightArgs(a *argList, r *resolve.Deployment) {
	e := r.Engine
	if e.WeightsFromCheckpoint || r.Model == nil {
		return
	}
	ckpt := r.CheckpointDType() // a copy model.path names counts (resolve.Deployment.PathQuant)
	if ckpt != dtypeBF16 && ckpt != dtypeFP16 {
		return // a narrower checkpoint: see weightsNote
	}
	switch e.WeightsDType.Value {
	case dtypeFP8:
		a.flag("quantization", "fp8")
	case dtypeBF16:
		a.flag("dtype", "bfloat16")
	case dtypeFP16:
		a.flag("dtype", "float16")
	}
}

// weightsNote is the README's warning when the spec's weights are wider
// than the checkpoint the model ships: no flag up-casts on load, so
// model.path must hold a copy in that dtype ("" otherwise).
func weightsNote(r *resolve.Deployment) string {
	e := r.Engine
	if e.WeightsFromCheckpoint || r.Model == nil {
		return ""
	}
	ckpt := r.CheckpointDType() // a copy model.path names counts (resolve.Deployment.PathQuant)
	if ckpt == dtypeBF16 || ckpt == dtypeFP16 {
		return ""
	}
	return fmt.Sprintf("The spec asks for %s weights, but the model ships %s: vLLM serves what the checkpoint stores, so the checkpoint must be a %s copy (`vlaunch preflight` compares its config.json with the spec, check model.config).",
		e.WeightsDType.Value, ckpt, e.WeightsDType.Value)
}
