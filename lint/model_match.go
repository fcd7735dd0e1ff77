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
func familyModel(s *server) *catalog.Model {
	if m := modelFor(s); m != nil {
		return m
	}
	name, ok := servedName(s)
	if !ok {
		return nil
	}
	key := familyKey(path.Base(name))
	for _, m := range catalogModels() {
		if familyKey(path.Base(m.HFRepo)) == key {
			return m
		}
	}
	return nil
}

// modelLabel names the served model for a message: the catalog repo, or
// the served name with the catalog model whose family it was matched to.
func modelLabel(s *server, m *catalog.Model) string {
	name, ok := servedName(s)
	if !ok || strings.EqualFold(path.Base(name), path.Base(m.HFRepo)) {
		return m.HFRepo
	}
	return path.Base(name) + " (a variant of " + m.HFRepo + ")"
}

// hfCacheDir matches a Hugging Face cache directory: models--org--repo.
var hfCacheDir = regexp.MustCompile(`models--([^/-][^/]*?)--([^/]+)`)

// servedName returns the model as an org/repo-like name: the text, with a
// cache directory turned back into org/repo and a snapshot suffix dropped.
func servedName(s *server) (string, bool) {
	if s.Model == nil || !s.Model.Known {
		return "", false
	}
	name := strings.TrimRight(s.Model.Text, "/")
	if m := hfCacheDir.FindStringSubmatch(name); m != nil {
		return m[1] + "/" + m[2], true
	}
	return name, true
}

// variantTokens are name parts that mark a variant of the same model.
var variantTokens = map[string]bool{"instruct": true, "base": true, "chat": true, "thinking": true, "it": true,
	"fp8": true, "bf16": true, "fp16": true, "awq": true, "gptq": true, "int4": true, "int8": true,
	"w8a8": true, "w4a16": true, "w4a8": true, "nvfp4": true, "mxfp4": true, "hf": true, "dynamic": true}

// dateToken matches a dated release tag (0324, 2507, 250528).
var dateToken = regexp.MustCompile(`^\d{4}(\d{2})?$`)

// familyKey is a lower-case name with its variant parts removed.
func familyKey(base string) string {
	var keep []string
	for _, t := range strings.Split(strings.ToLower(base), "-") {
		if !variantTokens[t] && !dateToken.MatchString(t) {
			keep = append(keep, t)
		}
	}
	return strings.Join(keep, "-")
}
