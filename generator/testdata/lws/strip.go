//go:build ignore

// strip extracts the v1 openAPIV3Schema from the LeaderWorkerSet CRD and
// drops the descriptions (most of its size), so the schema can be vendored
// for offline validation:
//
//	git -C lws show v0.10.0:config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml |
//	  go run generator/testdata/lws/strip.go > generator/testdata/lws/leaderworkerset-v1-v0.10.0.schema.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

func main() {
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string
				Schema struct {
					OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
				}
			}
		}
	}
	if err := yaml.NewDecoder(os.Stdin).Decode(&crd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == "v1" {
			out, err := json.Marshal(strip(v.Schema.OpenAPIV3Schema))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Stdout.Write(append(out, '\n'))
			return
		}
	}
	fmt.Fprintln(os.Stderr, "no v1 schema")
	os.Exit(1)
}

// strip removes "description" from every schema object. A property that
// is itself named "description" (under "properties") is kept.
func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "description" {
				if _, isSchema := e.(string); isSchema {
					continue
				}
			}
			out[k] = strip(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = strip(x[i])
		}
	}
	return v
}
