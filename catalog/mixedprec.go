package catalog

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// ModelOpt MIXED_PRECISION checkpoints (nvidia/Qwen3.6-35B-A3B-NVFP4: FP8
// attention and Gated DeltaNet projections, NVFP4 experts, shared experts
// and LM head) name each quantized module's format in a quantized_layers
// map. vLLM's ModelOptMixedPrecisionConfig (vllm/model_executor/layers/
// quantization/modelopt.py, read at vllm-project/vllm commit 00155cde, the
// search index's copy; first release not pinned) resolves a module's format
// from it: the exact name, then a fused module's shards (packed_modules_mapping),
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
	format string // FormatNVFP4, FormatModelOptFP8 (compressed-tensors also FormatINT4, "int8")
	group  int
	// zero marks asymmetric INT4 (a 4-bit zero point per group).
	zero bool
	// bytes is an 8-bit group's storage per weight with its scales (0:
	// from format and group); perChannel adds one FP32 scale per output
	// channel (per hidden_size weights).
	bytes      float64
	perChannel bool
}

// mixedAlgoFormats are the quant_algo values of a quantized_layers entry
// vLLM's ModelOptMixedPrecisionConfig loads at the commit read, with the
// weight storage each has.
var mixedAlgoFormats = map[string]string{"FP8": FormatModelOptFP8, "NVFP4": FormatNVFP4, "W4A16_NVFP4": FormatNVFP4, "MXFP8": FormatModelOptFP8}

