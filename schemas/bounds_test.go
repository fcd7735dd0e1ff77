package schemas

import (
	"sort"
	"strings"
	"testing"
)

// TestEveryValueBounded: every number, text, list and map a spec can hold
// has an upper bound, so no input can ask vlaunch for unbounded work or
// memory, and every bound says why ("Limit: ..." in its description or in
// the description of the definition it refers to). Numeric keys that are
// vLLM flags carry vLLM's own range instead (TestRangesMatchVLLM).
func TestEveryValueBounded(t *testing.T) {
	root := loadSchema(t)
	var walk func(s node, path, why string)
	walk = func(s node, path, why string) {
		if ref, ok := s["$ref"].(string); ok {
			def := root["definitions"].(node)[strings.TrimPrefix(ref, "#/definitions/")].(node)
			walk(def, path, why+" "+str(s["description"]))
			return
		}
		why += " " + str(s["description"])
		if cond, ok := s["if"].(node); ok {
			// A "string or object" union: the string branch takes the
			// type its condition tests; the union itself is not checked.
			then := node{"type": cond["type"]}
			for k, v := range s["then"].(node) {
				then[k] = v
			}
			walk(then, path+"/then", why)
			walk(s["else"].(node), path+"/else", why)
			return
		}
		checkBound(t, s, path, why)
		for _, k := range []string{"items", "additionalProperties"} {
			if sub, ok := s[k].(node); ok {
				walk(sub, path+"/"+k, why)
			}
		}
		if props, ok := s["properties"].(node); ok {
			for _, k := range sortedKeys(props) {
				walk(props[k].(node), path+"."+k, "")
			}
		}
	}
	walk(root, "", "")
}

// checkBound reports a property without an upper bound, or with a bound
// that no description explains.
func checkBound(t *testing.T, s node, path, why string) {
	if _, enum := s["enum"]; enum {
		return
	}
	bounded, has := false, false
	for _, kind := range typesOf(s) {
		switch kind {
		case "integer", "number":
			has = true
			_, a := s["maximum"]
			_, b := s["exclusiveMaximum"]
			bounded = bounded || a || b || isVLLMFlag(path)
		case "string":
			has = true
			_, a := s["maxLength"]
			bounded = bounded || a
		case "array":
			has = true
			_, a := s["maxItems"]
			bounded = bounded || a
		case "object":
			if _, open := s["additionalProperties"].(node); open {
				has = true
				_, a := s["maxProperties"]
				bounded = bounded || a
			}
		}
	}
	switch {
	case has && !bounded:
		t.Errorf("%s: no upper bound", path)
	case has && !isVLLMFlag(path) && !strings.Contains(why, "Limit:"):
		t.Errorf("%s: its bound does not say why (no \"Limit:\" in its description)", path)
	}
}

func typesOf(s node) []string {
	switch v := s["type"].(type) {
	case string:
		return []string{v}
	case []interface{}:
		var out []string
		for _, x := range v {
			out = append(out, x.(string))
		}
		return out
	}
	return nil
}

// isVLLMFlag reports whether path is a key rangedKeys maps to a vLLM flag.
func isVLLMFlag(path string) bool {
	for def, keys := range rangedKeys {
		for key := range keys {
			if strings.HasSuffix(path, "."+def+"/else."+key) || strings.HasSuffix(path, "."+def+"."+key) {
				return true
			}
		}
	}
	return false
}

func str(v interface{}) string { s, _ := v.(string); return s }

func sortedKeys(m node) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
