package calfile

import (
	"strings"
	"testing"
)

func TestFileRoundTrip(t *testing.T) {
	f := &File{Schema: Schema, Constants: map[string]float64{"gemm": 0.5, "step_overhead_s": 0.01},
		Provenance: Provenance{Created: "2026-12-02T10:00:00Z", Spec: "spec.yaml", Results: []ResultRef{{File: "a.json"}, {File: "b.json"}}},
		Fit:        &FitRecord{Criterion: "worst", Constants: []ConstantRecord{{Name: "gemm", Before: 0.75, After: 0.5, Fitted: true}}}}
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# vlaunch calibration file") {
		t.Errorf("no header:\n%s", data)
	}
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if g.Constants["gemm"] != 0.5 || g.Constants["step_overhead_s"] != 0.01 || g.Fit.Constants[0].After != 0.5 {
		t.Errorf("round trip changed the file: %+v", g)
	}
	if s := g.Summary(); s != "fitted 2026-12-02 to 2 benchmark results" {
		t.Errorf("summary %q", s)
	}
}

func TestFileRejects(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"", "empty"},
		{"schema: vlaunch/calibration/v0\nconstants: {gemm: 0.5}\n", "this vlaunch reads"},
		{"schema: vlaunch/calibration/v1\n", "no constants"},
		{"schema: vlaunch/calibration/v1\nconstants: {gem: 0.5}\n", `unknown constant "gem"`},
		{"schema: vlaunch/calibration/v1\nconstants: {gemm: 1.5}\n", "outside its range"},
		{"schema: vlaunch/calibration/v1\nconstants: {gemm: .nan}\n", "outside its range"},
		{"schema: vlaunch/calibration/v1\nconstants: {gemm: fast}\n", "not a calibration file"},
		{"schema: vlaunch/calibration/v1\nconstants: {gemm: 0.5}\nextra: 1\n", "not a calibration file"},
		{"schema: vlaunch/calibration/v1\nconstants: {gemm: 0.5}\n---\nschema: x\n", "more than one"},
		{strings.Repeat("#", MaxBytes+1), "more than the 1 MiB"},
	} {
		if _, err := Parse([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want %q", c.data, err, c.want)
		}
	}
}

// FuzzParseFile: a calibration file a user names never panics the loader,
// and whatever it accepts validates and renders again.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte("schema: vlaunch/calibration/v1\nconstants: {gemm: 0.5, hbm: 0.9}\nprovenance: {created: x, spec: s, results: [{file: a}]}\n"))
	f.Add([]byte("schema: vlaunch/calibration/v1\nconstants: {collective_s: 1e-5}\nfit: {criterion: c, worst_error_before_pct: 1, worst_error_after_pct: 2, constants: [], targets: []}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data)
		if err != nil {
			return
		}
		if _, err := g.Marshal(); err != nil {
			t.Fatalf("accepted file does not render: %v", err)
		}
	})
}

// TestParseNamesOtherDocuments (qa45c F9): a deployment spec given as a
// calibration file is named as one, and unknown keys are listed as keys,
// without Go type names.
func TestParseNamesOtherDocuments(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       []string
	}{
		{"deployment spec", "apiVersion: vlaunch/v1\nkind: Deployment\nmetadata:\n  name: x\nmodel:\n  name: qwen3-30b-a3b\n",
			[]string{"this is a deployment spec (apiVersion vlaunch/v1, kind Deployment), not a calibration file", "vlaunch calibrate", Schema}},
		{"unknown keys", "schema: " + Schema + "\nconstant:\n  x: 1\nnotes: hi\n",
			[]string{"line 2: unknown key constant", "line 4: unknown key notes"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.data))
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\ndoes not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "calfile.File") || strings.Contains(err.Error(), "not found in type") {
				t.Errorf("Go internals in the message: %v", err)
			}
		})
	}
}
