package schemas_test

// The schema is a static file; these tests hold what it states for editors
// (enums, defaults, examples) to the Go code that acts on the values, so the
// two cannot drift. They live in package schemas_test because the Go sets
// are in packages (validate, resolve, generator) that import schemas.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/schemas"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
	"gopkg.in/yaml.v3"
)

type node = map[string]interface{}

func schemaTree(t *testing.T) node {
	t.Helper()
	var s node
	if err := json.Unmarshal(schemas.Deployment, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// docProperty is one property of the schema with the document path it
// describes: "vllm.port", "hardware.nodes[].name",
// "disaggregation.prefill.parallelism.tensor".
type docProperty struct {
	path []string // "[]" stands for every element of a list
	p    node
}

func (d docProperty) String() string {
	return strings.ReplaceAll(strings.Join(d.path, "."), ".[]", "[]")
}

// docProperties walks the schema from its root along $refs, the object
// branch of the string-or-object unions and list items.
func docProperties(t *testing.T) []docProperty {
	root := schemaTree(t)
	defs := root["definitions"].(node)
	deref := func(s node) node {
		for i := 0; i < 8; i++ {
			if ref, ok := s["$ref"].(string); ok {
				s = defs[strings.TrimPrefix(ref, "#/definitions/")].(node)
				continue
			}
			if e, ok := s["else"].(node); ok {
				s = e
				continue
			}
		}
		return s
	}
	var out []docProperty
	var walk func(s node, path []string)
	walk = func(s node, path []string) {
		s = deref(s)
		if items, ok := s["items"].(node); ok {
			walk(items, append(slices.Clone(path), "[]"))
		}
		props, _ := s["properties"].(node)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := props[k].(node)
			sub := append(slices.Clone(path), k)
			out = append(out, docProperty{sub, p})
			walk(p, sub)
		}
	}
	walk(root, nil)
	return out
}

func findProperty(t *testing.T, path string) node {
	t.Helper()
	for _, d := range docProperties(t) {
		if d.String() == path {
			return d.p
		}
	}
	t.Fatalf("no property %s in the schema", path)
	return nil
}

func enumOf(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, v := range findProperty(t, path)["enum"].([]interface{}) {
		out = append(out, v.(string))
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestEnumsAreTheGoSets: every closed set the schema offers an editor is
// the set the Go code acts on, where the Go code has one.
func TestEnumsAreTheGoSets(t *testing.T) {
	latencyKinds := make([]string, 0, len(spec.Defaults.InterNodeLatencyUs))
	for k := range spec.Defaults.InterNodeLatencyUs {
		latencyKinds = append(latencyKinds, k)
	}
	var vendors, intraKinds []string
	for _, g := range catalog.GPUs() {
		vendors = append(vendors, g.Vendor)
		intraKinds = append(intraKinds, g.IntraNodeKind)
	}
	for _, c := range []struct {
		path, source string
		want         []string
	}{
		{"apiVersion", "spec.APIVersion", []string{spec.APIVersion}},
		{"kind", "spec.Kind", []string{spec.Kind}},
		{"runtime.kind", "generator.Runtimes", generator.Runtimes},
		{"hardware.network.inter_node.kind", "spec.Defaults.InterNodeLatencyUs", latencyKinds},
		{"hardware.network.intra_node.kind", "the catalog's GPUs' links", intraKinds},
		{"hardware.gpu.vendor", "the catalog's GPUs' vendors", vendors},
		{"vllm.speculative.method", "resolve.SpecMethods", resolve.SpecMethods},
		{"disaggregation.prefill.vllm.speculative.method", "resolve.SpecMethods", resolve.SpecMethods},
		{"disaggregation.router.kind", "spec.RouterKinds", spec.RouterKinds},
		{"router.kind", "spec.RouterKindVLLM", []string{spec.RouterKindVLLM}},
		{"router.policy", "spec.RouterPolicies", spec.RouterPolicies},
		{"disaggregation.router.policy", "spec.RouterPolicies", spec.RouterPolicies},
		{"workload.api", "spec.APIs", spec.APIs},
	} {
		if got := enumOf(t, c.path); !sameSet(got, c.want) {
			t.Errorf("%s: schema enum %v, %s %v", c.path, got, c.source, c.want)
		}
	}
}

// TestEnumsResolve: the enums without one Go set are checked value by
// value: model.weights and vllm.kv_cache_dtype are values resolve models,
// and every KV-cache dtype is one some vLLM release accepts.
func TestEnumsResolve(t *testing.T) {
	m, err := catalog.LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	int8, err := catalog.LoadHFConfig("../catalog/testdata/hf/llama-3.1-8b-instruct-w8a8-ct.written.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range enumOf(t, "model.weights") {
		ckpt := m
		if w == "int8" {
			ckpt = int8 // int8 only for a checkpoint that ships INT8 W8A8
		}
		if _, err := resolve.ResolveDTypes(ckpt, w, "auto"); err != nil {
			t.Errorf("model.weights %q: %v", w, err)
		}
	}
	var accepted []string
	for _, r := range vllm.Releases() {
		if f, ok := r.Flag("kv-cache-dtype"); ok {
			accepted = append(accepted, f.Choices...)
		}
	}
	for _, path := range []string{"vllm.kv_cache_dtype", "disaggregation.decode.vllm.kv_cache_dtype"} {
		for _, kv := range enumOf(t, path) {
			if _, err := resolve.ResolveDTypes(m, "auto", kv); err != nil {
				t.Errorf("%s %q: %v", path, kv, err)
			}
			if !slices.Contains(accepted, kv) {
				t.Errorf("%s %q: no vLLM release accepts --kv-cache-dtype %s", path, kv, kv)
			}
		}
	}
}

// TestDefaultsAreApplied: every default the schema states is the value
// vlaunch applies when the key is left out. Each example spec, and each as
// a Kubernetes deployment, is validated with the key removed, and the
// spec's value with defaults applied (what `validate --show-defaults`
// prints) must equal the schema's default; every default must be checked
// on some spec.
func TestDefaultsAreApplied(t *testing.T) {
	var defaulted []docProperty
	for _, d := range docProperties(t) {
		if _, ok := d.p["default"]; ok {
			defaulted = append(defaulted, d)
		}
	}
	if len(defaulted) < 15 {
		t.Fatalf("only %d defaults found", len(defaulted))
	}
	files, _ := filepath.Glob("../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("found %d examples", len(files))
	}
	checked := map[string]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, kubernetes := range []bool{false, true} {
			for _, d := range defaulted {
				var doc node
				if err := yaml.Unmarshal(data, &doc); err != nil {
					t.Fatal(err)
				}
				if kubernetes {
					rt, _ := doc["runtime"].(node)
					if rt == nil {
						rt = node{}
					}
					rt["kind"] = "kubernetes"
					doc["runtime"] = rt
				}
				remove(doc, d.path)
				edited, err := yaml.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				r, _, err := validate.Bytes(file, edited)
				if err != nil || r == nil || r.Spec == nil {
					t.Fatalf("%s without %s: %v", file, d, err)
				}
				var values []interface{}
				if d.String() == "parallelism.replicas" {
					// Applied where it is read: Parallelism.ReplicaCount.
					if !r.Spec.Parallelism.Auto && r.Spec.Disaggregation == nil {
						values = []interface{}{r.Spec.Parallelism.ReplicaCount()}
					}
				} else {
					out, err := yaml.Marshal(r.Spec)
					if err != nil {
						t.Fatal(err)
					}
					var applied interface{}
					if err := yaml.Unmarshal(out, &applied); err != nil {
						t.Fatal(err)
					}
					values = lookup(applied, d.path)
				}
				for _, v := range values {
					checked[d.String()]++
					if got, want := jsonText(v), jsonText(d.p["default"]); got != want {
						t.Errorf("%s without %s: vlaunch applies %s, the schema's default is %s", filepath.Base(file), d, got, want)
					}
				}
			}
		}
	}
	for _, d := range defaulted {
		if checked[d.String()] == 0 {
			t.Errorf("%s: the schema's default is applied to no example spec, so it is untested", d)
		}
	}
}

// remove deletes the key at path from doc (at every list element).
func remove(doc interface{}, path []string) {
	switch v := doc.(type) {
	case node:
		if len(path) == 1 {
			delete(v, path[0])
			return
		}
		if sub, ok := v[path[0]]; ok {
			remove(sub, path[1:])
		}
	case []interface{}:
		if path[0] == "[]" {
			for _, e := range v {
				remove(e, path[1:])
			}
		}
	}
}

// lookup returns the values at path (one per list element).
func lookup(doc interface{}, path []string) []interface{} {
	if len(path) == 0 {
		return []interface{}{doc}
	}
	switch v := doc.(type) {
	case node:
		if sub, ok := v[path[0]]; ok {
			return lookup(sub, path[1:])
		}
	case []interface{}:
		if path[0] == "[]" {
			var out []interface{}
			for _, e := range v {
				out = append(out, lookup(e, path[1:])...)
			}
			return out
		}
	}
	return nil
}

func jsonText(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// TestExamplesAreKnown: the examples offered for ids are ids vlaunch knows
// (catalog models and GPUs, vLLM releases, all-to-all backends, KV
// connectors); TestSchemaAnnotationsValidate (cmd/vlaunch) checks each
// against its property's schema.
func TestExamplesAreKnown(t *testing.T) {
	known := map[string]func(string) error{
		"model.name":                        func(s string) error { _, err := catalog.LookupModel(s); return err },
		"vllm.speculative.draft_model.name": func(s string) error { _, err := catalog.LookupModel(s); return err },
		"hardware.gpu":                      func(s string) error { _, err := catalog.LookupGPU(s); return err },
		"vllm.version":                      func(s string) error { _, _, err := vllm.ResolveString(s); return err },
		"vllm.all2all_backend": func(s string) error {
			if _, ok := vllm.KnownBackendEver(s); !ok && s != "auto" {
				return fmt.Errorf("no vLLM release has the all-to-all backend %q", s)
			}
			return nil
		},
		"disaggregation.connector": func(s string) error {
			if _, ok := vllm.KVConnectorNamed(s); !ok {
				return fmt.Errorf("no KV connector %q", s)
			}
			return nil
		},
	}
	for path, check := range known {
		p := findProperty(t, path)
		ex, _ := p["examples"].([]interface{})
		if len(ex) == 0 && path != "vllm.speculative.draft_model.name" {
			t.Errorf("%s: no examples", path)
		}
		for _, e := range ex {
			if err := check(e.(string)); err != nil {
				t.Errorf("%s example %q: %v", path, e, err)
			}
		}
	}
	if !reflect.DeepEqual(findProperty(t, "vllm.all2all_backend")["examples"], findProperty(t, "disaggregation.decode.vllm.all2all_backend")["examples"]) {
		t.Error("a pool's all2all_backend examples differ from vllm's")
	}
}

// TestDescribedDefaults: a default that depends on another key is stated
// in the description rather than as "default"; where it is a table of
// constants, the description holds the table's values.
func TestDescribedDefaults(t *testing.T) {
	d, _ := findProperty(t, "hardware.network.inter_node.latency_us")["description"].(string)
	for kind, us := range spec.Defaults.InterNodeLatencyUs {
		if want := fmt.Sprintf("%s %g", kind, us); !strings.Contains(d, want) {
			t.Errorf("inter_node.latency_us: the description does not state the default %q: %q", want, d)
		}
	}
	if _, ok := findProperty(t, "hardware.network.inter_node.latency_us")["default"]; ok {
		t.Error("inter_node.latency_us states one default, but it depends on the fabric")
	}
	// llm-d's defaults apply with router kind llm-d only.
	for path, want := range map[string]string{
		"disaggregation.router.image":         spec.DefaultLLMDEPPImage,
		"disaggregation.router.sidecar_image": spec.DefaultLLMDSidecarImage,
		"disaggregation.router.decode_port":   fmt.Sprint(spec.DefaultLLMDDecodePort),
		"disaggregation.router.kind":          spec.LLMDRouterRelease,
	} {
		if d, _ := findProperty(t, path)["description"].(string); !strings.Contains(d, want) {
			t.Errorf("%s: the description does not state %q: %q", path, want, d)
		}
	}
	// router.port's default depends on the router kind: the description
	// states it, the schema claims none, and vlaunch applies it with the
	// vLLM router only.
	port := findProperty(t, "disaggregation.router.port")
	if _, ok := port["default"]; ok {
		t.Error("disaggregation.router.port states one default, but llm-d's router has no port")
	}
	if d, _ := port["description"].(string); !strings.Contains(d, fmt.Sprintf("Default: %d with %s", spec.DefaultRouterPort, spec.RouterKindVLLM)) {
		t.Errorf("disaggregation.router.port: the description does not state the vLLM router's default: %q", d)
	}
	for kind, want := range map[string]int{spec.RouterKindVLLM: spec.DefaultRouterPort, spec.RouterKindLLMD: 0} {
		data, err := os.ReadFile("../examples/gpt-oss-120b-pd-2x8h100.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var doc node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		doc["disaggregation"].(node)["router"] = node{"kind": kind}
		doc["runtime"].(node)["kind"] = "kubernetes"
		edited, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := validate.Bytes("router-port.yaml", edited)
		if err != nil || r == nil || r.Spec == nil || r.Spec.Disaggregation == nil {
			t.Fatalf("router kind %s without a port: %v", kind, err)
		}
		if got := r.Spec.Disaggregation.Router.Port; got != want {
			t.Errorf("router kind %s without a port: vlaunch applies %d, want %d", kind, got, want)
		}
	}
}
