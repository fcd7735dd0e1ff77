package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The marker on disk ends with a manifest: one `sha256sum` line per file
// the bundle holds, so that --force can tell the files vlaunch wrote, as it
// wrote them, from everything a user put or changed there (qa45c F1: a
// .git directory, notes and a hand-edited script were deleted silently).
// It is added at write time, not in Bundle.Files, so that the marker's
// text does not change with every byte of every other file.
const manifestHeader = "\n# The files vlaunch wrote, in `sha256sum -c` form. --force replaces the bundle only\n" +
	"# while the directory holds these files, unchanged, and nothing else.\n"

// manifestLine is one line of the manifest: a SHA-256 and a slash path.
var manifestLine = regexp.MustCompile(`^([0-9a-f]{64})  (\S.*)$`)

// ErrForeignFiles: force is on and the target is a bundle, but it also
// holds files vlaunch did not write or that were changed since; Write
// returns a *ForeignFilesError naming them.
var ErrForeignFiles = errors.New("the bundle directory holds files --force would delete that vlaunch did not write")

// ForeignFilesError names what --force refuses to delete: Foreign are the
// paths (directories end in "/") vlaunch did not write, Edited those it
// wrote whose content has changed since.
type ForeignFilesError struct {
	Dir             string
	Foreign, Edited []string
}

func (e *ForeignFilesError) Error() string {
	var parts []string
	if len(e.Foreign) > 0 {
		parts = append(parts, "not written by vlaunch: "+nameList(e.Foreign))
	}
	if len(e.Edited) > 0 {
		parts = append(parts, "changed since vlaunch wrote them: "+nameList(e.Edited))
	}
	return fmt.Sprintf("%s: --force replaces only the files vlaunch wrote, unchanged; this directory also holds files %s. "+
		"Nothing was written: move them out of %s (or delete them) and run again, or choose another --out-dir",
		e.Dir, strings.Join(parts, "; files "), e.Dir)
}

// Is makes errors.Is(err, ErrForeignFiles) true.
func (e *ForeignFilesError) Is(target error) bool { return target == ErrForeignFiles }

// nameList joins paths, the first ten of them, so that a directory of
// thousands of files gives a readable refusal.
func nameList(paths []string) string {
	const max = 10
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}

// markerData is the marker's text followed by the manifest of every other
// file of the bundle.
func (b *Bundle) markerData(marker []byte) []byte {
	var buf bytes.Buffer
	buf.Write(marker)
	buf.WriteString(manifestHeader)
	for _, f := range b.Files {
		if f.Path == MarkerFile {
			continue
		}
		sum := sha256.Sum256(f.Data)
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), f.Path)
	}
	return buf.Bytes()
}

// parseManifest reads the manifest from a marker: path → SHA-256 in hex.
// ok is false for a marker written before manifests (vlaunch ≤ qa45c),
// which names no files.
func parseManifest(marker []byte) (sums map[string]string, ok bool) {
	sums = map[string]string{}
	for _, line := range strings.Split(string(marker), "\n") {
		if m := manifestLine.FindStringSubmatch(line); m != nil {
			sums[m[2]] = m[1]
		}
	}
	return sums, len(sums) > 0
}

// legacyName matches the paths a bundle may hold whatever its spec says:
// an old marker names no files, so these, and the paths of the bundle
// being written, are all --force may delete beside it.
var legacyName = regexp.MustCompile(`^((prefill|decode)/)?(README\.md|hosts|lws\.yaml|router\.sh|router\.yaml|llm-d\.yaml)$`)

// auditTarget walks dir and returns the paths --force must not delete.
// With a manifest (sums), a file is vlaunch's when it is listed and its
// content hashes to the listed sum. Without one, a file is vlaunch's when
// known says a bundle could hold it. Directories are descended only when
// something vlaunch's could be in them; any other is named whole.
func auditTarget(dir string, sums map[string]string, known func(string) bool) (foreign, edited []string, err error) {
	holds := func(rel string) bool { return known(rel) }
	if sums != nil {
		holds = func(rel string) bool { _, ok := sums[rel]; return ok }
	}
	parents := map[string]bool{}
	markParents := func(rel string) {
		for d := filepath.ToSlash(filepath.Dir(filepath.FromSlash(rel))); d != "."; d = filepath.ToSlash(filepath.Dir(filepath.FromSlash(d))) {
			parents[d] = true
		}
	}
	for p := range sums {
		markParents(p)
	}
	if sums == nil {
		parents["prefill"], parents["decode"] = true, true
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "." || rel == MarkerFile:
			return nil
		case d.IsDir():
			if parents[rel] || (sums == nil && knownDir(rel, known)) {
				return nil
			}
			foreign = append(foreign, rel+"/")
			return fs.SkipDir
		case !holds(rel):
			foreign = append(foreign, rel)
		case !d.Type().IsRegular():
			edited = append(edited, rel) // vlaunch writes regular files; a link or a pipe is the user's
		case sums != nil:
			same, herr := hashIs(p, sums[rel])
			if herr != nil {
				return herr
			}
			if !same {
				edited = append(edited, rel)
			}
		}
		return nil
	})
	sort.Strings(foreign)
	sort.Strings(edited)
	return foreign, edited, err
}

// knownDir: without a manifest, a directory may be descended when the
// bundle being written has a file under it.
func knownDir(rel string, known func(string) bool) bool {
	return known(rel + "/")
}

// hashIs reports whether the file at p has the SHA-256 sum (hex).
func hashIs(p, sum string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, nil
}

// knownPaths is the legacy test (no manifest): a path a bundle may hold is
// one of the new bundle's, or one legacyName matches; a path ending in "/"
// asks whether any of the new bundle's files is under that directory.
func (b *Bundle) knownPaths() func(string) bool {
	paths := map[string]bool{}
	if b != nil {
		for _, f := range b.Files {
			paths[f.Path] = true
			for d := filepath.ToSlash(filepath.Dir(filepath.FromSlash(f.Path))); d != "."; d = filepath.ToSlash(filepath.Dir(filepath.FromSlash(d))) {
				paths[d+"/"] = true
			}
		}
	}
	return func(rel string) bool { return paths[rel] || legacyName.MatchString(rel) }
}
