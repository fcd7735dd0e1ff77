package generator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

// kubeSchemas are the vendored schemas (testdata/lws/README.md, and
// testdata/llmd/README.md for llm-d.yaml's kinds), compiled once.
var kubeSchemas = sync.OnceValues(func() (map[string]*gojsonschema.Schema, error) {
	svc, err := readJSON(filepath.Join("testdata", "lws", "service-v1.schema.json"))
	if err != nil {
		return nil, err
	}
	lws, err := readJSON(filepath.Join("testdata", "lws", "leaderworkerset-v1-v0.10.0.schema.json"))
	if err != nil {
		return nil, err
	}
	strict(lws)
	defs := svc["definitions"].(map[string]any)
	props := lws["properties"].(map[string]any)
	props["metadata"] = defs["objectMeta"]
	props["apiVersion"] = map[string]any{"const": "leaderworkerset.x-k8s.io/v1"}
	props["kind"] = map[string]any{"const": "LeaderWorkerSet"}
	lws["required"] = []any{"apiVersion", "kind", "metadata", "spec"}
	lws["definitions"] = defs
	tpl := props["spec"].(map[string]any)["properties"].(map[string]any)["leaderWorkerTemplate"].(map[string]any)["properties"].(map[string]any)
	for _, role := range []string{"leaderTemplate", "workerTemplate"} {
		tpl[role].(map[string]any)["properties"].(map[string]any)["metadata"] = map[string]any{"$ref": "#/definitions/templateMeta"}
	}
	kinds := map[string]map[string]any{"LeaderWorkerSet": lws, "Service": svc}
	podSpec := tpl["workerTemplate"].(map[string]any)["properties"].(map[string]any)["spec"]
	if err := addLLMDSchemas(kinds, defs, podSpec); err != nil {
		return nil, err
	}
	out := map[string]*gojsonschema.Schema{}
	for kind, s := range kinds {
		if out[kind], err = gojsonschema.NewSchema(gojsonschema.NewGoLoader(s)); err != nil {
			return nil, err
		}
	}
	if out["ComputeDomain"], err = computeDomainSchema(svc["definitions"].(map[string]any)); err != nil {
		return nil, err
	}
	return out, nil
})

// computeDomainSchema is NVIDIA's DRA driver's ComputeDomain CRD schema
// (testdata/computedomain/README.md), strict as the LeaderWorkerSet's, with
// the ObjectMeta rules on its metadata.
func computeDomainSchema(defs map[string]any) (*gojsonschema.Schema, error) {
	cd, err := readJSON(filepath.Join("testdata", "computedomain", "computedomain-v1beta1.schema.json"))
	if err != nil {
		return nil, err
	}
	strict(cd)
	props := cd["properties"].(map[string]any)
	props["metadata"] = defs["objectMeta"]
	props["apiVersion"] = map[string]any{"const": "resource.nvidia.com/v1beta1"}
	props["kind"] = map[string]any{"const": "ComputeDomain"}
	cd["required"] = []any{"apiVersion", "kind", "metadata", "spec"}
	cd["definitions"] = defs
	return gojsonschema.NewSchema(gojsonschema.NewGoLoader(cd))
}

func readJSON(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

// strict makes every object schema that lists its properties reject
// unknown fields, as kubectl's default (strict) field validation does,
// unless the schema preserves unknown fields or says what extra keys hold.
func strict(v any) {
	switch x := v.(type) {
	case map[string]any:
		_, props := x["properties"]
		_, extra := x["additionalProperties"]
		_, preserve := x["x-kubernetes-preserve-unknown-fields"]
		if props && !extra && !preserve {
			x["additionalProperties"] = false
		}
		for _, e := range x {
			strict(e)
		}
	case []any:
		for _, e := range x {
			strict(e)
		}
	}
}

// checkKubeSchema validates every document of a manifest against the
// vendored schema of its kind.
func checkKubeSchema(t *testing.T, name string, manifest []byte) {
	t.Helper()
	if errs := schemaErrors(t, manifest); errs != "" {
		t.Errorf("%s does not pass the Kubernetes schemas: %s", name, errs)
	}
}

// TestLWSSchemaCatchesMistakes: the check can fail — misspelt, misplaced
// and mistyped fields are reported.
func TestLWSSchemaCatchesMistakes(t *testing.T) {
	b, _ := generate(t, "reference", "kubernetes")
	good := string(fileData(t, b, "lws.yaml"))
	for _, tt := range []struct{ from, to, want string }{
		{"restartPolicy: RecreateGroupOnPodRestart", "restartPolicy: Sometimes", "restartPolicy"},
		{"size: 4", "size: four", "size"},
		{"hostNetwork: true", "hostNetwork: true\n        hostNetworking: true", "hostNetworking"},
		{"            readinessProbe:", "            readynessProbe:", "readynessProbe"},
		{"medium: Memory", "medium: Memory\n              sizeLimt: 1Gi", "sizeLimt"},
		{"name: \"deepseek-v3-32xh20\"\n  namespace", "name: \"DeepSeek_V3\"\n  namespace", "name"},
		{"      port: 8000\n      targetPort: 8000", "      port: 80000\n      targetPort: 8000", "port"},
	} {
		bad := strings.Replace(good, tt.from, tt.to, 1)
		if bad == good {
			t.Fatalf("%q not found in the manifest", tt.from)
		}
		errs := schemaErrors(t, []byte(bad))
		if !strings.Contains(errs, tt.want) {
			t.Errorf("%q -> %q: want an error naming %s, got %q", tt.from, tt.to, tt.want, errs)
		}
	}
	if errs := schemaErrors(t, []byte(good)); errs != "" {
		t.Errorf("the generated manifest fails its schema: %s", errs)
	}
}

// schemaErrors returns every schema error of a manifest, joined.
func schemaErrors(t *testing.T, manifest []byte) string {
	t.Helper()
	schemas, err := kubeSchemas()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	dec := yaml.NewDecoder(bytes.NewReader(manifest))
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err.Error()
		}
		kind, _ := doc["kind"].(string)
		s, ok := schemas[kind]
		if !ok {
			out = append(out, "kind "+kind+" has no vendored schema")
			continue
		}
		res, err := s.Validate(gojsonschema.NewGoLoader(doc))
		if err != nil {
			return err.Error()
		}
		for _, e := range res.Errors() {
			out = append(out, e.String())
		}
	}
	return strings.Join(out, "; ")
}
