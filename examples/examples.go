// Package examples embeds the example deployment specs so `vlaunch init`
// and the README's first command work without a checkout.
//
// An example is <name>.yaml. One whose spec reads files beside it (a
// checkpoint's config.json and hf_quant_config.json that model.config
// names, relative to the spec) carries them in a directory beside it, at the
// path the spec names (so the example validates in place too):
// companionDirs maps the example to it, Companions lists the files and
// WriteFiles puts them beside the spec it writes.
package examples

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// The companion directories are named one by one (a pattern such as * would
// embed this package's Go files too); TestCompanions checks that every
// directory on disk is embedded and belongs to an example whose
// model.config lies in it.
//
//go:embed *.yaml deepseek-v3.1-nvfp4 kimi-k2.5
var files embed.FS

// companionDirs: the directory (relative to the examples, as the spec's
// model.config names it) whose files an example reads beside it.
var companionDirs = map[string]string{
	"deepseek-v3.1-nvfp4-4xb200": "deepseek-v3.1-nvfp4",
	"kimi-k2.5-dcp8-8xh200":      "kimi-k2.5",
}

// Names lists the embedded examples without the .yaml suffix, sorted.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Read returns the content of the named example (with or without .yaml).
func Read(name string) ([]byte, bool) {
	data, err := files.ReadFile(strings.TrimSuffix(name, ".yaml") + ".yaml")
	return data, err == nil
}

// File is a companion file of an example: Path is relative to the spec's
// directory, slash-separated, as the spec names it.
type File struct {
	Path string
	Data []byte
}

// Companions returns the files the named example reads beside it (none for
// most), sorted by path.
func Companions(name string) []File {
	dir, ok := companionDirs[strings.TrimSuffix(name, ".yaml")]
	if !ok {
		return nil
	}
	var out []File
	_ = fs.WalkDir(files, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, File{Path: p, Data: data})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// ErrExists is returned (wrapped) by WriteFiles when a file to write exists
// and force is off; nothing has been written then.
var ErrExists = errors.New("file exists")

// WriteFiles writes spec to specPath and the example's companion files
// beside it (at their paths relative to specPath's directory), and returns
// the paths written, the spec first. It checks every target before writing
// any: an existing file is an error unless force (then nothing is written),
// and so is a directory in a file's place. Each file goes through a
// temporary file in its own directory renamed into place, so none is ever
// half written; the renames come last, after every temporary file is
// complete, and a failed rename removes the files this call created.
func WriteFiles(specPath string, spec []byte, name string, force bool) ([]string, error) {
	type target struct {
		path string
		data []byte
	}
	targets := []target{{specPath, spec}}
	base := filepath.Dir(specPath)
	for _, f := range Companions(name) {
		if path.IsAbs(f.Path) || strings.HasPrefix(path.Clean(f.Path), "..") {
			return nil, fmt.Errorf("example %s: companion %s is outside the spec's directory", name, f.Path)
		}
		targets = append(targets, target{filepath.Join(base, filepath.FromSlash(f.Path)), f.Data})
	}
	var exist []string
	existed := map[string]bool{}
	for _, t := range targets {
		fi, err := os.Lstat(t.path)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory", t.path)
		}
		existed[t.path] = true
		exist = append(exist, t.path)
	}
	if len(exist) > 0 && !force {
		return nil, fmt.Errorf("%w: %s (use --force to overwrite; nothing written)", ErrExists, strings.Join(exist, ", "))
	}
	var created []string // directories this call made, deepest last
	cleanup := func() {
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // only if empty
		}
	}
	var temps []string
	removeTemps := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, t := range targets {
		dirs, err := mkdirs(filepath.Dir(t.path))
		created = append(created, dirs...)
		if err != nil {
			removeTemps()
			cleanup()
			return nil, err
		}
		tmp, err := writeTemp(t.path, t.data)
		if err != nil {
			removeTemps()
			cleanup()
			return nil, err
		}
		temps = append(temps, tmp)
	}
	var written []string
	for i, t := range targets {
		if err := os.Rename(temps[i], t.path); err != nil {
			for _, w := range written {
				if !existed[w] {
					os.Remove(w)
				}
			}
			removeTemps()
			cleanup()
			return nil, err
		}
		written = append(written, t.path)
	}
	return written, nil
}

// mkdirs creates dir and its missing parents, returning those it created
// (outermost first).
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append([]string{d}, missing...)
		if filepath.Dir(d) == d {
			break
		}
	}
	var made []string
	for _, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return made, err
		}
		made = append(made, d)
	}
	return made, nil
}

// writeTemp writes data to a temporary file beside path and returns its
// name.
func writeTemp(path string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vlaunch-init-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}
