package schemas

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestEveryPropertyAnnotated: an editor (yaml-language-server) shows a
// key's title and description on hover and in completion, so every
// property carries both itself, a property that refers to a shared
// definition too: the language server lets the property's own annotations
// win over the definition's, whose generic text ("A file or directory
// path") says nothing about the key.
func TestEveryPropertyAnnotated(t *testing.T) {
	n := 0
	eachProperty(loadSchema(t), "", func(path string, p node) {
		n++
		for _, k := range []string{"title", "description"} {
			if s, _ := p[k].(string); strings.TrimSpace(s) == "" {
				t.Errorf("%s: no %s", path, k)
			}
		}
	})
	if n < 100 {
		t.Errorf("walked %d properties: the walk misses some", n)
	}
}

// TestIDIsTheDeclaredAddress: the schema's $id is DeploymentID, the address
// `vlaunch init` writes in its modeline.
func TestIDIsTheDeclaredAddress(t *testing.T) {
	if id := loadSchema(t)["$id"]; id != DeploymentID {
		t.Errorf("$id is %v, DeploymentID %s", id, DeploymentID)
	}
	if !strings.HasPrefix(DeploymentID, "https://raw.githubusercontent.com/vlaunch/vlaunch/main/schemas/") {
		t.Errorf("DeploymentID %s is not the file's address in the repository", DeploymentID)
	}
}

// TestPoolOverridesAreTheVLLMKeys: a pool's vllm overrides are the
// top-level vllm keys with the same type, bounds, enum and annotations;
// only a default differs: a pool inherits the top-level value, so its key
// states none and its description says so.
func TestPoolOverridesAreTheVLLMKeys(t *testing.T) {
	defs := loadSchema(t)["definitions"].(node)
	top := defs["vllm"].(node)["properties"].(node)
	pool := defs["pool"].(node)["properties"].(node)["vllm"].(node)["properties"].(node)
	for key, p := range pool {
		pp, tp := p.(node), top[key].(node)
		if _, ok := pp["default"]; ok {
			t.Errorf("pool vllm.%s states a default: a pool inherits the top-level value", key)
		}
		want := node{}
		for k, v := range tp {
			if k != "default" && k != "description" {
				want[k] = v
			}
		}
		got := node{}
		for k, v := range pp {
			if k != "description" {
				got[k] = v
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pool vllm.%s differs from vllm.%s:\n got %v\nwant %v", key, key, got, want)
		}
		d, _ := pp["description"].(string)
		if _, ok := tp["default"]; ok && !strings.Contains(d, "Default: the top-level vllm."+key+".") {
			t.Errorf("pool vllm.%s: the description does not say the top-level value applies: %q", key, d)
		}
	}
}

// eachProperty calls f for every property of the schema, definitions
// included, with a readable path.
func eachProperty(root node, _ string, f func(path string, p node)) {
	var walk func(s node, path string)
	walk = func(s node, path string) {
		if props, ok := s["properties"].(node); ok {
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := props[k].(node)
				f(path+"."+k, p)
				walk(p, path+"."+k)
			}
		}
		for _, k := range []string{"then", "else", "items", "additionalProperties"} {
			if sub, ok := s[k].(node); ok {
				walk(sub, path)
			}
		}
	}
	walk(root, "")
	defs := root["definitions"].(node)
	for name, d := range defs {
		walk(d.(node), "#"+name)
	}
}
