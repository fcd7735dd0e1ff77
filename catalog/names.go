package catalog

import (
	"path"
	"regexp"
	"strings"
)

// variantTokens are name parts that mark a variant of the same model.
var variantTokens = map[string]bool{"instruct": true, "base": true, "chat": true, "thinking": true, "it": true,
	"fp8": true, "bf16": true, "fp16": true, "awq": true, "gptq": true, "int4": true, "int8": true,
	"w8a8": true, "w4a16": true, "w4a8": true, "nvfp4": true, "mxfp4": true, "hf": true, "dynamic": true}

// dateToken matches a dated release tag (0324, 2507, 250528).
var dateToken = regexp.MustCompile(`^\d{4}(\d{2})?$`)

// FamilyKey is a model's directory or repo name in lower case with its
// variant parts removed (-Instruct, -Base, -Thinking, -FP8, -AWQ, a dated
// release such as -0324): siblings share it.
func FamilyKey(base string) string {
	var keep []string
	for _, t := range strings.Split(strings.ToLower(base), "-") {
		if !variantTokens[t] && !dateToken.MatchString(t) {
			keep = append(keep, t)
		}
	}
	return strings.Join(keep, "-")
}

// hfCacheDir matches a Hugging Face cache directory: models--org--repo.
var hfCacheDir = regexp.MustCompile(`models--([^/-][^/]*?)--([^/]+)`)

// RepoName turns a model as users name it — a hub id, a local path, a
// Hugging Face cache directory (models--org--repo/snapshots/…), a
// ModelScope cache directory, a hub URL — into an org/repo-like name: the
// text, with a cache directory turned back into org/repo, a hub URL's
// prefix and trailing slashes dropped.
func RepoName(name string) string {
	name = strings.TrimRight(name, "/")
	for _, p := range hubPrefixes {
		if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			name = name[len(p):]
			break
		}
	}
	if m := hfCacheDir.FindStringSubmatch(name); m != nil {
		return m[1] + "/" + m[2]
	}
	// ModelScope's snapshot_download writes a repo whose name has a dot in a
	// directory with "___" in its place (Qwen/Qwen2___5-7B-Instruct).
	if i := strings.LastIndex(name, "/"); strings.Contains(name[i+1:], "___") {
		name = name[:i+1] + strings.ReplaceAll(name[i+1:], "___", ".")
	}
	return name
}

// hubPrefixes are the URL forms of a hub id people paste as the model.
var hubPrefixes = []string{"https://huggingface.co/", "http://huggingface.co/", "https://hf.co/", "hf://",
	"https://www.modelscope.cn/models/", "https://modelscope.cn/models/", "modelscope.cn/models/", "ms://"}

// SameModel reports whether two names of a model (hub ids, local paths,
// served names, catalog ids) can name the same model or a variant of it:
// their base names have the same family key, or one key ends in the other
// (Meta-Llama-3.1-8B and Llama-3.1-8B). It tells apart different models
// (DeepSeek-R1 and Llama-3.1-8B, DeepSeek-V3 and DeepSeek-R1), not
// checkpoints of one model.
func SameModel(a, b string) bool {
	ka, kb := FamilyKey(path.Base(RepoName(a))), FamilyKey(path.Base(RepoName(b)))
	if ka == "" || kb == "" || ka == "." || kb == "." {
		return false
	}
	return ka == kb || strings.HasSuffix(ka, "-"+kb) || strings.HasSuffix(kb, "-"+ka)
}

// Names are the names a deployment's model goes by, for matching against
// what a log or a benchmark result says it served: the catalog id and hub
// repo, and the spec's model.path and model.served_name (empty ones left
// out).
func (m *Model) Names(specNames ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range append([]string{m.ID, m.HFRepo}, specNames...) {
		if k := strings.ToLower(strings.TrimSpace(n)); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}

// MatchesAny reports whether name can be the same model as one of names
// (true when either side is empty: nothing to compare).
func MatchesAny(name string, names []string) bool {
	if strings.TrimSpace(name) == "" || len(names) == 0 {
		return true
	}
	for _, n := range names {
		if SameModel(name, n) {
			return true
		}
	}
	return false
}

// namedQuantTokens map a checkpoint name's quantization token (a part of
// its repo or directory name, split at '-', '_' and '.') to the weight
// format the checkpoint ships: publishers name pre-quantized copies so
// (RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic, nvidia/DeepSeek-V3.1-NVFP4,
// Qwen/Qwen3-8B-AWQ, …). AWQ, GPTQ and the W4 schemes store 4-bit integers.
var namedQuantTokens = map[string]string{
	"fp8": "fp8", "nvfp4": "nvfp4", "mxfp4": "mxfp4", "fp4": "nvfp4",
	"awq": "int4", "gptq": "int4", "int4": "int4", "w4a16": "int4", "w4a8": "int4",
	"int8": "int8", "w8a8": "int8",
}

// NamedQuant is the weight format a checkpoint's name (a hub id or a
// path) says it is pre-quantized in ("fp8", "nvfp4", "mxfp4", "int4",
// "int8"), or "" when the name states none. It reads only the last path
// element (RepoName's), so a directory such as /models/fp8/ says nothing.
// A name is the publisher's word, not the checkpoint's quantization_config:
// callers treat it as "probably quantized", enough to leave the method to
// vLLM (which reads the checkpoint) rather than to name one.
func NamedQuant(name string) string {
	base := strings.ToLower(path.Base(RepoName(name)))
	for _, t := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if f, ok := namedQuantTokens[t]; ok {
			return f
		}
	}
	return ""
}
