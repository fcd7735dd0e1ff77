package generator

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listDir names the entries of dir, sorted, for comparing what is left.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteFreshEmptyAndRefusals(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	parent := t.TempDir()
	dir := filepath.Join(parent, "bundle")
	if err := b.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "node0.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("node0.sh: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, MarkerFile)); err != nil {
		t.Fatalf("bundle has no marker: %v", err)
	}
	if err := b.Write(dir, false); !errors.Is(err, ErrTargetNotEmpty) {
		t.Fatalf("second write without force: %v, want ErrTargetNotEmpty", err)
	}
	empty := filepath.Join(parent, "empty")
	os.Mkdir(empty, 0o755)
	if err := b.Write(empty, false); err != nil {
		t.Errorf("an empty target must be accepted: %v", err)
	}
	if got := listDir(t, parent); got != "bundle empty" {
		t.Errorf("left in the parent: %s", got)
	}
}

// TestForceReplacesOnlyBundles: --force never deletes a directory that
// vlaunch did not write, and refuses before writing anything.
func TestForceReplacesOnlyBundles(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  error
	}{
		{"unrelated files", func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "thesis.tex"), "precious") }, ErrNotABundle},
		{"marker is a directory", func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, MarkerFile), 0o755) }, ErrNotABundle},
		{"bundle nobody may empty", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, MarkerFile), "x")
			checkRemovable = func(string) error { return errors.New("permission denied") }
			t.Cleanup(func() { checkRemovable = removable })
		}, ErrCannotReplace},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			os.Mkdir(dir, 0o755)
			tt.setup(t, dir)
			before := listDir(t, dir)
			err := b.Write(dir, true)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if after := listDir(t, dir); after != before {
				t.Errorf("target changed: %q -> %q", before, after)
			}
			if got := listDir(t, parent); got != "out" {
				t.Errorf("left in the parent: %s", got)
			}
		})
	}
}

func TestForceReplacesBundleWhole(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	parent := t.TempDir()
	dir := filepath.Join(parent, "bundle")
	if err := b.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "stale.txt"), "x")
	os.MkdirAll(filepath.Join(dir, "logs", "deep"), 0o755)
	if err := b.Write(dir, true); err != nil {
		t.Fatal(err)
	}
	if got, want := listDir(t, dir), ".vlaunch-bundle README.md hosts node0.sh"; got != want {
		t.Errorf("--force must replace the directory, not merge: got %q, want %q", got, want)
	}
	if got := listDir(t, parent); got != "bundle" {
		t.Errorf("temporary directories left behind: %s", got)
	}
}

// TestForceUnwritableBundle uses real permissions (root ignores them).
func TestForceUnwritableBundle(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may delete anything; the hook-based case covers the logic")
	}
	b, _ := generate(t, "single-node-ep", "")
	parent := t.TempDir()
	dir := filepath.Join(parent, "bundle")
	if err := b.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	os.Mkdir(locked, 0o755)
	writeFile(t, filepath.Join(locked, "f"), "x")
	os.Chmod(locked, 0o555)
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if err := b.Write(dir, true); !errors.Is(err, ErrCannotReplace) || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("got %v, want ErrCannotReplace naming the directory", err)
	}
	if got := listDir(t, parent); got != "bundle" {
		t.Errorf("left in the parent: %s", got)
	}
}

// TestReplaceFailures: when the swap or the deletion fails, the outcome is
// either the old bundle untouched or the new one complete with the
// leftover named — never a silent half state.
func TestReplaceFailures(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	setup := func(t *testing.T) (parent, dir string) {
		parent = t.TempDir()
		dir = filepath.Join(parent, "bundle")
		if err := b.Write(dir, false); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "old-only"), "x")
		return parent, dir
	}
	t.Run("new bundle cannot move in", func(t *testing.T) {
		parent, dir := setup(t)
		calls := 0
		rename = func(from, to string) error {
			calls++
			if calls == 2 { // tmp -> dir
				return errors.New("injected")
			}
			return os.Rename(from, to)
		}
		t.Cleanup(func() { rename = os.Rename })
		if err := b.Write(dir, true); err == nil {
			t.Fatal("want an error")
		}
		if _, err := os.Stat(filepath.Join(dir, "old-only")); err != nil {
			t.Errorf("the old bundle must be back in place: %v", err)
		}
		if got := listDir(t, parent); got != "bundle" {
			t.Errorf("left in the parent: %s", got)
		}
	})
	t.Run("old bundle cannot be deleted", func(t *testing.T) {
		parent, dir := setup(t)
		removeAll = func(p string) error {
			if strings.HasSuffix(p, ".old") {
				return errors.New("injected")
			}
			return os.RemoveAll(p)
		}
		t.Cleanup(func() { removeAll = os.RemoveAll })
		err := b.Write(dir, true)
		var le *LeftoverError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), le.Path) {
			t.Fatalf("got %v, want a LeftoverError naming the path", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "old-only")); !os.IsNotExist(err) {
			t.Error("the new bundle must be in place")
		}
		if got, want := strings.Fields(listDir(t, parent)), []string{filepath.Base(le.Path), "bundle"}; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("only the named leftover may remain: %s", got)
		}
	})
}

func TestWriteRefusesSymlinkAndFile(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	os.Mkdir(real, 0o755)
	link := filepath.Join(parent, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := b.Write(link, true); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlink target: %v", err)
	}
	file := filepath.Join(parent, "file")
	writeFile(t, file, "x")
	if err := b.Write(file, true); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file target: %v", err)
	}
}
