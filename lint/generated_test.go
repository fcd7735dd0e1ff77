package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// TestGeneratedBundlesLintClean generates every example for every runtime
// and lints the node scripts and manifests together: what vlaunch writes
// must not trip vlaunch's own linter (no warnings or errors).
func TestGeneratedBundlesLintClean(t *testing.T) {
	examples, _ := filepath.Glob("../examples/*.yaml")
	for _, ex := range examples {
		for _, rt := range generator.Runtimes {
			t.Run(filepath.Base(ex)+"/"+rt, func(t *testing.T) {
				r, ds, err := validate.File(ex)
				if err != nil || ds.HasErrors() {
					t.Fatal(err, ds)
				}
				b, gds := generator.Generate(r, generator.Options{Runtime: rt})
				if gds.HasErrors() || b == nil {
					t.Skipf("not generated: %v", gds)
				}
				lintBundle(t, r.Spec, b)
			})
		}
	}
}

func lintBundle(t *testing.T, d *spec.Deployment, b *generator.Bundle) {
	var inputs []Input
	for _, f := range b.Files {
		if strings.HasSuffix(f.Path, ".sh") || strings.HasSuffix(f.Path, ".yaml") {
			inputs = append(inputs, Input{Name: f.Path, Data: f.Data})
		}
	}
	if len(inputs) == 0 {
		t.Fatal("bundle has no scripts or manifests")
	}
	ds, err := Lint(inputs, Options{Spec: d, Capacity: testCapacity})
	if err != nil {
		t.Fatal(err)
	}
	for _, dg := range ds {
		if dg.Severity >= diag.Warning {
			t.Errorf("%s", dg)
		}
	}
}
