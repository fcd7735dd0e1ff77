package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateDryRunRefusesLikeTheRun: `generate --dry-run --out-dir DIR`
// refuses a DIR the real run refuses — a non-empty directory vlaunch did
// not write, with or without --force, a file — with the same message and
// exit code (2), and writes nothing; a new or empty DIR is fine (QA38 #3).
func TestGenerateDryRunRefusesLikeTheRun(t *testing.T) {
	spec := filepath.Join("..", "..", "examples", "qwen3-30b-a3b-1xh100.yaml")
	tmp := t.TempDir()
	notBundle := filepath.Join(tmp, "mine")
	if err := os.MkdirAll(notBundle, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notBundle, "notes.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aFile := filepath.Join(tmp, "file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	exec := func(args ...string) (int, string) {
		var out, errw bytes.Buffer
		code := run(append([]string{"generate", spec}, args...), strings.NewReader(""), &out, &errw)
		return code, errw.String()
	}
	for _, tc := range []struct {
		dir   string
		flags []string
	}{
		{notBundle, nil}, {notBundle, []string{"--force"}}, {aFile, nil},
	} {
		args := append([]string{"--out-dir", tc.dir}, tc.flags...)
		realCode, realErr := exec(args...)
		dryCode, dryErr := exec(append(args, "--dry-run")...)
		if realCode != 2 || dryCode != realCode {
			t.Errorf("%s %v: exit %d, dry run %d; want 2 for both", tc.dir, tc.flags, realCode, dryCode)
		}
		if lastLine(dryErr) != lastLine(realErr) || lastLine(realErr) == "" {
			t.Errorf("%s %v: dry run says %q, the run %q", tc.dir, tc.flags, lastLine(dryErr), lastLine(realErr))
		}
	}
	if entries, _ := os.ReadDir(notBundle); len(entries) != 1 {
		t.Errorf("%s changed: %d entries", notBundle, len(entries))
	}
	fresh := filepath.Join(tmp, "new")
	if code, errs := exec("--out-dir", fresh, "--dry-run"); code != 0 {
		t.Errorf("dry run into a new directory: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("dry run created %s", fresh)
	}
}

// lastLine is the last non-empty line of s (the refusal, after any
// findings printed before it).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
