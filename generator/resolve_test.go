package generator

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"gopkg.in/yaml.v3"
)

// resolved resolves a (possibly edited) fixture spec the way validate
// would, without validate's rules: generator unit tests exercise layouts
// validate would refuse.
func resolved(t *testing.T, d *spec.Deployment) *resolve.Deployment {
	t.Helper()
	r, err := resolve.FromSpec(d)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	return r
}

// gen resolves d and generates its bundle.
func gen(t *testing.T, d *spec.Deployment, opt Options) (*Bundle, diag.Diagnostics) {
	t.Helper()
	return Generate(resolved(t, d), opt)
}

// plan resolves d and makes its plan.
func plan(t *testing.T, d *spec.Deployment, runtime string) (*Plan, diag.Diagnostics) {
	t.Helper()
	return MakePlan(resolved(t, d), runtime)
}

// validated runs an edited spec through validate, as `vlaunch generate`
// does (the struct is written back to YAML first), and generates it when
// validate finds no error: the path hostile input takes.
func validated(t *testing.T, d *spec.Deployment, opt Options) (*Bundle, diag.Diagnostics) {
	t.Helper()
	data, err := yaml.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	r, ds, err := validate.Bytes(d.File, data)
	if err != nil || ds.HasErrors() {
		return nil, ds
	}
	b, gds := Generate(r, opt)
	return b, append(ds, gds...)
}
