package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// ModelOpt MIXED_PRECISION checkpoints (nvidia/Qwen3.6-35B-A3B-NVFP4: FP8
// attention and Gated DeltaNet projections, NVFP4 experts, shared experts
// and LM head) name each quantized module's format in a quantized_layers
// map. vLLM's ModelOptMixedPrecisionConfig (vllm/model_executor/layers/
// quantization/modelopt.py, read at vllm-project/vllm commit 00155cde, main
// branch; first release not pinned) resolves a module's format from it:
// the exact name, then a fused module's shards (packed_modules_mapping),
// then any key below the module (RoutedExperts "mlp.experts"), trying both
// "model.language_model." and "language_model.model." spellings and
// "lm_head" for the LM head. A module excluded (exclude_modules / ignore)
// or not found is unquantized; FP8, NVFP4 and W4A16_NVFP4 (NVFP4 weights,
// 16-bit activations: the same storage) are loaded, and get_quant_method
// leaves a linear layer of any other algorithm unquantized, which a
// checkpoint storing it quantized cannot load into.

// MixedPart is one component's storage in a mixed-precision checkpoint.
type MixedPart struct {
	// BytesPerParam is the component's mean storage per parameter: each
	// module at its format's bytes with scales, the rest in the torch dtype.
	BytesPerParam float64 `json:"bytes_per_param"`
	// Formats are the share of the component's parameters in each quantized
	// format (nvfp4, fp8); what they leave is unquantized.
	Formats map[string]float64 `json:"formats,omitempty"`
}

// mixedLayer is one quantized_layers entry: its weight format and group.
type mixedLayer struct {
	format string // FormatNVFP4 or FormatModelOptFP8
	group  int
}

// mixedAlgoFormats are the quant_algo values of a quantized_layers entry
// vLLM's ModelOptMixedPrecisionConfig loads at the commit read, with the
// weight storage each has.
var mixedAlgoFormats = map[string]string{"FP8": FormatModelOptFP8, "NVFP4": FormatNVFP4, "W4A16_NVFP4": FormatNVFP4}

// maxMixedLayers bounds the quantized_layers entries read (Qwen3.6-35B-A3B
// lists 281; DeepSeek-V4-Pro 61).
const maxMixedLayers = 200000

