package catalog

import (
	"fmt"
	"strings"
)

// Which quantization settings vLLM uses when a checkpoint states two: a
// quantization_config in config.json (top level, or in a multimodal
// wrapper's text_config) and a ModelOpt hf_quant_config.json beside it.
//
// vLLM's get_config (vllm/transformers_utils/config.py) reads the raw
// config.json's top-level "quantization_config" key only; when that is
// absent and hf_quant_config.json exists it loads the file and sets it as
// hf_config.quantization_config ("ModelOpt 0.29.0 and before saves the
// quantization config in a separate hf_quant_config.json"). The method and
// the settings are then taken from hf_config.quantization_config first and
// from text_config.quantization_config only when that is None
// (ModelArchConfigConvertor.get_quantization_config, vllm/transformers_utils/
// model_arch_config_convertor.py, read by ModelConfig._verify_quantization;
// get_quant_config, vllm/model_executor/model_loader/weight_utils.py:
// "some vision model may keep quantization_config in their text_config").
// So:
//   - a top-level quantization_config wins; hf_quant_config.json is never
//     read, and a text_config's own is not used either;
//   - without one, hf_quant_config.json wins over a text_config's own;
//   - else the text_config's own.
//
// Read at local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268
// (a fork of vllm-project/vllm main of 2026-04); the hf_quant_config.json
// read in get_config came with vllm-project/vllm PR #22073 (commit
// bdcb42e45db5, merged 2025-08-05, the first release after it being
// v0.10.1; the same code is in the Yuran-7/vllm-0.11 snapshot, and
// tensorflowt/vllm-0.8.5 has neither it nor the text_config fallback of
// _verify_quantization). Releases before #22073 read hf_quant_config.json
// only under --quantization modelopt, which vlaunch does not model: it
// reads the checkpoint as the releases after it do.

// pickQuantConfig returns the quantization vLLM uses: top is config.json's
// top-level quantization_config, lm the language model's (a wrapper's
// text_config's own, or top's when it states none), textOwn whether the
// text_config states its own, hfQuant the hf_quant_config.json beside it
// (nil without one).
func pickQuantConfig(top, lm map[string]interface{}, wrapped, textOwn bool, hfQuant []byte) (Quantization, error) {
	textKey := "config.json's text_config.quantization_config"
	switch {
	case top != nil:
		q := parseQuant(top)
		q.Source = "config.json"
		var ignored []string
		if hfQuant != nil {
			ignored = appendIgnored(ignored, q, top, HFQuantConfigFile, hfQuant, nil)
		}
		if wrapped && textOwn {
			ignored = appendIgnored(ignored, q, top, textKey, nil, lm)
		}
		q.Ignored = ignoredText("config.json's quantization_config", q, ignored)
		return q, nil
	case hfQuant != nil:
		hq, err := ParseHFQuantConfig(hfQuant)
		if err != nil {
			return Quantization{}, err
		}
		q := parseQuant(hq)
		q.Source = HFQuantConfigFile
		if wrapped && textOwn {
			q.Ignored = ignoredText(HFQuantConfigFile, q, appendIgnored(nil, q, hq, textKey, nil, lm))
		}
		return q, nil
	}
	q := parseQuant(lm)
	if lm != nil {
		q.Source = "config.json"
	}
	return q, nil
}

// appendIgnored appends to list the settings vLLM does not use (a file's,
// or cfg), named for the warning: "hf_quant_config.json (modelopt NVFP4
// (FP8 scale per 16))", unless they say what the used ones q say (method,
// format, group, ModelOpt algorithm and exclusions): NVIDIA's Kimi-K2.6-,
// Qwen3.6-35B-A3B- and MiniMax-M2.5-NVFP4 ship both files, agreeing on
// these (their config.json states the FP8 KV cache as kv_cache_scheme, or
// not at all, where hf_quant_config.json says kv_cache_quant_algo FP8: not
// compared, the weights' sizes do not depend on it). A file that does not parse is named as such (vLLM never reads
// it either).
func appendIgnored(list []string, q Quantization, used map[string]interface{}, what string, file []byte, cfg map[string]interface{}) []string {
	if file != nil {
		var err error
		if cfg, err = ParseHFQuantConfig(file); err != nil {
			return append(list, what+" (unreadable, not read by vLLM either)")
		}
	}
	other := parseQuant(cfg)
	if sameQuant(q, other) || sameModelOptExport(used, cfg) {
		return list
	}
	return append(list, fmt.Sprintf("%s (%s)", what, quantText(other)))
}

// sameModelOptExport reports whether two quantization configs state the
// same ModelOpt quant_algo and group_size: nvidia/DeepSeek-V4-Flash-NVFP4's
// config.json writes its MIXED_PRECISION export as DeepSeek's FP8 config
// with moe_quant_algo NVFP4 (what vLLM's DeepseekV4FP8Config loads), its
// hf_quant_config.json as ModelOpt MIXED_PRECISION, both with group_size
// 16: one quantization in two spellings.
func sameModelOptExport(a, b map[string]interface{}) bool {
	algoA, _ := a["quant_algo"].(string)
	algoB, _ := b["quant_algo"].(string)
	return algoA != "" && strings.EqualFold(algoA, algoB) && positiveInt(a["group_size"], 0) == positiveInt(b["group_size"], 0)
}

// sameQuant reports whether two statements of a checkpoint's quantization
// size it alike.
func sameQuant(a, b Quantization) bool {
	return quantText(a) == quantText(b) && a.Algo == b.Algo &&
		a.GroupSize == b.GroupSize && strings.Join(sortedCopy(a.ModulesNotConverted), "\x00") == strings.Join(sortedCopy(b.ModulesNotConverted), "\x00")
}

// ignoredText is the warning's sentence, "" when nothing is ignored.
func ignoredText(used string, q Quantization, ignored []string) string {
	if len(ignored) == 0 {
		return ""
	}
	s := ""
	for i, x := range ignored {
		if i > 0 {
			s += " and "
		}
		s += x
	}
	return fmt.Sprintf("the checkpoint states its quantization twice: vlaunch uses %s (%s), as vLLM does, and ignores %s", used, quantText(q), s)
}

// quantText names a quantization for a message: its method and, for the
// 4-bit and ModelOpt formats, the format ("compressed-tensors INT4 (16-bit
// scale per 32)", "modelopt NVFP4 (FP8 scale per 16)", "fp8").
func quantText(q Quantization) string {
	m := q.Method
	if m == "" {
		m = "no quant_method"
	}
	if q.Format == "" {
		return m
	}
	return m + " " + q.formatText()
}
