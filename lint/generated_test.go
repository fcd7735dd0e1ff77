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
// and lints the whole bundle together — node scripts, manifests, the
// README's code blocks, the hosts table, the marker: what vlaunch writes
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
	launches, readme := 0, false
	for _, f := range b.Files {
		inputs = append(inputs, Input{Name: f.Path, Data: f.Data})
		if strings.HasSuffix(f.Path, ".sh") || strings.HasSuffix(f.Path, ".yaml") {
			launches++
		}
		readme = readme || f.Path == "README.md"
	}
	if launches == 0 || !readme {
		t.Fatalf("bundle has %d scripts or manifests, README %v", launches, readme)
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
