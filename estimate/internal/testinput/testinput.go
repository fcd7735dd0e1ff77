// Package testinput builds estimator inputs for the tests of package
// estimate and its subpackages: the embedded example specs and the quick
// form, failing the test when one does not resolve.
package testinput

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// Example resolves the embedded example spec name (with or without .yaml).
func Example(tb testing.TB, name string) input.Input {
	tb.Helper()
	d := ExampleSpec(tb, name)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		tb.Fatalf("resolve %s: %v", name, ds)
	}
	return in
}

// Quick resolves the quick form of `vlaunch check`.
func Quick(tb testing.TB, o resolve.QuickOptions) *input.Input {
	tb.Helper()
	in, ds := input.Quick(o)
	if ds.HasErrors() {
		tb.Fatalf("quick form %+v: %v", o, ds)
	}
	return &in
}

// ExampleSpec is the embedded example spec name loaded and defaulted, for
// tests that edit it before resolving (input.FromSpec).
func ExampleSpec(tb testing.TB, name string) *spec.Deployment {
	tb.Helper()
	data, ok := examples.Read(name)
	if !ok {
		tb.Fatalf("no example %s", name)
	}
	d := decode(tb, name, data)
	// The spec's relative paths (model.config) resolve against the
	// example's directory, where its companion files are.
	d.File = filepath.Join(examplesDir(), name+".yaml")
	spec.ApplyDefaults(d)
	return d
}

// FromYAML resolves a spec a test writes as YAML text (name: its file name
// in messages), parsed, decoded and defaulted as `vlaunch check` does.
func FromYAML(tb testing.TB, name, y string) input.Input {
	tb.Helper()
	d := decode(tb, name, []byte(y))
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		tb.Fatalf("resolve %s: %v\n%s", name, ds, y)
	}
	return in
}

// decode parses and decodes a spec, failing the test on an error.
func decode(tb testing.TB, name string, data []byte) *spec.Deployment {
	tb.Helper()
	root, ds := spec.ParseNode(name, data)
	if ds.HasErrors() {
		tb.Fatalf("parse %s: %v\n%s", name, ds, data)
	}
	d, ds := spec.Decode(name, root)
	if ds.HasErrors() {
		tb.Fatalf("decode %s: %v\n%s", name, ds, data)
	}
	return d
}

// examplesDir is the repository's examples directory, found from this
// file's path.
func examplesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "examples")
}

// Pools are the prefill and decode pools' inputs of a resolved
// disaggregated deployment (input.FromResolved of each role).
func Pools(tb testing.TB, d *resolve.Deployment) (pre, dec input.Input) {
	tb.Helper()
	if d == nil || d.PD == nil || len(d.PD.Roles) != 2 {
		tb.Fatal("not a disaggregated deployment")
	}
	return input.FromResolved(d.PD.Roles[0].Deployment), input.FromResolved(d.PD.Roles[1].Deployment)
}
