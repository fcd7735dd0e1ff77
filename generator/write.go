package generator

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MarkerFile is written into every bundle. `--force` replaces a non-empty
// directory only when it carries this file, so it can never delete a
// directory vlaunch did not write (a home directory, a checkout, a model).
const MarkerFile = ".vlaunch-bundle"

// Errors Write returns before it changes anything on disk; the target is
// left exactly as it was. Callers map them to "unusable input".
var (
	// ErrTargetNotEmpty: the target holds files and force is off.
	ErrTargetNotEmpty = errors.New("target directory exists and is not empty (use --force to replace a bundle vlaunch wrote)")
	// ErrNotABundle: force is on but the target has no MarkerFile.
	ErrNotABundle = errors.New("target directory is not a vlaunch bundle (it has no " + MarkerFile + " marker); --force only replaces bundles vlaunch wrote: remove it yourself or choose another directory")
	// ErrCannotReplace: the old bundle could not be removed afterwards
	// (a directory in it is not writable), so nothing is written.
	ErrCannotReplace = errors.New("the existing bundle cannot be removed")
)

// LeftoverError is returned when the new bundle is complete and in place
// but the previous one, moved aside, could not be deleted. Path names what
// is left so the user can remove it.
type LeftoverError struct {
	Dir, Path string
	Err       error
}

func (e *LeftoverError) Error() string {
	return fmt.Sprintf("the new bundle is complete in %s, but the previous bundle moved aside to %s could not be deleted (%v); delete it by hand", e.Dir, e.Path, e.Err)
}

func (e *LeftoverError) Unwrap() error { return e.Err }

// Hooks for tests: the file-system operations whose failure Write must
// survive without leaving a half-replaced bundle.
var (
	removeAll      = os.RemoveAll
	rename         = os.Rename
	checkRemovable = removable
)

// Write puts the bundle into dir atomically: the files are written to a
// temporary directory beside dir, which is then renamed into place, so dir
// either keeps its old content or has the complete new bundle. An existing
// non-empty dir is replaced only with force, and only when it is a bundle
// (it has MarkerFile), holds nothing but the files vlaunch wrote there,
// unchanged (see auditTarget), and every directory of it this process may
// empty.
func (b *Bundle) Write(dir string, force bool) error {
	dir = filepath.Clean(dir)
	replace, err := checkTarget(dir, force, b.knownPaths())
	if err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".vlaunch-tmp-")
	if err != nil {
		return err
	}
	defer removeAll(tmp) // no-op after a successful rename
	if err := b.writeFiles(tmp); err != nil {
		return err
	}
	if !replace {
		if err := os.Remove(dir); err != nil && !os.IsNotExist(err) {
			return err // an empty dir that vanished or filled up meanwhile
		}
		return rename(tmp, dir)
	}
	return swapIn(tmp, dir)
}

func (b *Bundle) writeFiles(tmp string) error {
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, f := range b.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data := f.Data
		if f.Path == MarkerFile {
			data = b.markerData(data)
		}
		if err := os.WriteFile(p, data, f.Mode); err != nil {
			return err
		}
		// WriteFile's mode is filtered by the umask; scripts must be executable.
		if err := os.Chmod(p, f.Mode); err != nil {
			return err
		}
	}
	return nil
}

// CheckTarget reports whether b.Write(dir, force) would refuse dir, with
// the error Write would return, writing nothing: `generate --dry-run` asks
// it so that a dry run refuses what the real run refuses.
func (b *Bundle) CheckTarget(dir string, force bool) error {
	_, err := checkTarget(filepath.Clean(dir), force, b.knownPaths())
	return err
}

// checkTarget decides whether dir can be written: replace is true when an
// existing bundle must be swapped out. Every refusal happens here, before
// anything is written. known is the test for a marker without a manifest
// (Bundle.knownPaths).
func checkTarget(dir string, force bool, known func(string) bool) (replace bool, err error) {
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		// Renaming over a link would replace the link, not the bundle.
		return false, fmt.Errorf("%s is a symbolic link; give the directory it points to", dir)
	case !fi.IsDir():
		return false, fmt.Errorf("%s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	switch {
	case len(entries) == 0:
		return false, nil
	case !force:
		return false, fmt.Errorf("%s: %w", dir, ErrTargetNotEmpty)
	}
	marker := filepath.Join(dir, MarkerFile)
	if m, err := os.Lstat(marker); err != nil || !m.Mode().IsRegular() {
		return false, fmt.Errorf("%s: %w", dir, ErrNotABundle)
	}
	if err := auditBundle(dir, marker, known); err != nil {
		return false, err
	}
	if err := checkRemovable(dir); err != nil {
		return false, fmt.Errorf("%s: %w: %v; nothing was written", dir, ErrCannotReplace, err)
	}
	return true, nil
}

// swapIn renames tmp to dir, moving the existing dir aside first and
// deleting it only once the new one is in place.
func swapIn(tmp, dir string) error {
	old := tmp + ".old"
	if err := rename(dir, old); err != nil {
		return err
	}
	if err := rename(tmp, dir); err != nil {
		if rerr := rename(old, dir); rerr != nil { // put the previous bundle back
			return fmt.Errorf("%v; the previous bundle is at %s (restoring it failed: %v)", err, old, rerr)
		}
		return err
	}
	if err := removeAll(old); err != nil {
		return &LeftoverError{Dir: dir, Path: old, Err: err}
	}
	return nil
}

// maxMarker bounds the marker read: vlaunch writes a few kilobytes, and a
// user's file renamed to the marker must not be read whole.
const maxMarker = 1 << 20

// auditBundle refuses, naming them, the files --force would delete that
// vlaunch did not write there or that were changed since (qa45c F1).
func auditBundle(dir, marker string, known func(string) bool) error {
	f, err := os.Open(marker)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMarker))
	f.Close()
	if err != nil {
		return err
	}
	sums, ok := parseManifest(data)
	if !ok {
		sums = nil // an old marker: judge by the names a bundle may hold
	}
	foreign, edited, err := auditTarget(dir, sums, known)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was written", dir, err)
	}
	if len(foreign)+len(edited) > 0 {
		return &ForeignFilesError{Dir: dir, Foreign: foreign, Edited: edited}
	}
	return nil
}
