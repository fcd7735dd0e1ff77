package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// Quantization methods whose weight storage the memory and step-time models
// size. Any other quant_method (gptq, awq, bitsandbytes, modelopt, gguf …)
// stores weights in a format vlaunch does not size, so a config carrying it
// is refused rather than sized as 16-bit weights (4× too large for a 4-bit
// checkpoint, and a feasibility verdict built on that is wrong).
var modelledQuantMethods = map[string]bool{"": true, "fp8": true, "fbgemm_fp8": true, "mxfp4": true, "compressed-tensors": true}

// weightBits reads the bit widths of the weight groups of a quantization
// config: compressed-tensors' config_groups.*.weights.num_bits, and the
// top-level bits (or w_bit) of GPTQ/AWQ-style configs. Unreadable entries
// are left out.
func weightBits(q map[string]interface{}) []int {
	var out []int
	if groups, ok := q["config_groups"].(map[string]interface{}); ok {
		for _, g := range groups {
			gm, _ := g.(map[string]interface{})
			w, _ := gm["weights"].(map[string]interface{})
			if b, ok := w["num_bits"].(float64); ok {
				out = append(out, int(b))
			}
		}
	}
	for _, key := range []string{"bits", "w_bit"} {
		if b, ok := q[key].(float64); ok {
			out = append(out, int(b))
		}
	}
	sort.Ints(out) // config_groups is a map: a stable order for messages
	return out
}

// unmodelledQuant says what of the checkpoint's quantization vlaunch does
// not size, or "" when it sizes all of it. A 4-bit format readQuantFormat
// recognised (NVFP4, MXFP4, INT4) and ModelOpt FP8 are sized; other compressed-
// tensors checkpoints are sized as one byte per weight (FP8 or INT8,
// W8A8/W8A16), so they are modelled only when every weight group is 8-bit:
// a mix of 4- and 8-bit groups would be sized wrongly either way.
func unmodelledQuant(q Quantization) string {
	switch {
	case q.StoreDType != "" && q.StoreDType != "fp8" && (q.ExpertFormat != "mxfp4" || (q.MXFP4Block != 0 && q.MXFP4Block != mxfp4BlockValues)):
		return fmt.Sprintf("quantization_config store_dtype %q (mxfp4_block_size %d): vlaunch sizes store_dtype mxfp4 (blocks of %d) under quant_method fp8 only",
			q.StoreDType, q.MXFP4Block, mxfp4BlockValues)
	case q.MixedProblem != "":
		return q.MixedProblem
	case q.Method == "modelopt" && q.Format == "":
		return fmt.Sprintf("quantization_config modelopt quant_algo %q: vlaunch sizes ModelOpt NVFP4, FP8 and MIXED_PRECISION (FP8 / NVFP4 per module) checkpoints only", q.Algo)
	case q.MoEQuantAlgo != "" && q.MoEQuantAlgo != "NVFP4":
		return fmt.Sprintf("quantization_config moe_quant_algo %q: vlaunch sizes NVFP4 experts under DeepSeek-V4's FP8 config only (vLLM's DeepseekV4FP8Config routes NVFP4 to ModelOptNvFp4FusedMoE, anything else to MXFP4)", q.MoEQuantAlgo)
	case q.Format != "":
		return "" // NVFP4, MXFP4, INT4 or ModelOpt FP8: sized with the exclusions
	}
	if q.Method == "" && q.Source == "config.json" && lowBits(q.WeightBits) {
		// aiconfigurator's Qwen3-32B-FP8-Static-PerTensor: ModelOpt 0.31's
		// fields (producer modelopt, quant_algo FP8, config_groups) with no
		// quant_method and no "quantization" object. vLLM sets quant_method
		// for a ModelOpt producer only from quantization.quant_algo
		// (ModelArchConfigConvertor._normalize_quantization_config,
		// vllm/transformers_utils/model_arch_config_convertor.py) and its
		// ModelOpt configs claim a checkpoint only when quant_method starts
		// with "modelopt" (_extract_modelopt_quant_algo): it resolves no
		// method, builds 16-bit layers, and never reads the
		// hf_quant_config.json beside it, which counts only without a
		// quantization_config (vllm/transformers_utils/config.py; both at
		// local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268).
		return fmt.Sprintf("quantization_config without quant_method%s: vLLM resolves no quantization method from it (no quant_method, and no ModelOpt \"quantization\" object whose quant_algo it reads) and builds 16-bit layers for these weights; "+
			"vlaunch will not size it as 16-bit. A ModelOpt checkpoint states quant_method \"modelopt\" or keeps its settings in hf_quant_config.json alone", bitsText(q.WeightBits))
	}
	if !modelledQuantMethods[q.Method] {
		return fmt.Sprintf("quantization_config quant_method %q%s: vlaunch sizes 16-bit, FP8/INT8, MXFP4, NVFP4 and 4-bit INT4 (GPTQ, AWQ, compressed-tensors) weights only", q.Method, bitsText(q.WeightBits))
	}
	if q.Method != "compressed-tensors" {
		return ""
	}
	if len(q.WeightBits) == 0 {
		return "quantization_config compressed-tensors without readable weight bit widths (config_groups.*.weights.num_bits): vlaunch sizes 8-bit and 4-bit compressed-tensors checkpoints only"
	}
	for _, b := range q.WeightBits {
		if b != 8 {
			return fmt.Sprintf("quantization_config compressed-tensors%s: vlaunch sizes compressed-tensors checkpoints whose weight groups are all 8-bit or all 4-bit of one group size", bitsText(q.WeightBits))
		}
	}
	return ""
}

// bitsText is " (4-bit weights)" for a message, or "" when the widths are unknown.
func bitsText(bits []int) string {
	if len(bits) == 0 {
		return ""
	}
	var parts []string
	for i, b := range bits {
		if i == 0 || b != bits[i-1] {
			parts = append(parts, fmt.Sprint(b))
		}
	}
	return " (" + strings.Join(parts, "/") + "-bit weights)"
}

// quantFeaturePrefix starts every unmodelled-quantization feature, so the
// error can say "checkpoint" rather than "architecture".
const quantFeaturePrefix = "quantization_config"

// isQuantFeature reports whether an unmodelled feature is about quantization.
func isQuantFeature(f string) bool { return strings.HasPrefix(f, quantFeaturePrefix) }

// lowBits reports whether any weight group is narrower than 16 bits.
func lowBits(bits []int) bool {
	for _, b := range bits {
		if b > 0 && b < 16 {
			return true
		}
	}
	return false
}
