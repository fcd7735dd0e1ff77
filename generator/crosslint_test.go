package generator

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint"
)

// TestBundlesPassLint runs vlaunch's own linter over every generated bundle:
// the generator and the linter share package vllm, so a generated bundle
// with a lint error means one of them is wrong.
func TestBundlesPassLint(t *testing.T) {
	for _, tc := range goldenCases {
		for _, rt := range Runtimes {
			d := loadSpec(t, tc.spec)
			b, ds := gen(t, d, Options{Runtime: rt})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			var in []lint.Input
			for _, f := range b.Files {
				if f.Path != "README.md" && f.Path != "hosts" && f.Path != MarkerFile {
					in = append(in, lint.Input{Name: f.Path, Data: f.Data})
				}
			}
			got, err := lint.Lint(in, lint.Options{Spec: d})
			if err != nil {
				t.Fatalf("%s/%s: %v", tc.name, rt, err)
			}
			for _, g := range got {
				if g.Severity >= diag.Warning {
					t.Logf("%s/%s: %s", tc.name, rt, g)
				}
			}
			if got.HasErrors() {
				t.Errorf("%s/%s: lint reports errors on a generated bundle", tc.name, rt)
			}
		}
	}
}
