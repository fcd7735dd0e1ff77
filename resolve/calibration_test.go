package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpecCalibration: the spec's calibration file is read relative to the
// spec, once, into the deployment; a file vlaunch cannot use is a field
// error at calibration; no file means the global constants.
func TestSpecCalibration(t *testing.T) {
	dir := t.TempDir()
	good := "schema: vlaunch/calibration/v1\nconstants: {hbm: 0.8}\nprovenance: {created: \"2026-12-02T10:00:00Z\", spec: s.yaml, results: [{file: a.json}]}\n"
	if err := os.WriteFile(filepath.Join(dir, "cal.yaml"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	d := example(t, "deepseek-v3-32xh20.yaml")
	if r := mustResolve(t, d); r.Calibration.File != nil || !strings.HasPrefix(r.Calibration.Describe(), "the global constants") {
		t.Errorf("no calibration: got %+v", r.Calibration)
	}
	d.File = filepath.Join(dir, "spec.yaml")
	d.Calibration = "cal.yaml"
	r := mustResolve(t, d)
	if r.Calibration.File == nil || r.Calibration.File.Constants["hbm"] != 0.8 {
		t.Fatalf("calibration not resolved: %+v", r.Calibration)
	}
	if got := r.Calibration.Describe(); got != "calibration cal.yaml (fitted 2026-12-02 to 1 benchmark result)" {
		t.Errorf("describe %q", got)
	}
	if l := r.WithLayout(r.Layout); l.Calibration.File != r.Calibration.File {
		t.Error("WithLayout lost the calibration")
	}
	d.Calibration = "missing.yaml"
	_, err := FromSpec(d)
	if fe, ok := err.(*FieldError); !ok || fe.Path != "calibration" {
		t.Errorf("missing file: error %v, want a field error at calibration", err)
	}
}
