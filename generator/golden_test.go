package generator

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/spec"
)

// goldenCases: every case renders testdata/<spec>/spec.yaml with a runtime
// and compares each file with testdata/golden/<name>/<file>.golden.
var goldenCases = []struct {
	name, spec, runtime string
}{
	{"reference-bare", "reference", "bare"},
	{"reference-docker", "reference", "docker"},
	{"reference-kubernetes", "reference", "kubernetes"},
	{"single-node-ep", "single-node-ep", ""},
	{"tp-pp-nnodes", "tp-pp-nnodes", ""},
	{"tp-pp-ray", "tp-pp-ray", ""},
	{"tp-pp-ray-docker", "tp-pp-ray", "docker"},
	{"dp-ep-0.10.1", "dp-ep-0.10.1", ""},
	{"dp-ep-0.11.1", "dp-ep-0.11.1", ""},
	{"ethernet-docker", "ethernet", ""},
}

// loadSpec reads and defaults a fixture.
func loadSpec(t *testing.T, dir string) *spec.Deployment {
	t.Helper()
	d, ds := spec.Load(filepath.Join("testdata", dir, "spec.yaml"))
	if ds.HasErrors() {
		t.Fatalf("load %s: %v", dir, ds)
	}
	spec.ApplyDefaults(d)
	return d
}

func generate(t *testing.T, specDir, runtime string) (*Bundle, diag.Diagnostics) {
	t.Helper()
	b, ds := gen(t, loadSpec(t, specDir), Options{Runtime: runtime, Summary: ""})
	if ds.HasErrors() {
		t.Fatalf("generate %s: %v", specDir, ds)
	}
	return b, ds
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			b, ds := generate(t, tc.spec, tc.runtime)
			dir := filepath.Join("testdata", "golden", tc.name)
			var diags strings.Builder
			for _, d := range ds {
				diags.WriteString(d.String() + "\n")
			}
			files := map[string][]byte{"diagnostics.golden": []byte(diags.String())}
			for _, f := range b.Files {
				files[f.Path+".golden"] = f.Data
			}
			golden.CheckDir(t, dir, files)
		})
	}
}

// fileData is the content of one bundle file; a missing file fails the test.
func fileData(t *testing.T, b *Bundle, path string) []byte {
	t.Helper()
	f, ok := b.File(path)
	if !ok {
		t.Fatalf("the bundle has no %s", path)
	}
	return f.Data
}
