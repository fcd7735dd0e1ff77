package templates

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// Bounds on a --templates directory. The embedded templates are a few KiB
// each and there are a handful of them; the caps only stop a wrong
// directory (a home directory, a model checkout) from being walked or read
// whole.
const (
	// MaxOverrideBytes bounds one override template.
	MaxOverrideBytes = 1 << 20
	// maxOverrideEntries bounds the entries walked in the directory.
	maxOverrideEntries = 1000
)

// Overrides reads the --templates directory dir: every file in it (at any
// depth; names starting with '.' are skipped, as version-control and editor
// files) must be one of Names() and non-empty, because a misspelt or empty
// override would otherwise be ignored and the embedded template used
// without a word. It returns the overrides by template name.
func Overrides(dir string) (map[string][]byte, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	known := map[string]bool{}
	for _, n := range Names() {
		known[n] = true
	}
	out := map[string][]byte{}
	entries := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if entries++; entries > maxOverrideEntries {
			return fmt.Errorf("more than %d entries; --templates takes a directory of a few template files", maxOverrideEntries)
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		name := filepath.ToSlash(rel)
		if !known[name] {
			return unknownOverride(p, name)
		}
		data, err := readOverride(p)
		if err != nil {
			return err
		}
		out[name] = data
		return nil
	})
	return out, err
}

// readOverride reads one override file; an empty one is refused.
func readOverride(p string) ([]byte, error) {
	data, err := inputfile.Read(p, MaxOverrideBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, fmt.Errorf("%s: empty template; delete it to use the embedded one", p)
	}
	return data, nil
}

// unknownOverride names the template the file was probably meant to be.
func unknownOverride(p, name string) error {
	msg := fmt.Sprintf("%s: %q is not a template vlaunch renders", p, name)
	for _, n := range Names() {
		if path.Base(n) == path.Base(name) || strings.TrimSuffix(n, ".tmpl") == name {
			return errors.New(msg + fmt.Sprintf(" (did you mean %s?)", n))
		}
	}
	return errors.New(msg + "; the names are: " + strings.Join(Names(), ", "))
}
