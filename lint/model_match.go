package lint

import (
	"path"
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
