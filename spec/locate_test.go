package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vlaunch/vlaunch/diag"
)

func TestSplitPathInvertsPathString(t *testing.T) {
	for _, segs := range [][]string{{"hardware", "nodes", "1", "name"}, {"vllm", "env", "NCCL_DEBUG"}, {"slo", "ttft", "0", "p99_s"}} {
		if got := SplitPath(PathString(segs)); !cmp.Equal(got, segs) {
			t.Errorf("SplitPath(PathString(%v)) = %v", segs, got)
		}
	}
}

// TestLocateFillsOnlyMissingPositions: a finding with a path gets the
// field's position (or its nearest present ancestor's); a positioned
// finding, one about another file and one without a path stay as they are.
func TestLocateFillsOnlyMissingPositions(t *testing.T) {
	src := "apiVersion: vlaunch/v1\nhardware:\n  nodes:\n    - name: a\n    - name: b\n      gpus: 8\nvllm:\n  port: 8000\n"
	root, ds := ParseNode("s.yaml", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d := &Deployment{File: "s.yaml", Root: root}
	got := diag.Diagnostics{
		{Code: "A", Path: "hardware.nodes[1].gpus"},
		{Code: "B", Path: "vllm.max_num_seqs"},
		{Code: "C", Path: "vllm.port", File: "s.yaml", Line: 9, Col: 9},
		{Code: "D", Path: "vllm.port", File: "other.sh"},
		{Code: "E"},
	}
	d.Locate(got)
	want := []string{"s.yaml:6:13", "s.yaml:8:3", "s.yaml:9:9", "other.sh", ""}
	for i, w := range want {
		if loc := got[i].Location(); loc != w {
			t.Errorf("%s: location %q, want %q", got[i].Code, loc, w)
		}
	}
	var nilSpec *Deployment
	nilSpec.Locate(got) // the quick form of check has no spec
}
