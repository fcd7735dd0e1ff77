package examples

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
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

// TestCompanions: every directory beside the examples is embedded and
// belongs to the example whose model.config lies in it, and an example
// reading a config.json carries it (and the hf_quant_config.json beside
// it, when the directory on disk has one) among its companions, byte for
// byte as on disk.
func TestCompanions(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	for ex, dir := range companionDirs {
		owner[dir] = ex
	}
	for _, e := range entries {
		if e.IsDir() && owner[e.Name()] == "" {
			t.Errorf("directory %s belongs to no example (companionDirs) and is not embedded", e.Name())
		}
	}
	withConfig := 0
	for _, n := range Names() {
		data, _ := Read(n)
		root, _ := spec.ParseNode(n, data)
		d, _ := spec.Decode(n, root)
		comp := map[string][]byte{}
		for _, f := range Companions(n) {
			comp[f.Path] = f.Data
		}
		if d.Model.Config == "" {
			if len(comp) > 0 {
				t.Errorf("%s: companions %v but no model.config", n, comp)
			}
			continue
		}
		withConfig++
		if dir := companionDirs[n]; path.Dir(d.Model.Config) != dir {
			t.Errorf("%s: model.config %s is not in its companion directory %q", n, d.Model.Config, dir)
		}
		want := []string{d.Model.Config}
		if q := path.Join(path.Dir(d.Model.Config), "hf_quant_config.json"); fileExists(q) {
			want = append(want, q)
		}
		if len(comp) != len(want) {
			t.Errorf("%s: %d companions, want %v", n, len(comp), want)
		}
		for _, w := range want {
			disk, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(comp[w], disk) {
				t.Errorf("%s: companion %s differs from the file on disk (or is missing)", n, w)
			}
		}
	}
	if withConfig < 2 {
		t.Errorf("%d examples read a config.json; want the NVFP4 and the Kimi-K2.5 ones", withConfig)
	}
	if got := Companions("qwen3-30b-a3b-1xh100"); got != nil {
		t.Errorf("an example without model.config has companions %v", got)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestWriteFiles: the spec and its companions land at the paths the spec
// names, nothing is written when any target exists (unless force) or is a
// directory, and force replaces them all.
func TestWriteFiles(t *testing.T) {
	const name = "deepseek-v3.1-nvfp4-4xb200"
	dir := t.TempDir()
	specPath := filepath.Join(dir, "a", "spec.yaml")
	written, err := WriteFiles(specPath, []byte("spec\n"), name, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{specPath, filepath.Join(dir, "a", "deepseek-v3.1-nvfp4", "config.json"), filepath.Join(dir, "a", "deepseek-v3.1-nvfp4", "hf_quant_config.json")}
	if strings.Join(written, "|") != strings.Join(want, "|") {
		t.Fatalf("written %v, want %v", written, want)
	}
	for _, f := range Companions(name) {
		got, err := os.ReadFile(filepath.Join(dir, "a", f.Path))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: not written as embedded (%v)", f.Path, err)
		}
	}
	// One existing companion refuses the whole write: the spec is not written.
	os.Remove(specPath)
	if err := os.WriteFile(want[2], []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(specPath, []byte("spec\n"), name, false); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), want[2]) {
		t.Errorf("existing companion: err %v, want ErrExists naming %s", err, want[2])
	}
	if fileExists(specPath) {
		t.Error("the spec was written although a companion exists")
	}
	if got, _ := os.ReadFile(want[2]); string(got) != "mine" {
		t.Error("an existing file was replaced without force")
	}
	if _, err := WriteFiles(specPath, []byte("spec2\n"), name, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(specPath); string(got) != "spec2\n" {
		t.Errorf("force: spec %q", got)
	}
	if got, _ := os.ReadFile(want[2]); string(got) == "mine" {
		t.Error("force did not replace the companion")
	}
	// A directory in a file's place: refused even with force, nothing written.
	clash := filepath.Join(dir, "b")
	if err := os.MkdirAll(filepath.Join(clash, "deepseek-v3.1-nvfp4", "config.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(filepath.Join(clash, "spec.yaml"), []byte("x"), name, true); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory clash: err %v", err)
	}
	if fileExists(filepath.Join(clash, "spec.yaml")) {
		t.Error("spec written despite the clash")
	}
	// No temporary files are left behind.
	for _, d := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "deepseek-v3.1-nvfp4"), clash} {
		es, _ := os.ReadDir(d)
		for _, e := range es {
			if strings.HasPrefix(e.Name(), ".vlaunch-init-") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}
