package schemas

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

type node = map[string]interface{}

func loadSchema(t *testing.T) node {
	t.Helper()
	var s node
	if err := json.Unmarshal(Deployment, &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	return s
}

// resolve follows $ref and, for the "string or object" unions written as
// if/then/else, the object branch.
func resolve(root, s node) node {
	for {
		if ref, ok := s["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/definitions/")
			s = root["definitions"].(node)[name].(node)
			continue
		}
		if e, ok := s["else"].(node); ok {
			s = e
			continue
		}
		return s
	}
}

// structTypes are the Go types whose yaml keys must match the schema.
var gpuRef = reflect.TypeOf(spec.GPURef{})

// TestSchemaMatchesTypes walks spec.Deployment and the schema side by side:
// every yaml key of every struct must be a schema property and every schema
// property must be a yaml key, so the two cannot drift apart.
func TestSchemaMatchesTypes(t *testing.T) {
	root := loadSchema(t)
	compare(t, root, root, reflect.TypeOf(spec.Deployment{}), "(root)")
}

func compare(t *testing.T, root, s node, typ reflect.Type, path string) {
	for typ.Kind() == reflect.Ptr || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
		if items, ok := resolve(root, s)["items"].(node); ok {
			s = items
		}
	}
	s = resolve(root, s)
	if typ == gpuRef {
		typ = reflect.TypeOf(spec.GPUFigures{})
	}
	if typ.Kind() != reflect.Struct {
		return
	}
	props, _ := s["properties"].(node)
	if s["additionalProperties"] != false {
		t.Errorf("%s: schema object must set additionalProperties: false", path)
	}
	keys := yamlKeys(typ)
	for key, ft := range keys {
		sub, ok := props[key].(node)
		if !ok {
			t.Errorf("%s: Go key %q missing from the schema", path, key)
			continue
		}
		compare(t, root, sub, ft, path+"."+key)
	}
	for key := range props {
		if _, ok := keys[key]; !ok {
			t.Errorf("%s: schema property %q has no Go field", path, key)
		}
	}
}

func yamlKeys(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		out[tag] = f.Type
	}
	return out
}

// TestEnumsMatchDefaults checks that every default spec.Defaults names is
// one of the values the schema allows.
func TestEnumsMatchDefaults(t *testing.T) {
	root := loadSchema(t)
	defs := root["definitions"].(node)
	cases := []struct {
		def, prop, value string
	}{
		{"model", "weights", spec.Defaults.Weights},
		{"slo", "throughput_counts", spec.Defaults.ThroughputCounts},
		{"vllm", "kv_cache_dtype", spec.Defaults.KVCacheDType},
		{"runtime", "kind", spec.Defaults.RuntimeKind},
	}
	for _, c := range cases {
		enum := defs[c.def].(node)["properties"].(node)[c.prop].(node)["enum"].([]interface{})
		var vals []string
		for _, v := range enum {
			vals = append(vals, v.(string))
		}
		sort.Strings(vals)
		if i := sort.SearchStrings(vals, c.value); i == len(vals) || vals[i] != c.value {
			t.Errorf("%s.%s: default %q not in schema enum %v", c.def, c.prop, c.value, vals)
		}
	}
	kinds := defs["network"].(node)["properties"].(node)["inter_node"].(node)["properties"].(node)["kind"].(node)["enum"].([]interface{})
	for k := range spec.Defaults.InterNodeLatencyUs {
		found := false
		for _, v := range kinds {
			found = found || v == k
		}
		if !found {
			t.Errorf("inter_node kind %q has a default latency but is not in the schema enum", k)
		}
	}
}
