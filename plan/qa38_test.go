package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
)

const pdPortSpec = `apiVersion: vlaunch/v1
kind: Deployment
disaggregation:
  connector: nixl
  router: {kind: vllm-router, node: p0, port: 8000}
  prefill: {instances: 1, nodes: [p0], parallelism: {tensor: 8, pipeline: 1, data: 1}}
  decode: {instances: 1, nodes: [d0], parallelism: {tensor: 8, pipeline: 1, data: 1}}
vllm:
  version: "0.22.1"
  port: 8100
`

// TestApplySaysThePortMoved: a colocated candidate written into a P/D
// spec moves vllm.port to the router's (clients keep their endpoint), and
// a P/D candidate written into a colocated spec moves the engines 100 up
// for the router; --apply says so (ApplyNoted) and the port's line says it
// with why. It moved 8100 → 8000 silently (qa38 finding 4).
func TestApplySaysThePortMoved(t *testing.T) {
	pools := &PDSettings{Prefill: PoolSettings{Instances: 1, Nodes: []string{"p0"}, TP: 8, PP: 1, DP: 1},
		Decode: PoolSettings{Instances: 1, Nodes: []string{"d0"}, TP: 8, PP: 1, DP: 1}}
	own := Settings{PD: pools, Weights: "auto", KVCacheDType: "auto", All2All: "auto"}
	colo := Settings{TP: 8, PP: 2, DP: 1, Weights: "auto", KVCacheDType: "auto", All2All: "auto"}
	out, notes, err := ApplyNoted([]byte(pdPortSpec), own, colo)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "vllm.port 8100 → 8000: 8000 was the P/D router's port") {
		t.Errorf("notes %q, want the port's move from 8100 to 8000 and why", notes)
	}
	if !strings.Contains(string(out), "  port: 8000 # was 8100; 8000 was the P/D router's port") || strings.Contains(string(out), "disaggregation") {
		t.Errorf("written spec:\n%s", out)
	}

	// The engines already on the router's port: nothing moves, nothing said.
	same := strings.Replace(pdPortSpec, "port: 8100", "port: 8000", 1)
	out, notes, err = ApplyNoted([]byte(same), own, colo)
	if err != nil || len(notes) != 0 || strings.Contains(string(out), "# was") {
		t.Errorf("no move: notes %q, err %v, spec:\n%s", notes, err, out)
	}

	// A colocated spec without vllm.port (spec.Defaults.Port 8000) taking
	// a P/D candidate: the router takes 8000, the engines 8100.
	colSpec := "apiVersion: vlaunch/v1\nparallelism: {tensor: 8, pipeline: 2, data: 1}\nvllm:\n  version: \"0.22.1\"\n"
	pd := own
	p := *pools
	p.RouterPort, p.EnginePort = 8000, 8100
	pd.PD = &p
	out, notes, err = ApplyNoted([]byte(colSpec), colo, pd)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || notes[0] != "vllm.port 8000 → 8100: the P/D router takes 8000, the port clients used, and forwards to the engines" {
		t.Errorf("notes %q", notes)
	}
	if !strings.Contains(string(out), "  port: 8100 # was 8000; the P/D router takes 8000") {
		t.Errorf("written spec:\n%s", out)
	}
}

// TestOneNodeWords: independent replicas on different nodes are not "one
// node" (qa38 finding 5: "#1 runs on one node" of TP 4 × 2 replicas on two
// nodes of 4 GPUs).
func TestOneNodeWords(t *testing.T) {
	for _, c := range []struct {
		l    resolve.Layout
		want string
	}{
		{resolve.Layout{TP: 4, PP: 1, DP: 1, Replicas: 2, Nodes: 2, GPUsPerNode: 4}, "#1's 2 replicas each run within one node (nothing crosses the NICs)"},
		{resolve.Layout{TP: 4, PP: 1, DP: 1, Replicas: 2, Nodes: 1, GPUsPerNode: 8}, "#1 runs on one node"},
		{resolve.Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}, "#1 runs on one node"},
	} {
		if got := oneNodeWords(c.l); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}
