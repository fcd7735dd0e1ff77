package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// FuzzValidate feeds arbitrary bytes through the whole pipeline (parse,
// convert, schema, decode, defaults, semantic rules). It must never panic,
// and unusable input must always come with at least one diagnostic.
func FuzzValidate(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/*.yaml")
	fixtures, _ := filepath.Glob("testdata/specs/*/*.yaml")
	seeds = append(append(seeds, "testdata/base.yaml"), fixtures...)
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"", "{}", "[]", "a: [", "\x00", "apiVersion: vlaunch/v1\nparallelism: 8\n",
		"a: &a [*a]", "a: &a {b: 1}\nc: {<<: *a, <<: [*a, *a]}\n", "? [a]\n: b\n", "model: {name: .nan}\n",
		"hardware: {gpu: [1], nodes: [{gpus: 1e400}]}\n", "vllm: {env: {\"\": \"\\0\"}}\n", "--- a\n--- b\n",
		"hardware:\n  nodes: &n [{name: a, address: 127.0.0.1, gpus: 3}, *n]\n",
		"kind: a\nkind: b\n", "a:\n\tb: 1\n", "a: \x07\n", "a: *nope\n", "model: {name: x\n", "a: [" + strings.Repeat("1,", 100) + "1]\n",
		"workload: {concurrency: 1000000000, arrival_rate_per_s: 1e308, max_model_len: 99999999999}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, ds, err := Bytes("fuzz.yaml", data)
		if err != nil && len(ds) == 0 {
			t.Fatalf("unusable input without a diagnostic: %v", err)
		}
		if err != nil && !IsUnusable(err) {
			t.Fatalf("error is not marked unusable: %v", err)
		}
		for _, x := range ds {
			if x.Code == "" || x.Severity == 0 || x.Message == "" {
				t.Fatalf("incomplete diagnostic %+v", x)
			}
		}
		if d != nil {
			_, _ = d.Spec.Pos("hardware", "nodes", "0", "name")
			spec.ApplyDefaults(d.Spec) // idempotent on an already defaulted spec
			if !ds.HasErrors() && (d.Model == nil || d.GPU == nil || d.Engine.MaxModelLen.Value <= 0) {
				t.Fatalf("no error, but the deployment is not resolved: %+v", d)
			}
		}
	})
}
