package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/published"
)

// A row's front end is spread over the API servers it ran, by the rules
// check uses (vllm.Release.DefaultAPIServers): the flag per node under
// hybrid load balancing, on the head node otherwise; the release's default
// when the row does not say; one for SGLang and for an unknown release.
func TestAPIServersOf(t *testing.T) {
	g, err := catalog.LookupGPU("h200")
	if err != nil {
		t.Fatal(err)
	}
	row := func(name, version, flags string, nodes, dp float64) published.Row {
		var r published.Row
		r.Engine = published.Engine{Name: name, Version: version, Flags: flags}
		r.Hardware.Nodes = published.N(nodes)
		r.Layout.DP = published.N(dp)
		r.Load.Kind = published.LoadClosedLoop
		return r
	}
	for _, c := range []struct {
		what string
		r    published.Row
		want int
	}{
		{"wide-EP: 8 a node, hybrid LB, 4 nodes", row("vllm", "0.11.1rc5", "vllm serve m --data-parallel-hybrid-lb --api-server-count 8", 4, 32), 32},
		{"the flag without hybrid LB: the head node's", row("vllm", "0.11.0", "vllm serve m --api-server-count 4", 1, 8), 4},
		{"0.11.0's fixed default: one", row("vllm", "0.11.0", "vllm serve m", 1, 8), 1},
		{"0.16.0's default under internal LB: the DP size", row("vllm", "0.16.0", "vllm serve m", 1, 8), 8},
		{"SGLang: one tokenizer manager", row("sglang", "0.5.4", "python -m sglang.launch_server --dp 8", 1, 8), 1},
		{"an unknown release: one", row("vllm", "unknown", "vllm serve m --api-server-count 8", 1, 8), 1},
	} {
		e := engineOf(c.r, g, 4096)
		if e.apiServers != c.want {
			t.Errorf("%s: %d API servers, want %d", c.what, e.apiServers, c.want)
		}
	}
}
