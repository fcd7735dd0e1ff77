package examples

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestExamplesLoad checks every embedded example parses and decodes; the
// validate package and the CLI tests check them in depth.
func TestExamplesLoad(t *testing.T) {
	names := Names()
	if len(names) < 4 {
		t.Fatalf("want at least 4 examples, got %v", names)
	}
	for _, n := range names {
		data, ok := Read(n)
		if !ok {
			t.Fatalf("%s: not readable", n)
		}
		root, ds := spec.ParseNode(n, data)
		if ds.HasErrors() {
			t.Fatalf("%s: %v", n, ds)
		}
		d, ds := spec.Decode(n, root)
		if ds.HasErrors() {
			t.Fatalf("%s: %v", n, ds)
		}
		if d.Metadata.Name != n {
			t.Errorf("%s: metadata.name %q should match the file name", n, d.Metadata.Name)
		}
	}
}
