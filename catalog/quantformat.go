package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// Weight formats of quantized checkpoints (Quantization.Format) beyond the
// FP8 / INT8 / MXFP4 ones the quantization method already names. The names
// are the weight dtypes the estimator reads: estimate/perf's step model
// runs "nvfp4" weights on FP4 tensor cores where the GPU has them.
const (
	// FormatNVFP4 is NVIDIA's FP4: 4-bit E2M1 values, one FP8 (E4M3) scale
	// per 16 values and one FP32 scale per tensor (ModelOpt NVFP4,
	// compressed-tensors nvfp4-pack-quantized).
	FormatNVFP4 = "nvfp4"
	// FormatINT4 is weight-only 4-bit integers with one 16-bit scale (and,
	// asymmetric, one 4-bit zero point) per group of input values
	// (GPTQ, AWQ, compressed-tensors W4A16 pack-quantized).
	FormatINT4 = "int4"
	// FormatModelOptFP8 is ModelOpt's FP8: one byte per weight and one FP32
	// scale per tensor.
	FormatModelOptFP8 = "fp8"
	// FormatMXFP4 is OCP MXFP4 as compressed-tensors stores it
	// (mxfp4-pack-quantized: two E2M1 values per byte, one E8M0 scale byte
	// per 32 values, no per-tensor scale). The name is the dtype gpt-oss's
	// quant_method "mxfp4" already has, so the memory and step models
	// treat both alike where the kernels are the same. They are not
	// always: vLLM serves such experts with CompressedTensorsW4A4Mxfp4MoEMethod
	// (CUTLASS MXFP4 × MXFP4 on SM100–SM110, Marlin on Hopper), except for
	// the architectures it rewrites to gpt-oss's Mxfp4MoEMethod (Kimi-K3):
	// vllm.MXFP4MethodFor, vllm.Release.PackedMXFP4MoEBackend.
	FormatMXFP4 = "mxfp4"
)

// fourBitFormat reports whether f is one of the 4-bit formats sized with
// group scales (BytesPerParam non-zero).
func fourBitFormat(f string) bool {
	return f == FormatNVFP4 || f == FormatINT4 || f == FormatMXFP4
}

// nvfp4Group is the number of values sharing one FP8 scale in NVFP4
// (ModelOpt writes group_size 16 in every hf_quant_config.json seen).
const nvfp4Group = 16

// HFQuantConfigFile is the file NVIDIA ModelOpt (0.29 and before, and some
// later exports) writes the checkpoint's quantization to, next to config.json.
// vLLM reads it only when config.json has no quantization_config
// (vllm/transformers_utils/config.py, get_config: "ModelOpt 0.29.0 and before
// saves the quantization config in a separate hf_quant_config.json").
const HFQuantConfigFile = "hf_quant_config.json"

// maxQuantPatterns bounds the exclusion patterns read (DeepSeek-V3.1-NVFP4
// lists 246, GLM-5-NVFP4 471); past it the file is not a checkpoint's.
const maxQuantPatterns = 100000

// ParseHFQuantConfig reads a ModelOpt hf_quant_config.json ({"producer":
// {...}, "quantization": {"quant_algo": ..., "kv_cache_quant_algo": ...,
// "group_size": ..., "exclude_modules": [...]}}) as the quantization_config
// vLLM then uses: the "quantization" object with quant_method "modelopt".
func ParseHFQuantConfig(data []byte) (map[string]interface{}, error) {
	ix := indexJSON(data)
	var top map[string]interface{}
	if err := json.Unmarshal(pythonJSON(data), &top); err != nil {
		return nil, ix.configError(HFQuantConfigFile, "", fmt.Errorf("%s is not valid JSON: %w", HFQuantConfigFile, err))
	}
	q, ok := top["quantization"].(map[string]interface{})
	if !ok {
		return nil, ix.configError(HFQuantConfigFile, "quantization", fmt.Errorf("%s has no \"quantization\" object", HFQuantConfigFile))
	}
	out := make(map[string]interface{}, len(q)+1)
	for k, v := range q {
		out[k] = v
	}
	out["quant_method"] = "modelopt"
	return out, nil
}

// LoadHFQuantConfigNextTo reads the hf_quant_config.json in the directory of
// configPath: nil, nil when there is none.
func LoadHFQuantConfigNextTo(configPath string) ([]byte, error) {
	p := filepath.Join(filepath.Dir(configPath), HFQuantConfigFile)
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return inputfile.Read(p, MaxHFConfigBytes)
}