// readMixedPrecision reads a ModelOpt MIXED_PRECISION quantization's
// quantized_layers into out: the per-module formats, Format as the 4-bit
// format when any module has it (else ModelOpt FP8) so that the estimator's
// step model runs it as such, and MixedProblem when the map cannot be
// sized (empty, an algorithm vLLM does not load, NVFP4 groups that differ).
func readMixedPrecision(q map[string]interface{}, out *Quantization) {
	layers, _ := q["quantized_layers"].(map[string]interface{})
	if len(layers) == 0 {
		// vLLM raises "MIXED_PRECISION quant_algo requires a non-empty
		// 'quantized_layers' mapping".
		out.MixedProblem = "quantization_config modelopt quant_algo \"MIXED_PRECISION\" without a quantized_layers map: vLLM refuses it (it names each module's format)"
		return
	}
	if len(layers) > maxMixedLayers {
		out.MixedProblem = fmt.Sprintf("quantization_config modelopt MIXED_PRECISION lists %d quantized_layers (more than %d): not a checkpoint's", len(layers), maxMixedLayers)
		return
	}
	keys := make([]string, 0, len(layers))
	for k := range layers {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a stable first entry for messages and group sizes
	out.mixedLayers = make(map[string]mixedLayer, len(keys))
	out.mixedBelow = map[string]mixedLayer{}
	var unknown []string
	group, fp4, fp8 := 0, false, false
	for _, k := range keys {
		e, _ := layers[k].(map[string]interface{})
		algo, _ := e["quant_algo"].(string)
		f, ok := mixedAlgoFormats[strings.ToUpper(algo)]
		if !ok {
			if len(unknown) < 3 {
				unknown = append(unknown, fmt.Sprintf("%s: %q", k, algo))
			}
			continue
		}
		l := mixedLayer{format: f}
		if f == FormatNVFP4 {
			fp4 = true
			l.group = positiveInt(e["group_size"], nvfp4Group)
			if group != 0 && l.group != group {
				// vLLM builds one NVFP4 config with the first entry's group.
				out.MixedProblem = fmt.Sprintf("quantization_config modelopt MIXED_PRECISION with NVFP4 groups of %d and %d values: vLLM loads one group size", group, l.group)
				return
			}
			group = l.group
		} else {
			fp8 = true
		}
		out.mixedLayers[k] = l
		for i := strings.LastIndexByte(k, '.'); i > 0; i = strings.LastIndexByte(k[:i], '.') {
			// Every module above k, mapped to the first key below it in
			// order, as vLLM returns the first it meets.
			if _, seen := out.mixedBelow[k[:i]]; !seen {
				out.mixedBelow[k[:i]] = l
			}
		}
	}
	if len(unknown) > 0 {
		out.MixedProblem = fmt.Sprintf("quantization_config modelopt MIXED_PRECISION quantized_layers with quant_algo vLLM's ModelOptMixedPrecisionConfig does not load (%s): vlaunch sizes FP8, NVFP4 and W4A16_NVFP4 entries", strings.Join(unknown, ", "))
		return
	}
	switch {
	case fp4:
		out.Format, out.GroupSize = FormatNVFP4, group
	case fp8:
		out.Format = FormatModelOptFP8
	}
}

// mixedLookup resolves a module path's format in quantized_layers as vLLM
// does, module paths written in the checkpoint's own naming: the path
// itself or a module above it ("…mlp.experts" for one expert's
// gate_proj), else a key below it; "" when none.
func (q Quantization) mixedLookup(path string) (mixedLayer, bool) {
	for _, p := range mixedSpellings(path) {
		for s := p; ; {
			if l, ok := q.mixedLayers[s]; ok {
				return l, true
			}
			i := strings.LastIndexByte(s, '.')
			if i < 0 {
				break
			}
			s = s[:i]
		}
	}
	for _, p := range mixedSpellings(path) {
		// Keys below the module (experts listed one by one).
		if l, ok := q.mixedBelow[p]; ok {
			return l, true
		}
	}
	return mixedLayer{}, false
}

// mixedSpellings are the names vLLM tries for one module: the path and its
// other multimodal-wrapper spelling.
func mixedSpellings(path string) []string {
	const a, b = "language_model.model.", "model.language_model."
	switch {
	case strings.HasPrefix(path, a):
		return []string{path, b + path[len(a):]}
	case strings.HasPrefix(path, b):
		return []string{path, a + path[len(b):]}
	}
	return []string{path}
}

// formatBytes is the storage of one weight of a mixed checkpoint's module
// format with its scales: NVFP4 ½ byte + one FP8 (E4M3) scale per group
// (the FP32 global scale per tensor left out, as BytesPerParam does);
// ModelOpt FP8 one byte (one FP32 scale per tensor).
func (l mixedLayer) formatBytes() float64 {
	if l.format == FormatNVFP4 {
		return Quantization{Format: FormatNVFP4, GroupSize: l.group}.BytesPerParam(0)
	}
	return 1
}

// mixedAccum sums one component's quantized parameters and bytes by format.
type mixedAccum struct {
	params map[string]float64 // format -> parameters
	bytes  float64
}

// mixedParts turns the quantized parameters each component's modules hold
// into MixedParts over the component's whole parameters (ParamCounts): what
// the modules listed leave (norms, convolutions, biases, unlisted
// projections) stays in the torch dtype.
func (m *Model) mixedParts(acc map[string]*mixedAccum) map[string]MixedPart {
	wide := 2.0
	if m.TorchDType == "float32" {
		wide = 4
	}
	pc := m.ParamCounts()
	totals := map[string]float64{"attention": pc.Attention, "dense_mlp": pc.DenseMLP, "routed": pc.RoutedExperts,
		"shared": pc.SharedExperts, "indexer": pc.Indexer, "lm_head": pc.LMHead}
	out := map[string]MixedPart{}
	for part, total := range totals {
		a := acc[part]
		if total <= 0 || a == nil {
			continue
		}
		var qp float64
		for _, p := range a.params {
			qp += p
		}
		if qp <= 0 {
			continue
		}
		if qp > total { // the module list counts more than ParamCounts: scale to it
			a.bytes *= total / qp
			for f := range a.params {
				a.params[f] *= total / qp
			}
			qp = total
		}
		mp := MixedPart{BytesPerParam: (a.bytes + (total-qp)*wide) / total, Formats: map[string]float64{}}
		for f, p := range a.params {
			mp.Formats[f] = p / total
		}
		out[part] = mp
	}
	return out
}

// MixedWeightBytes is what the served layers of a mixed-precision
// checkpoint store: each component at its MixedPart's bytes per parameter,
// the components without one (embeddings, routers, norms, unquantized
// components) in the torch dtype. 0 when the checkpoint is not mixed.
func (m *Model) MixedWeightBytes() float64 {
	s := m.Quant.Shares
	if s == nil || len(s.Mixed) == 0 {
		return 0
	}
	wide := 2.0
	if m.TorchDType == "float32" {
		wide = 4
	}
	pc := m.ParamCounts()
	at := func(part string, params float64) float64 {
		if mp, ok := s.Mixed[part]; ok {
			return params * mp.BytesPerParam
		}
		return params * wide
	}
	return at("attention", pc.Attention) + at("dense_mlp", pc.DenseMLP) + at("routed", pc.RoutedExperts) +
		at("shared", pc.SharedExperts) + at("indexer", pc.Indexer) + at("lm_head", pc.LMHead) +
		(pc.Embedding+pc.Router+pc.Norms+pc.LatentProj+pc.HyperConnections)*wide
}

// IsMixedPrecision reports whether the checkpoint names a format per module
// (ModelOpt MIXED_PRECISION) and vlaunch read it.
func (q Quantization) IsMixedPrecision() bool { return q.mixedLayers != nil && q.MixedProblem == "" }

// readMoEQuantAlgo reads an FP8 config's moe_quant_algo. vLLM's
// DeepseekV4FP8Config (vllm/models/deepseek_v4/quant_config.py, read at
// vllm-project/vllm commit 234b8ebc; first release not pinned) loads a
// deepseek_v4 checkpoint whose expert_dtype is fp4 with
// ModelOptNvFp4FusedMoE (NVFP4, groups of 16) when quantization_config's
// moe_quant_algo is "NVFP4", with Mxfp4MoEMethod otherwise; every other
// linear layer stays block FP8 (its ignore list is not Fp8Config's
// ignored_layers). nvidia's DeepSeek-V4-Flash-NVFP4 and -Pro-NVFP4 also
// write quant_algo MIXED_PRECISION and a quantized_layers map naming only
// the experts; under quant_method fp8 vLLM does not read them.
func readMoEQuantAlgo(q map[string]interface{}, out *Quantization) {
	algo, _ := q["moe_quant_algo"].(string)
	out.MoEQuantAlgo = strings.ToUpper(algo)
	if out.MoEQuantAlgo == "NVFP4" {
		out.ExpertFormat = FormatNVFP4
		out.GroupSize = nvfp4Group // DeepseekV4FP8Config._get_nvfp4_config: group_size=16
	}
}

// add counts p parameters of a module in format l.
func (a *mixedAccum) add(l mixedLayer, p float64) *mixedAccum {
	if a == nil {
		a = &mixedAccum{params: map[string]float64{}}
	}
	a.params[l.format] += p
	a.bytes += p * l.formatBytes()
	return a
}

// mixedModule resolves the format of layer i's module under any of its
// names and the checkpoints' layer prefixes (layerPrefixes).
func (q Quantization) mixedModule(layer int, names []string) (mixedLayer, bool) {
	for _, pre := range layerPrefixes {
		p := fmt.Sprintf(pre, layer)
		for _, n := range names {
			if l, ok := q.mixedLookup(p + n); ok {
				return l, true
			}
		}
	}
	return mixedLayer{}, false
}
