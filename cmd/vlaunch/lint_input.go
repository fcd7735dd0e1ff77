package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/inputfile"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/vllm"
)

// maxLintInput bounds one lint input. Launch scripts and manifests are
// kilobytes (a 10,000-line script is about 0.5 MiB); the front end keeps a
// source position per byte of every argument, so an unbounded input would
// grow memory without limit (`vlaunch lint /dev/zero`).
const maxLintInput = 8 << 20

// readInputs reads every argument as lint input: a file named is read
// whatever its name, and any unusable one is an error (exit 2): missing, not
// a regular file, empty, binary or over the size cap. A directory
// contributes the launch files under it (dirWalk), all linted together as
// one deployment; what it skips is noted on errOut. With asDir (lint
// --as-directory, for hooks that pass every file of a type) a file named
// is taken as if found in a directory: only a launch file is read, an
// unusable one is skipped with the note, and a file that starts nothing
// is noted only when nothing in the run starts anything; a missing file
// is still an error.
func readInputs(args []string, asDir bool, errOut io.Writer) ([]lint.Input, diag.Sources, error) {
	var inputs []lint.Input
	src := diag.Sources{}
	w := &dirWalk{}
	for _, a := range args {
		if isDir(a) || asDir {
			n := len(w.inputs)
			var err error
			if isDir(a) {
				err = w.add(a)
			} else if _, err = os.Lstat(a); err == nil {
				w.named = true
				err = w.addFile(a)
			}
			if err != nil {
				return nil, nil, err
			}
			inputs = append(inputs, w.inputs[n:]...)
			continue
		}
		data, err := readLintInput(a, maxLintInput)
		if err != nil {
			return nil, nil, err
		}
		inputs = append(inputs, lint.Input{Name: a, Data: data})
	}
	inputs = dedupe(inputs)
	for _, in := range inputs {
		src[in.Name] = vllm.BlankSecrets(in.Data) // snippets never echo a credential
	}
	w.note(errOut)
	return inputs, src, nil
}

// dedupe drops a file given twice (by name and again inside a directory
// given): linted twice it would be two nodes of the deployment.
func dedupe(inputs []lint.Input) []lint.Input {
	seen := map[string]bool{}
	out := inputs[:0]
	for _, in := range inputs {
		if k := filepath.Clean(in.Name); !seen[k] {
			seen[k] = true
			out = append(out, in)
		}
	}
	return out
}

// isDir reports a path that is (or links to) a directory; os.Stat does not
// open the path, so a FIFO cannot block it.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// readLintInput reads a regular file of at most limit bytes (package
// inputfile: a FIFO or device is refused rather than waited on).
func readLintInput(path string, limit int64) ([]byte, error) {
	data, err := inputfile.Read(path, limit)
	switch {
	case errors.Is(err, inputfile.ErrNotRegular):
		return nil, fmt.Errorf("%s: %v; lint reads scripts and manifests", path, err)
	case errors.Is(err, inputfile.ErrTooLarge):
		return nil, fmt.Errorf("%s: %v (the lint input limit); launch scripts and manifests are far smaller", path, err)
	case err != nil:
		return nil, err
	case len(bytes.TrimSpace(data)) == 0:
		return nil, fmt.Errorf("%s: empty file", path)
	case bytes.IndexByte(data, 0) >= 0:
		return nil, errors.New(path + ": binary file (it contains NUL bytes); lint reads shell scripts and YAML")
	}
	return data, nil
}