// readQuantFormat fills the format fields of out from a quantization_config
// (or a ModelOpt quantization object): ModelOpt NVFP4 / FP8, compressed-
// tensors 4-bit groups (INT4, NVFP4 or MXFP4), GPTQ / AWQ 4-bit. Anything else
// leaves Format empty; unmodelledQuant then decides.
func readQuantFormat(q map[string]interface{}, out *Quantization) {
	switch strings.ToLower(out.Method) {
	case "modelopt", "modelopt_fp4":
		out.Method = "modelopt"
		algo, _ := q["quant_algo"].(string)
		out.Algo = strings.ToUpper(algo)
		out.KVCacheQuantAlgo, _ = q["kv_cache_quant_algo"].(string)
		switch out.Algo {
		case "NVFP4":
			out.Format, out.GroupSize = FormatNVFP4, positiveInt(q["group_size"], nvfp4Group)
		case "FP8":
			out.Format = FormatModelOptFP8
		case "MIXED_PRECISION":
			readMixedPrecision(q, out)
		}
		out.ModulesNotConverted = append(out.ModulesNotConverted, stringList(q["exclude_modules"])...)
	case "compressed-tensors":
		readCompressedTensors(q, out)
		out.WeightStrategy = ctWeightsField(q, "strategy")
		out.WeightType = ctWeightsField(q, "type")
	case "fp8":
		readMoEQuantAlgo(q, out)
	case "gptq", "awq", "gptq_marlin", "awq_marlin":
		bits := positiveInt(q["bits"], positiveInt(q["w_bit"], 0))
		if bits != 4 {
			return
		}
		out.Format = FormatINT4
		out.GroupSize = positiveInt(q["group_size"], positiveInt(q["q_group_size"], 0))
		// GPTQ stores qzeros whatever sym says (vLLM's GPTQ linear method
		// allocates qzeros [groups, N/8] int32); AWQ stores them with
		// zero_point (its only layout in vLLM).
		out.ZeroPoint = true
	}
}

// readCompressedTensors reads compressed-tensors' config_groups: every
// weight group 4-bit integer is INT4 W4A16 with its group size, every
// weight group 4-bit float is MXFP4 or NVFP4 (fourBitFloat). 8-bit groups
// keep the FP8/INT8 sizing (Format empty); mixed widths are left
// unmodelled.
func readCompressedTensors(q map[string]interface{}, out *Quantization) {
	groups, _ := q["config_groups"].(map[string]interface{})
	format, group, zero, n := "", 0, false, 0
	for _, g := range groups {
		gm, _ := g.(map[string]interface{})
		w, _ := gm["weights"].(map[string]interface{})
		if w == nil {
			continue
		}
		n++
		bits := positiveInt(w["num_bits"], 0)
		typ, _ := w["type"].(string)
		f := ""
		gs := positiveInt(w["group_size"], 0)
		switch {
		case bits == 4 && typ == "float":
			f, gs = fourBitFloat(w, gm["format"], q["format"])
		case bits == 4:
			f = FormatINT4
		default:
			if bits == 8 && anyFourBitGroup(groups) {
				// An 8-bit group beside 4-bit ones (FP8 attention, NVFP4
				// experts): module by module.
				readCompressedTensorsMixed(groups, out)
			}
			return
		}
		if format != "" && (format != f || gs != group) {
			// Groups disagree: sized module by module by their targets
			// when each can be (readCompressedTensorsMixed), else
			// unmodelledQuant refuses the mixed widths.
			readCompressedTensorsMixed(groups, out)
			return
		}
		format, group = f, gs
		if sym, ok := w["symmetric"].(bool); ok && !sym {
			zero = true
		}
	}
	if n > 0 {
		out.Format, out.GroupSize, out.ZeroPoint = format, group, zero
	}
}

// ctMXFP4Format is compressed-tensors' name of its MXFP4 storage
// (CompressionFormat.mxfp4_pack_quantized, src/compressed_tensors/config/
// base.py of vllm-project/compressed-tensors read at 5eb8169f; beside
// nvfp4_pack_quantized "nvfp4-pack-quantized").
const ctMXFP4Format = "mxfp4-pack-quantized"

// fourBitFloat is the storage of a compressed-tensors 4-bit float weight
// group: MXFP4 (group 32, an E8M0 scale per group) or NVFP4 (an FP8 scale
// per group, 16 unless stated). vLLM decides by the weight arguments, not
// the format name: CompressedTensorsConfig._is_mxfp4 is strategy "group",
// type float, 4 bits, group_size 32, symmetric, and
// CompressedTensorsMoEMethod.get_moe_method routes such experts to
// CompressedTensorsW4A4Mxfp4MoEMethod (compressed_tensors_moe.py read at
// 0043d6b5), while _is_nvfp4_format wants strategy "tensor_group" and group
// 16. compressed-tensors' own inference agrees (format.py at 3e9f0ea3,
// _get_quant_compression_format: 4-bit float of group 32 is
// mxfp4_pack_quantized, any other nvfp4_pack_quantized). The group's (or
// the config's) format naming mxfp4-pack-quantized settles a group whose
// arguments leave symmetric or strategy unstated.
func fourBitFloat(w map[string]interface{}, groupFormat, topFormat interface{}) (string, int) {
	gs := positiveInt(w["group_size"], 0)
	strategy, _ := w["strategy"].(string)
	sym, symSet := w["symmetric"].(bool)
	named := groupFormat == ctMXFP4Format || (groupFormat == nil && topFormat == ctMXFP4Format)
	if gs == mxfp4BlockValues && (named || (strategy == "group" && (!symSet || sym))) {
		return FormatMXFP4, mxfp4BlockValues
	}
	if gs == 0 {
		gs = nvfp4Group
	}
	return FormatNVFP4, gs
}

