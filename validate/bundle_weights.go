package validate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
)

// quantMismatch is what vLLM raises when --quantization names another
// method than the checkpoint's quantization_config: ModelConfig.
// _verify_quantization in vllm/config/model.py (read in vllm-project/vllm
// main @0052a5b8 and in a third-party 0.11 checkout, Yuran-7/vllm-0.11
// @2665d491, line 955: the same check; compressed-tensors and fp8 have no
// override_quantization_method that would reconcile them).
const quantMismatch = "Quantization method specified in the model config (…) does not match the quantization method specified in the `quantization` argument (…)"

// pathQuantProblem: weights set to a format other than the 16-bit model's
// (online quantization or a dtype switch) on a path that names a
// pre-quantized checkpoint. The same format (fp8 on an FP8 copy) is served
// as the checkpoint ships it, without --quantization: an info. Another
// format is an error: vLLM would serve the checkpoint's format, not the
// one asked for, and --quantization fp8 on it is refused (quantMismatch).
// weights auto (or left out) is what the catalog's 16-bit checkpoint
// ships, which a quantized path is not: a warning, since the estimate then
// counts 16-bit weights.
func pathQuantProblem(r *resolve.Deployment) diag.Diagnostics {
	named := r.PathQuant()
	if named == "" {
		return nil
	}
	d, w := r.Spec, r.Engine.WeightsDType.Value
	path := fmt.Sprintf("model.path %s names a pre-quantized checkpoint (%s)", d.Model.Path, upper(named))
	fix := fmt.Sprintf("set model.config to the checkpoint's config.json (vlaunch then reads its quantization_config; weights auto), or point model.path at a %s checkpoint", r.Model.CheckpointDType())
	switch {
	case w == named:
		return diag.Diagnostics{bundleDiag(d, codes.GenUnsupported, diag.Info, "model.weights",
			path+": vLLM reads its quantization method from the checkpoint, so the bundle passes no --quantization (naming one the checkpoint does not use is refused: \""+quantMismatch+"\")",
			"set model.config to the checkpoint's config.json for its exact format")}
	case r.Engine.WeightsFromCheckpoint:
		return diag.Diagnostics{bundleDiag(d, codes.GenUnsupported, diag.Warning, "model.path",
			fmt.Sprintf("%s, but %s's catalog entry is %s: vLLM serves the checkpoint's %s weights, and vlaunch's estimates count %s", path, r.Model.ID, r.Model.CheckpointDType(), upper(named), r.Model.CheckpointDType()),
			fix)}
	default:
		msg := fmt.Sprintf("%s: weights %s cannot come from it, vLLM serves the checkpoint's own %s weights", path, w, upper(named))
		if w == "fp8" {
			msg += fmt.Sprintf(" and refuses --quantization fp8 on a checkpoint quantized by another method (\"%s\")", quantMismatch)
		}
		return diag.Diagnostics{bundleDiag(d, codes.GenUnsupported, diag.Error, "model.weights", msg, fix)}
	}
}

// upper spells a format as publishers do (FP8, NVFP4, INT4).
func upper(f string) string {
	b := []byte(f)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
