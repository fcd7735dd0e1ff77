package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A directory with more launch files than one deployment could hold ends
// with a clear error instead of reading them all.
func TestLintDirBounded(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i <= maxDirFiles; i++ {
		name := filepath.Join(dir, fmt.Sprintf("n%04d.sh", i))
		if err := os.WriteFile(name, []byte("vllm serve m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := readInputs([]string{dir}, false, io.Discard)
	if !errors.Is(err, errDirTooBig) {
		t.Fatalf("err = %v, want errDirTooBig", err)
	}
}

// Symbolic links and special files under a directory are not followed: a
// link could lead out of the directory (or to /dev/zero).
func TestLintDirSkipsLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "node0.sh"), []byte("vllm serve m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.sh")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	inputs, _, err := readInputs([]string{dir}, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 1 || filepath.Base(inputs[0].Name) != "node0.sh" {
		t.Fatalf("inputs = %v, want node0.sh alone", inputs)
	}
}