// ctWeightsField is the weights.<key> string every compressed-tensors
// config group states (strategy "tensor" for nm-testing's naive-quantized
// FP8, "channel" for RedHatAI's FP8-dynamic and W8A8; type "float" or
// "int"), "" when the groups disagree or one states none.
func ctWeightsField(q map[string]interface{}, key string) string {
	groups, _ := q["config_groups"].(map[string]interface{})
	value := ""
	for _, g := range groups {
		gm, _ := g.(map[string]interface{})
		w, _ := gm["weights"].(map[string]interface{})
		s, _ := w[key].(string)
		if s == "" || (value != "" && s != value) {
			return ""
		}
		value = s
	}
	return value
}

// BytesPerParam is the storage of one weight of a quantized module of a
// 4-bit format, scales included (0 for other formats): NVFP4 ½ byte + one
// FP8 scale per 16 values (the per-tensor FP32 scales are a few bytes per
// tensor and left out: 4.5 bits); MXFP4 ½ byte + one E8M0 scale byte per 32
// values and no per-tensor scale (4.25 bits); INT4 ½ byte + one 16-bit scale per group (+ a
// packed 4-bit zero point when asymmetric); a group size of 0 (per output
// channel) counts one scale per hidden_size values.
func (q Quantization) BytesPerParam(hidden int) float64 {
	switch q.Format {
	case FormatNVFP4:
		g := q.GroupSize
		if g <= 0 {
			g = nvfp4Group
		}
		return 0.5 + 1.0/float64(g)
	case FormatMXFP4:
		return 0.5 + 1.0/mxfp4BlockValues
	case FormatINT4:
		g := q.GroupSize
		if g <= 0 {
			g = max(hidden, 1)
		}
		perGroup := 2.0
		if q.ZeroPoint {
			perGroup += 0.5
		}
		return 0.5 + perGroup/float64(g)
	}
	return 0
}

// mxfp4BlockValues is the values per E8M0 scale of OCP MXFP4, the only
// block size vLLM's Mxfp4MoEMethod loads.
const mxfp4BlockValues = 32

// readStoreDType reads an FP8 config's store_dtype: "mxfp4" stores the
// routed experts in MXFP4 (4-bit E2M1 values, one E8M0 scale per
// mxfp4_block_size values), which vLLM's Fp8Config.get_quant_method routes
// to Mxfp4MoEMethod ("if self.store_dtype == \"mxfp4\": return
// Mxfp4MoEMethod(layer.moe_config)" in vllm/model_executor/layers/
// quantization/fp8.py, RoutedExperts branch; first release not pinned, in
// force in the 0.31.1rc1.dev50 build of published/vllm-memory-logs.yaml's
// mimo-v26-flash-tant2-h100-tp8ep, whose log says "Using 'HUMMING' Mxfp4
// MoE backend" under quantization=fp8). Other linear layers stay block FP8.
func readStoreDType(q map[string]interface{}, out *Quantization) {
	out.StoreDType, _ = q["store_dtype"].(string)
	out.MXFP4Block = positiveInt(q["mxfp4_block_size"], 0)
	if strings.EqualFold(out.Method, "fp8") && out.StoreDType == "mxfp4" {
		out.ExpertFormat = "mxfp4"
	}
}

func positiveInt(v interface{}, def int) int {
	if f, ok := v.(float64); ok && f > 0 && f < 1<<30 && f == float64(int(f)) {
		return int(f)
	}
	return def
}

func stringList(v interface{}) []string {
	list, _ := v.([]interface{})
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok && len(out) < maxQuantPatterns {
			out = append(out, s)
		}
	}
	return out
}

// formatText names a 4-bit format for messages: "NVFP4 (group 16)".
func (q Quantization) formatText() string {
	switch q.Format {
	case FormatNVFP4:
		return fmt.Sprintf("NVFP4 (FP8 scale per %d)", max(q.GroupSize, 1))
	case FormatMXFP4:
		return fmt.Sprintf("MXFP4 (E8M0 scale per %d)", mxfp4BlockValues)
	case FormatINT4:
		if q.GroupSize <= 0 {
			return "INT4 (scale per channel)"
		}
		return fmt.Sprintf("INT4 (16-bit scale per %d)", q.GroupSize)
	}
	return strings.ToUpper(q.Format)
}

// sortedCopy returns ss sorted (messages list patterns in a stable order).
func sortedCopy(ss []string) []string {
	out := append([]string(nil), ss...)
	sort.Strings(out)
	return out
}

// NarrowerThanFP8 reports whether weights of dtype take fewer bytes than
// FP8 (MXFP4, NVFP4, INT4): suggesting FP8 for them would grow the weights.
func NarrowerThanFP8(dtype string) bool {
	return dtype == "mxfp4" || dtype == FormatNVFP4 || dtype == FormatINT4
}
