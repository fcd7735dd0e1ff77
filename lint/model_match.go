package lint

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/catalog"
)

// catalogModels is the embedded catalog, parsed once: catalog.Models
// parses every model's config.json on each call, which cost ~9 ms per Lint
// call. The rules only read the models, so one shared copy is safe.
var catalogModels = sync.OnceValue(catalog.Models)

// modelFor finds the served model in the catalog exactly: by repo id, by a
// path ending in org/repo or in a Hugging Face cache directory
// (models--org--repo), or by the repo's directory name. Rules that use the
// model's sizes (context length, KV bytes) need an exact match.
func modelFor(s *server) *catalog.Model {
	name, ok := servedName(s)
	if !ok {
		return nil
	}
	for _, m := range catalogModels() {
		if strings.EqualFold(m.HFRepo, name) || strings.EqualFold(path.Base(m.HFRepo), path.Base(name)) {
			return m
		}
	}
	return nil
}

// familyModel finds the catalog model of the served model's family: an
// exact match, or a sibling variant (-Instruct, -Base, -Thinking, a dated
// release such as -0324 or -2507, a quantised upload such as -FP8 or -AWQ)
// of a catalog model. Siblings share the architecture — attention kind,
// experts, the need for remote code — not necessarily the context length.
// What people write is read too (issue #25): a local path whose last
// directory is their own name under a recognisable one
// (/data/models/deepseek-ai/DeepSeek-R1/DeepSeek-R1-Hzz1, .../snapshots/<hash>),
// and --served-model-name when the path names no other model.
func familyModel(s *server) *catalog.Model {
	if m := modelFor(s); m != nil {
		return m
	}
	if m := pathModel(s); m != nil {
		return m
	}
	return servedNameModel(s)
}

// pathModel finds the family of the model path: its last directory, else
// a directory above it whose copy the last one can be (leafOf).
func pathModel(s *server) *catalog.Model {
	name, ok := servedName(s)
	if !ok {
		return nil
	}
	parts := strings.Split(name, "/")
	leaf := parts[len(parts)-1]
	if m := byFamily(leaf); m != nil {
		return m
	}
	for i := len(parts) - 2; i >= 0; i-- {
		if m := byFamily(parts[i]); m != nil && leafOf(leaf, m) {
			return m
		}
	}
	return nil
}

// servedNameModel is the catalog model --served-model-name names, when the
// model path's last directory names no other model.
func servedNameModel(s *server) *catalog.Model {
	v, ok := s.Str("served-model-name")
	if !ok || !v.Known {
		return nil
	}
	leaf := ""
	if name, ok := servedName(s); ok {
		leaf = path.Base(name)
	}
	for _, n := range strings.Fields(v.Text) {
		if m := byFamily(path.Base(catalog.RepoName(n))); m != nil && (leaf == "" || !foreignLeaf(leaf, m)) {
			return m
		}
	}
	return nil
}

// byServedName reports a model recognised from --served-model-name alone:
// a served name is an alias its user chose, so a finding that rests on it
// is less certain than one on the model path.
func byServedName(s *server) bool {
	return modelFor(s) == nil && pathModel(s) == nil && servedNameModel(s) != nil
}

// byFamily finds the catalog model whose family key is base's.
func byFamily(base string) *catalog.Model {
	key := familyKey(base)
	if key == "" {
		return nil
	}
	for _, m := range catalogModels() {
		if familyKey(path.Base(m.HFRepo)) == key {
			return m
		}
	}
	return nil
}

// genericLeaf matches a last directory that names no model: a snapshot
// hash, a branch, a version, a checkpoint.
var genericLeaf = regexp.MustCompile(`(?i)^([0-9a-f]{7,}|main|latest|model|models|weights|hf|original|snapshots?|v?\d+([._-]\d+)*|checkpoint[-_]?\d*|step[-_]?\d+)$`)

// leafOf reports whether the last directory of a path can be a copy of the
// model m found above it: a generic name, or m's name with a suffix of
// one's own that names no other model (DeepSeek-R1-Hzz1, not
// DeepSeek-R1-Distill-Qwen-32B).
func leafOf(leaf string, m *catalog.Model) bool {
	if genericLeaf.MatchString(leaf) || familyKey(leaf) == "" {
		return true
	}
	key, lk := familyKey(path.Base(m.HFRepo)), familyKey(leaf)
	return strings.HasPrefix(lk, key+"-") && !foreignLeaf(strings.TrimPrefix(lk, key+"-"), m)
}

// distilTokens mark a model trained from another one: its architecture is
// the student's, whatever the name starts with.
var distilTokens = map[string]bool{"distill": true, "distilled": true}

// foreignLeaf reports a name with a word of another catalog family's name
// (llama, qwen, glm ...) or of distillation: it is not m.
func foreignLeaf(name string, m *catalog.Model) bool {
	own := familyWord(familyKey(path.Base(m.HFRepo)))
	for _, t := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if distilTokens[t] {
			return true
		}
		w := familyWord(t)
		if w == "" || w == own {
			continue
		}
		for _, o := range catalogModels() {
			if familyWord(familyKey(path.Base(o.HFRepo))) == w {
				return true
			}
		}
	}
	return false
}

// familyWord is the leading letters of a name's first word ("qwen3-8b" ->
// "qwen", "llama-3.1-8b-instruct" -> "llama"): what tells families apart.
func familyWord(key string) string {
	for i, r := range key {
		if r < 'a' || r > 'z' {
			return key[:i]
		}
	}
	return key
}

// modelLabel names the served model for a message: the catalog repo, or
// the served name with the catalog model whose family it was matched to.
func modelLabel(s *server, m *catalog.Model) string {
	name, ok := servedName(s)
	if !ok {
		if v, set := s.Str("served-model-name"); set {
			return v.Text + " (served name; " + m.HFRepo + ")"
		}
		return m.HFRepo
	}
	if strings.EqualFold(path.Base(name), path.Base(m.HFRepo)) {
		return m.HFRepo
	}
	return path.Base(name) + " (a variant of " + m.HFRepo + ")"
}

// servedName returns the model as an org/repo-like name: the text, with a
// cache directory turned back into org/repo and a snapshot suffix dropped.
func servedName(s *server) (string, bool) {
	if s.Model == nil || !s.Model.Known {
		return "", false
	}
	return catalog.RepoName(s.Model.Text), true
}

// familyKey is a lower-case name with its variant parts removed
// (catalog.FamilyKey, shared with calibrate's and logs' model checks).
func familyKey(base string) string { return catalog.FamilyKey(base) }
