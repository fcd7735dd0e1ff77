package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/inputfile"
	"github.com/vlaunch/vlaunch/lint"
)

// maxLintInput bounds one lint input. Launch scripts and manifests are
// kilobytes (a 10,000-line script is about 0.5 MiB); the front end keeps a
// source position per byte of every argument, so an unbounded input would
// grow memory without limit (`vlaunch lint /dev/zero`).
const maxLintInput = 8 << 20

// readInputs reads every file as a lint input; any unusable file is an error
// (exit 2): missing, not a regular file, empty, binary or over the size cap.
func readInputs(files []string) ([]lint.Input, diag.Sources, error) {
	var inputs []lint.Input
	src := diag.Sources{}
	for _, f := range files {
		data, err := readLintInput(f, maxLintInput)
		if err != nil {
			return nil, nil, err
		}
		inputs = append(inputs, lint.Input{Name: f, Data: data})
		src[f] = data
	}
	return inputs, src, nil
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
