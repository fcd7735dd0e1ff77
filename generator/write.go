package generator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrTargetNotEmpty is returned by Write when the target holds files and
// force is off.
var ErrTargetNotEmpty = errors.New("target directory exists and is not empty (use --force to replace it)")

// Write puts the bundle into dir atomically: the files are written to a
// temporary directory beside dir, which is then renamed into place, so dir
// either keeps its old content or has the complete new bundle. An existing
// non-empty dir is replaced only with force.
func (b *Bundle) Write(dir string, force bool) error {
	dir = filepath.Clean(dir)
	if err := checkTarget(dir, force); err != nil {
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
	defer os.RemoveAll(tmp) // no-op after a successful rename
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, f := range b.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, f.Mode); err != nil {
			return err
		}
		// WriteFile's mode is filtered by the umask; scripts must be executable.
		if err := os.Chmod(p, f.Mode); err != nil {
			return err
		}
	}
	return swapIn(tmp, dir)
}

// checkTarget refuses a non-empty directory (or a file) without force.
func checkTarget(dir string, force bool) error {
	fi, err := os.Stat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("%s: %w", dir, ErrTargetNotEmpty)
	}
	return nil
}

// swapIn renames tmp to dir, moving an existing dir aside first and
// removing it only once the new one is in place.
func swapIn(tmp, dir string) error {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return os.Rename(tmp, dir)
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir) // put the previous bundle back
		return err
	}
	return os.RemoveAll(old)
}
