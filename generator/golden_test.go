package generator

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files")

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
			files := append(b.Files, File{Path: "diagnostics", Data: []byte(diags.String())})
			if *update {
				os.RemoveAll(dir)
			}
			for _, f := range files {
				compareGolden(t, filepath.Join(dir, f.Path+".golden"), f.Data)
			}
			if !*update {
				entries, _ := os.ReadDir(dir)
				if len(entries) != len(files) {
					t.Errorf("%s holds %d goldens, the bundle has %d files", dir, len(entries), len(files))
				}
			}
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./generator -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./generator -update and review the diff\n--- got ---\n%s", path, got)
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