// mxfp8Bytes is an MXFP8 weight's storage: one FP8 (E4M3) value and, per
// MXFP8_BLOCK_SIZE = 32 values, one uint8 (E8M0) scale
// (vllm/model_executor/layers/quantization/utils/mxfp8_utils.py:
// MXFP8_VALUE_DTYPE float8_e4m3fn, MXFP8_SCALE_DTYPE uint8). vLLM's
// ModelOptMixedPrecisionConfig at 00155cde leaves an MXFP8 entry
// unquantized (no such branch in get_quant_method); vllm-project/vllm PR
// #46756 (merged; "Add ModelOpt mixed-precision MXFP8 Linear and
// RoutedExperts dispatch", a port of #46380 for nvidia/MiniMax-M3-NVFP4,
// whose MXFP8 attention, dense MLPs and shared experts it serves) adds
// the dispatch. The step model runs these modules as FP8 GEMMs.
const mxfp8Bytes = 1 + 1.0/32

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
		if strings.EqualFold(algo, "MXFP8") {
			l.bytes = mxfp8Bytes
		}
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
		out.MixedProblem = fmt.Sprintf("quantization_config modelopt MIXED_PRECISION quantized_layers with quant_algo vLLM's ModelOptMixedPrecisionConfig does not load (%s): vlaunch sizes FP8, MXFP8, NVFP4 and W4A16_NVFP4 entries", strings.Join(unknown, ", "))
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
func (l mixedLayer) formatBytes(hidden int) float64 {
	switch {
	case fourBitFormat(l.format):
		return Quantization{Format: l.format, GroupSize: l.group, ZeroPoint: l.zero}.BytesPerParam(hidden)
	case l.perChannel:
		return max(l.bytes, 1) + 4/float64(max(hidden, 1))
	case l.bytes > 0:
		return l.bytes
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
// checkpoint (ModelOpt MIXED_PRECISION or compressed-tensors groups of
// different formats) store: each component at its MixedPart's bytes per parameter,
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
// (ModelOpt MIXED_PRECISION's quantized_layers, compressed-tensors groups of
// different formats) and vlaunch read it.
func (q Quantization) IsMixedPrecision() bool {
	return (q.mixedLayers != nil || q.ctGroups != nil) && q.MixedProblem == ""
}

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
func (a *mixedAccum) add(l mixedLayer, p float64, hidden int) *mixedAccum {
	if a == nil {
		a = &mixedAccum{params: map[string]float64{}}
	}
	a.params[l.format] += p
	a.bytes += p * l.formatBytes(hidden)
	return a
}

// mixedFor resolves layer i's module in either kind of mixed checkpoint.
func (q Quantization) mixedFor(layer int, names []string) (mixedLayer, bool) {
	if q.ctGroups != nil {
		return q.ctModule(layer, names)
	}
	return q.mixedModule(layer, names)
}

// mixedLMHead resolves the LM head: quantized_layers' "lm_head", or a
// compressed-tensors target naming it (vLLM's ParallelLMHead is no Linear
// class, so class-name targets leave it unquantized).
func (q Quantization) mixedLMHead() (mixedLayer, bool) {
	if q.ctGroups != nil {
		for _, g := range q.ctGroups {
			for _, t := range g.targets {
				if ctMatch("lm_head", t) {
					return g.layer, true
				}
			}
		}
		return mixedLayer{}, false
	}
	return q.mixedLookup("lm_head")
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

// Compressed-tensors checkpoints with config groups of different formats
// (llm-compressor's mixed recipes: FP8 attention, NVFP4 or INT4 experts;
// RedHatAI/DeepSeek-V4-Flash-NVFP4-FP8 is one) pick each module's group
// as vLLM's CompressedTensorsConfig does (vllm/model_executor/layers/
// quantization/compressed_tensors/utils.py, read at vllm-project/vllm
// commit 008014e8; first release not pinned): a module in the ignore list
// (its name, or a "re:" regex matched from the start) is unquantized;
// otherwise find_matched_target takes the first target, over the groups in
// order, equal to the module's name or a "re:" regex matching it, then the
// first a class-name target contained in the module's class (every linear
// layer's class contains "Linear"). A module no target matches is
// unquantized.

// anyFourBitGroup reports whether some config group stores 4-bit weights.
func anyFourBitGroup(groups map[string]interface{}) bool {
	for _, g := range groups {
		gm, _ := g.(map[string]interface{})
		w, _ := gm["weights"].(map[string]interface{})
		if positiveInt(w["num_bits"], 0) == 4 {
			return true
		}
	}
	return false
}

// ctGroup is one compressed-tensors config group: its targets and storage.
type ctGroup struct {
	name    string
	targets []string
	layer   mixedLayer
}

// maxCTGroups bounds the config groups read.
const maxCTGroups = 10000

// readCompressedTensorsMixed reads config groups of different formats into
// out's per-group targets, or says in MixedProblem why they cannot be
// sized (a group without targets, weights of another width or type).
func readCompressedTensorsMixed(groups map[string]interface{}, out *Quantization) {
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	if len(names) > maxCTGroups {
		out.MixedProblem = fmt.Sprintf("quantization_config compressed-tensors with %d config_groups (more than %d): not a checkpoint's", len(names), maxCTGroups)
		return
	}
	// Python keeps the file's order; a sorted order is the file's for
	// llm-compressor's group_0, group_1 … (fewer than 10).
	sort.Strings(names)
	out.ctGroups = []ctGroup{}
	for _, n := range names {
		gm, _ := groups[n].(map[string]interface{})
		w, _ := gm["weights"].(map[string]interface{})
		targets := stringList(gm["targets"])
		if w == nil || len(targets) == 0 {
			out.MixedProblem = fmt.Sprintf("quantization_config compressed-tensors%s config group %q without weights or targets among groups of different formats: vlaunch cannot tell which modules it quantizes", bitsText(out.WeightBits), n)
			return
		}
		l, ok := ctGroupStorage(w, gm["format"])
		if !ok {
			t, _ := w["type"].(string)
			out.MixedProblem = fmt.Sprintf("quantization_config compressed-tensors%s config group %q: %d-bit %s weights (strategy %v) among groups of different formats: vlaunch sizes 8-bit (tensor, channel, block), NVFP4 and INT4 groups",
				bitsText(out.WeightBits), n, positiveInt(w["num_bits"], 0), t, w["strategy"])
			return
		}
		for _, t := range targets {
			if strings.HasPrefix(t, "re:") && ctRegexp(t[3:]) == nil {
				out.MixedProblem = fmt.Sprintf("quantization_config compressed-tensors%s config group %q target %q: a regex vlaunch cannot read (Go's RE2 lacks Python's lookarounds and backreferences)", bitsText(out.WeightBits), n, t)
				return
			}
		}
		out.ctGroups = append(out.ctGroups, ctGroup{name: n, targets: targets, layer: l})
	}
	// The step model runs the 4-bit format (the experts' in these recipes).
	out.Format, out.GroupSize, out.ZeroPoint = "", 0, false
	for _, g := range out.ctGroups {
		if fourBitFormat(g.layer.format) {
			out.Format, out.GroupSize = g.layer.format, g.layer.group
			out.ZeroPoint = out.ZeroPoint || g.layer.zero
			break
		}
	}
}

// ctGroupStorage is a config group's weight storage (format: the group's
// format name, nil when absent): 4-bit float MXFP4 or NVFP4 (fourBitFloat;
// NVFP4's FP32 global scale left out), 4-bit integer
// INT4 (one 16-bit scale per group, a 4-bit zero point when asymmetric),
// 8-bit one byte plus one FP32 scale per output channel ("channel"), per
// 128 × 128 block ("block") or per tensor.
func ctGroupStorage(w map[string]interface{}, format interface{}) (mixedLayer, bool) {
	bits := positiveInt(w["num_bits"], 0)
	typ, _ := w["type"].(string)
	strategy, _ := w["strategy"].(string)
	switch {
	case bits == 4 && typ == "float":
		f, g := fourBitFloat(w, format, nil)
		return mixedLayer{format: f, group: g}, true
	case bits == 4 && typ == "int":
		g := positiveInt(w["group_size"], 0)
		sym, ok := w["symmetric"].(bool)
		return mixedLayer{format: FormatINT4, group: g, zero: ok && !sym}, true
	case bits == 8 && (typ == "float" || typ == "int"):
		f := FormatModelOptFP8
		if typ == "int" {
			f = "int8"
		}
		l := mixedLayer{format: f, bytes: 1}
		switch strategy {
		case "channel":
			l.perChannel = true
		case "block":
			b := 128 * 128
			if bs, ok := w["block_structure"].([]interface{}); ok && len(bs) == 2 {
				b = positiveInt(bs[0], 128) * positiveInt(bs[1], 128)
			}
			l.bytes += 4.0 / float64(b)
		case "tensor", "":
		default:
			return mixedLayer{}, false
		}
		return l, true
	}
	return mixedLayer{}, false
}

// ctModule resolves layer i's module's storage in a compressed-tensors
// mixed checkpoint: the first group with a target naming one of its paths
// (exactly or by "re:" regex), then the first with a class-name target
// ("Linear"); false when none.
func (q Quantization) ctModule(layer int, names []string) (mixedLayer, bool) {
	var paths []string
	for _, pre := range layerPrefixes {
		for _, n := range names {
			paths = append(paths, fmt.Sprintf(pre, layer)+n)
		}
	}
	return q.ctLookup(paths)
}

// ctLookup is ctModule over given module paths.
func (q Quantization) ctLookup(paths []string) (mixedLayer, bool) {
	for _, g := range q.ctGroups {
		for _, t := range g.targets {
			for _, p := range paths {
				if ctMatch(p, t) {
					return g.layer, true
				}
			}
		}
	}
	for _, g := range q.ctGroups {
		for _, t := range g.targets {
			if !strings.HasPrefix(t, "re:") && t != "" && strings.Contains("linear", strings.ToLower(t)) {
				return g.layer, true
			}
		}
	}
	return mixedLayer{}, false
}

// ctMatch is vLLM's _is_equal_or_regex_match on a module path: equal, or
// a "re:" regex matching from its start (an invalid regex matches nothing).
func ctMatch(path, target string) bool {
	if strings.HasPrefix(target, "re:") {
		re := ctRegexp(target[3:])
		return re != nil && re.MatchString(path)
	}
	return path == target
}

// ctRegexps caches compiled targets (nil: not RE2 syntax); regexes are
// matched from the start, as Python's re.match.
var ctRegexps sync.Map

func ctRegexp(pattern string) *regexp.Regexp {
	if v, ok := ctRegexps.Load(pattern); ok {
		return v.(*regexp.Regexp)
	}
	var re *regexp.Regexp
	if len(pattern) <= 4096 {
		re, _ = regexp.Compile("^(?:" + pattern + ")")
	}
	ctRegexps.Store(pattern, re)
	return re
}
