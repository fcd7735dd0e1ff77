package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/lint/launch"
)

// Bounds of the directory walk. A deployment directory (a bundle, a repo's
// deploy/ folder) holds tens of files; a path like / or a home directory
// would otherwise be walked for minutes and read for gigabytes.
const (
	maxDirEntries = 20000    // entries visited under all directory arguments
	maxDirFiles   = 500      // launch files taken from them
	maxDirBytes   = 64 << 20 // bytes read from them
)

// dirWalk collects the launch files under the directories of one lint run,
// sharing the bounds between them.
type dirWalk struct {
	entries, bytes int
	inputs         []lint.Input
	skipped        []string // "path (reason)", for the note on stderr
	named          bool     // files named on the command line were taken as found (--as-directory)
}

// errDirTooBig ends a walk over the bounds.
var errDirTooBig = errors.New("too many files")

// add walks dir: hidden entries (.git, .venv) are skipped, symbolic links and
// special files are not followed, and only launch.LaunchFile kinds are read.
// A file that is empty, binary or over the size cap is skipped with a reason
// (the user named the directory, not the file); a directory with no launch
// file at all is an error.
func (w *dirWalk) add(dir string) error {
	before := len(w.inputs)
	root := strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator) // follow a symlinked root
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			w.skipped = append(w.skipped, p+" (unreadable)")
			return nil
		}
		if w.entries++; w.entries > maxDirEntries {
			return fmt.Errorf("%w: over %d entries under the directories given", errDirTooBig, maxDirEntries)
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return w.addFile(p)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if len(w.inputs) == before {
		return fmt.Errorf("%s: no launch scripts (.sh, .bash, .sbatch, .slurm, a shell shebang), manifests (.yaml, .yml) or Markdown documents under it", dir)
	}
	return nil
}

// addFile reads one regular file found in a directory if it is a launch file.
func (w *dirWalk) addFile(p string) error {
	var head []byte
	if filepath.Ext(p) == "" {
		head = readHead(p)
	}
	if !launch.LaunchFile(p, head) {
		return nil
	}
	data, err := readLintInput(p, maxLintInput)
	if err != nil {
		w.skipped = append(w.skipped, skipReason(p, err))
		return nil
	}
	if len(w.inputs) >= maxDirFiles {
		return fmt.Errorf("%w: over %d launch files under the directories given; name the files of one deployment", errDirTooBig, maxDirFiles)
	}
	if w.bytes += len(data); w.bytes > maxDirBytes {
		return fmt.Errorf("%w: over %s under the directories given", errDirTooBig, inputfile.Size(maxDirBytes))
	}
	w.inputs = append(w.inputs, lint.Input{Name: p, Data: data, InDirectory: true})
	return nil
}

// readHead returns the first bytes of a regular file (for its shebang), or
// nothing when it cannot be read.
func readHead(p string) []byte {
	f, _, err := inputfile.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}

// skipReason turns readLintInput's error into "path (why)".
func skipReason(p string, err error) string {
	msg := strings.TrimPrefix(err.Error(), p+": ")
	if i := strings.IndexAny(msg, ";("); i > 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	return p + " (" + msg + ")"
}

// note writes which files of the directories were skipped, a few by name.
func (w *dirWalk) note(out io.Writer) {
	if len(w.skipped) == 0 {
		return
	}
	shown := w.skipped
	if len(shown) > 5 {
		shown = shown[:5]
	}
	more := ""
	if n := len(w.skipped) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	where := " in the directories given"
	if w.named {
		where = ""
	}
	fmt.Fprintf(out, "vlaunch: skipped %d file(s)%s: %s%s\n", len(w.skipped), where, strings.Join(shown, ", "), more)
}
