// Package testinput builds estimator inputs for the tests of package
// estimate and its subpackages: the embedded example specs and the quick
// form, failing the test when one does not resolve.
package testinput

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// Example resolves the embedded example spec name (with or without .yaml).
func Example(tb testing.TB, name string) input.Input {
	tb.Helper()
	data, ok := examples.Read(name)
	if !ok {
		tb.Fatalf("no example %s", name)
	}
	root, ds := spec.ParseNode(name, data)
	if ds.HasErrors() {
		tb.Fatalf("parse %s: %v", name, ds)
	}
	d, ds := spec.Decode(name, root)
	if ds.HasErrors() {
		tb.Fatalf("decode %s: %v", name, ds)
	}
	spec.ApplyDefaults(d)
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
