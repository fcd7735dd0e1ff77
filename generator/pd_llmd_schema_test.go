package generator

import "path/filepath"

// addLLMDSchemas adds the kinds llm-d.yaml writes (testdata/llmd/README.md):
// the InferencePool and HTTPRoute CRDs' v1 schemas, made strict, and the
// hand-written core kinds, whose Deployment runs the LeaderWorkerSet CRD's
// PodSpec. defs are the shared metadata rules.
func addLLMDSchemas(kinds map[string]map[string]any, defs map[string]any, podSpec any) error {
	for kind, crd := range map[string]struct{ file, apiVersion string }{
		"InferencePool": {"inferencepool-v1-gaie-v1.5.0.schema.json", "inference.networking.k8s.io/v1"},
		"HTTPRoute":     {"httproute-v1-gateway-api-v1.5.1.schema.json", "gateway.networking.k8s.io/v1"},
	} {
		s, err := readJSON(filepath.Join("testdata", "llmd", crd.file))
		if err != nil {
			return err
		}
		strict(s)
		props := s["properties"].(map[string]any)
		props["metadata"] = defs["objectMeta"]
		props["apiVersion"] = map[string]any{"const": crd.apiVersion}
		props["kind"] = map[string]any{"const": kind}
		s["required"] = []any{"apiVersion", "kind", "metadata", "spec"}
		s["definitions"] = defs
		kinds[kind] = s
	}
	core, err := readJSON(filepath.Join("testdata", "llmd", "core.schema.json"))
	if err != nil {
		return err
	}
	all := map[string]any{"podSpec": podSpec}
	for k, v := range defs {
		all[k] = v
	}
	for kind, s := range core["definitions"].(map[string]any) {
		all[kind] = s
	}
	for kind := range core["definitions"].(map[string]any) {
		kinds[kind] = map[string]any{"$ref": "#/definitions/" + kind, "definitions": all}
	}
	return nil
}
