package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCalibrateExitCodes (qa44c F2, F9): a result file read but refused (a
// negative figure) and a fit with no figure fitted are "no usable result" /
// "nothing could be fitted": exit 1 as --help says, with why on stderr,
// and --out-file is not written; a result file that cannot be read stays
// unusable input (exit 2).
func TestCalibrateExitCodes(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join("..", "..", "calibrate", "testdata", "qa44c-qwen3-14b-a100.yaml")
	// Figures of the pattern of https://github.com/vllm-project/vllm/issues/20469
	// (this test's own), with the cap stated as none: every figure is out
	// of the model's reach.
	block := "Maximum request concurrency: None\n============ Serving Benchmark Result ============\n" +
		"Successful requests:                     30\nBenchmark duration (s):                  224.00\n" +
		"Total input tokens:                      480000\nTotal generated tokens:                  6000\n" +
		"Output token throughput (tok/s):         26.79\nMedian TTFT (ms):                        3450.00\n" +
		"Median TPOT (ms):                        20.90\n==================================================\n"
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unfit := write("unfit.txt", block)
	negative := write("negative.txt", strings.Replace(block, "26.79", "-26.79", 1))
	out := filepath.Join(dir, "cal.yaml")
	for _, c := range []struct {
		path   string
		code   int
		stderr string
	}{
		{negative, exitFindings, "negative (-26.79)"},
		{unfit, exitFindings, "no figure could be fitted"},
		{filepath.Join(dir, "missing.txt"), exitUsage, "missing.txt"},
	} {
		var so, se bytes.Buffer
		err := runCalibrate(&streams{out: &so, err: &se}, &calibrateOptions{spec: spec, output: "text", metrics: "throughput,tpot,ttft", outFile: out}, []string{c.path})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != c.code {
			t.Errorf("%s: %v, want exit %d", filepath.Base(c.path), err, c.code)
		}
		if msg := se.String() + errString(ee); !strings.Contains(msg, c.stderr) {
			t.Errorf("%s: stderr %q, want %q", filepath.Base(c.path), msg, c.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: --out-file written", filepath.Base(c.path))
		}
	}
}

// errString is an exit error's message ("" for none).
func errString(e *exitError) string {
	if e == nil {
		return ""
	}
	return e.msg
}
