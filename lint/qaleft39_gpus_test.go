package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestSpecGPUsSkipsRouterNode (QA left 39 #1): a P/D router's CPU-only
// node (gpus: 0) runs no engine, so it does not break the spec's common
// GPU count a server lint cannot place on a node is given (8 here, each
// pool node's): before, the differing 0 made the count unknown and lint
// fell back to its assumed default.
func TestSpecGPUsSkipsRouterNode(t *testing.T) {
	d := &spec.Deployment{Hardware: spec.Hardware{Nodes: []spec.Node{
		{Name: "gw", Address: "192.168.2.20", GPUs: 0},
		{Name: "node0", Address: "192.168.2.10", GPUs: 4},
		{Name: "node1", Address: "192.168.2.11", GPUs: 4},
	}}, Disaggregation: &spec.Disaggregation{Router: spec.Router{Kind: spec.RouterKindVLLM, Node: "gw"},
		Prefill: spec.Pool{Nodes: []string{"node0"}}, Decode: spec.Pool{Nodes: []string{"node1"}}}}
	ss := serversOf(t, "vllm serve m --port 8100\n")
	p := &pass{Spec: d}
	if n := p.specGPUs(ss[0]); n != 4 {
		t.Errorf("spec GPUs %d, want 4 (the pools' nodes'; gw runs only the router)", n)
	}
	d.Disaggregation.Router.Node = "node0" // gw now idle: its 0 counts
	if n := p.specGPUs(ss[0]); n != 0 {
		t.Errorf("spec GPUs %d with gw idle, want 0 (no common count)", n)
	}
}
