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
	base, own, err := colocatedBase(d)
	if err != nil || base == nil {
		t.Fatal(err)
	}
	s := own
	s.PD = &PDSettings{
		Prefill: PoolSettings{Nodes: []string{"node0"}, Instances: 1, TP: 1, PP: 1, DP: 8, EP: true, All2All: "deepep_high_throughput"},
		Decode:  PoolSettings{Nodes: []string{"node1", "node2", "node3"}, Instances: 1, TP: 1, PP: 1, DP: 24, EP: true},
	}
	out, err := Apply(src, own, s)
	if err != nil {
		t.Fatal(err)
	}
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
