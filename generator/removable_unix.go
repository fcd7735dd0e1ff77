//go:build unix

package generator

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// removable reports the first directory under dir (dir included) whose
// entries this process may not delete: removing a file needs write and
// search permission on the directory holding it. Checking before the swap
// means a bundle that cannot be deleted is refused with nothing written,
// instead of being left beside the new one.
func removable(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if err := unix.Access(p, unix.W_OK|unix.X_OK); err != nil {
			return &fs.PathError{Op: "delete entries of", Path: p, Err: err}
		}
		return nil
	})
}
