package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/vlaunch/vlaunch/diag"
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

// readLintInput reads a regular file of at most limit bytes. It opens
// without blocking, so a FIFO or device is refused rather than waited on.
func readLintInput(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s); lint reads scripts and manifests", path, fileKind(st.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	switch {
	case int64(len(data)) > limit:
		return nil, fmt.Errorf("%s: larger than the %d MiB lint input limit; launch scripts and manifests are far smaller", path, limit>>20)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, fmt.Errorf("%s: empty file", path)
	case bytes.IndexByte(data, 0) >= 0:
		return nil, errors.New(path + ": binary file (it contains NUL bytes); lint reads shell scripts and YAML")
	}
	return data, nil
}

// fileKind names a non-regular file type for the message.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
