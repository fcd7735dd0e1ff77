// Package golden is the one `-update` helper of every golden-file test:
// `go test ./pkg -update` rewrites the files a test compares against, and
// a plain run fails with a diff when they differ. Read every diff you
// accept.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is the flag every package's golden tests share; defining it once
// here keeps one name and one meaning across the module.
var update = flag.Bool("update", false, "rewrite golden files (and generated docs) instead of comparing; review the diff")

// Update reports whether the test run was asked to rewrite golden files.
func Update() bool { return *update }

// Check compares got with the golden file at path. With -update it writes
// got to path (creating directories) and passes.
func Check(t testing.TB, path string, got []byte) {
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
		t.Fatalf("%v (run the test with -update to create it)", err)
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got); if intended, rerun with -update and review the diff:\n%s", path, diff)
	}
}

// CheckDir compares a set of outputs (name relative to dir → content) with
// the golden files in dir, and fails on golden files no output has, so a
// file that stops being produced is noticed. With -update it replaces dir.
func CheckDir(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	for name, got := range files {
		Check(t, filepath.Join(dir, name), got)
	}
	if *update {
		return
	}
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is a golden file no output matches; rerun with -update to remove it", path)
		}
		return nil
	})
}
