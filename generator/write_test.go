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

// TestForceReplacesOnlyWhatItWrote (qa45c F1): --force replaces a bundle
// only while it holds the files the marker's manifest lists, unchanged;
// anything else is named and nothing is touched.
func TestForceReplacesOnlyWhatItWrote(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	for _, tt := range []struct {
		name          string
		change        func(t *testing.T, dir string)
		foreign, edit string
	}{
		{"clean re-generate", func(*testing.T, string) {}, "", ""},
		{"a listed file deleted", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "hosts")) }, "", ""},
		{"an extra file", func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "my-notes.txt"), "x") }, "my-notes.txt", ""},
		{"a .git directory", func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
			writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
		}, ".git/", ""},
		{"a hand edit", func(t *testing.T, dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "node0.sh"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("# my change\n")
			f.Close()
		}, "", "node0.sh"},
		{"a listed file replaced by a link", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "README.md"))
			os.Symlink("/etc/hostname", filepath.Join(dir, "README.md"))
		}, "", "README.md"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "bundle")
			if err := b.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			tt.change(t, dir)
			before := listDir(t, dir)
			err := b.Write(dir, true)
			if tt.foreign == "" && tt.edit == "" {
				if err != nil {
					t.Fatalf("--force on vlaunch's own files: %v", err)
				}
				if got, want := listDir(t, dir), ".vlaunch-bundle README.md hosts node0.sh"; got != want {
					t.Errorf("got %q, want %q", got, want)
				}
				if got := listDir(t, parent); got != "bundle" {
					t.Errorf("temporary directories left behind: %s", got)
				}
				return
			}
			var fe *ForeignFilesError
			if !errors.As(err, &fe) || !errors.Is(err, ErrForeignFiles) {
				t.Fatalf("got %v, want a ForeignFilesError", err)
			}
			if strings.Join(fe.Foreign, " ") != tt.foreign || strings.Join(fe.Edited, " ") != tt.edit {
				t.Errorf("named foreign %q edited %q, want %q %q", fe.Foreign, fe.Edited, tt.foreign, tt.edit)
			}
			for _, name := range append(fe.Foreign, fe.Edited...) {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("message does not name %s: %v", name, err)
				}
			}
			if after := listDir(t, dir); after != before {
				t.Errorf("target changed: %q -> %q", before, after)
			}
			if got := listDir(t, parent); got != "bundle" {
				t.Errorf("left in the parent: %s", got)
			}
			if err := b.CheckTarget(dir, true); !errors.Is(err, ErrForeignFiles) {
				t.Errorf("--dry-run's check must refuse alike: %v", err)
			}
		})
	}
}

// TestMarkerManifest: the marker on disk lists every other file with the
// SHA-256 `sha256sum -c` would check.
func TestMarkerManifest(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := b.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, MarkerFile))
	if err != nil {
		t.Fatal(err)
	}
	sums, ok := parseManifest(data)
	if !ok || len(sums) != len(b.Files)-1 {
		t.Fatalf("manifest lists %d files, want %d:\n%s", len(sums), len(b.Files)-1, data)
	}
	for _, f := range b.Files {
		if f.Path == MarkerFile {
			continue
		}
		if same, err := hashIs(filepath.Join(dir, f.Path), sums[f.Path]); err != nil || !same {
			t.Errorf("%s: listed sum does not match the file written (%v)", f.Path, err)
		}
	}
}

// TestForceOldMarker: a marker written before manifests names no files;
// --force then accepts only names a bundle may hold.
func TestForceOldMarker(t *testing.T) {
	b, _ := generate(t, "single-node-ep", "")
	oldMarker := "vlaunch launch bundle \"x\" for vLLM 0.10.1 (bare runtime).\n"
	for _, tt := range []struct {
		name    string
		files   []string
		foreign string
	}{
		{"bundle files only", []string{"README.md", "hosts", "node0.sh", "lws.yaml", "decode/hosts"}, ""},
		{"notes and a checkout", []string{"README.md", "notes.txt", ".git/HEAD", "old-node.sh"}, ".git/ notes.txt old-node.sh"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			os.Mkdir(dir, 0o755)
			writeFile(t, filepath.Join(dir, MarkerFile), oldMarker)
			for _, f := range tt.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
				writeFile(t, filepath.Join(dir, f), "x")
			}
			err := b.Write(dir, true)
			if tt.foreign == "" {
				if err != nil {
					t.Fatalf("old bundle of bundle files: %v", err)
				}
				return
			}
			var fe *ForeignFilesError
			if !errors.As(err, &fe) || strings.Join(fe.Foreign, " ") != tt.foreign {
				t.Fatalf("got %v, want foreign %q", err, tt.foreign)
			}
		})
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
	// The bundle directory itself is locked: its files cannot be deleted.
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := b.Write(dir, true); !errors.Is(err, ErrCannotReplace) || !strings.Contains(err.Error(), "delete entries of "+dir) {
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
		// A listed file deleted marks the old bundle apart from the new.
		if err := os.Remove(filepath.Join(dir, "hosts")); err != nil {
			t.Fatal(err)
		}
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
		if _, err := os.Stat(filepath.Join(dir, "hosts")); !os.IsNotExist(err) {
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
		if _, err := os.Stat(filepath.Join(dir, "hosts")); err != nil {
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
