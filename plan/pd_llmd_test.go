package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestApplyPDKeepsLLMDRouter: a P/D candidate written into a spec behind
// llm-d's router gives the router no node (llm-d runs on none of the
// spec's, SPEC126 would warn), and the spec validates without a finding
// about the router.
func TestApplyPDKeepsLLMDRouter(t *testing.T) {
	_, _, src := example(t, "deepseek-v3-pd-32xh20")
	src = bytes.Replace(src, []byte("router: {kind: vllm-router, node: node0, port: 8000}"), []byte("router: {kind: llm-d}"), 1)
	path := filepath.Join(t.TempDir(), "llmd.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, _ := specFile(t, path)
	if !d.Spec.Disaggregation.Router.LLMD() {
		t.Fatal("the edit did not take")
	}
	out, s := applyOneThreeSplit(t, d, src)
	if !bytes.Contains(out, []byte("router: {kind: llm-d}")) {
		t.Errorf("the router changed:\n%s", out)
	}
	_, ds, err := validate.Bytes(path, out)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v\n%s", err, ds, out)
	}
	for _, g := range ds {
		if g.Path == "disaggregation.router.node" || g.Path == "disaggregation.router.port" {
			t.Error(g)
		}
	}
	c := *d.Spec
	s.PD.withPD(&c)
	if c.Disaggregation.Router.Node != "" {
		t.Errorf("the evaluated candidate's router runs on %q", c.Disaggregation.Router.Node)
	}
}
