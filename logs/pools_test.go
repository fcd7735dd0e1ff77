package logs

import (
	"strings"
	"testing"
)

// TestAssignPool: an engine's pool is its logged kv_role's, else the one
// pool its file, pod or hosts name; otherwise none, with the reason.
func TestAssignPool(t *testing.T) {
	// Two pools on their own nodes, and two that share a node (same-node P/D).
	apart := []Pool{
		{Name: "prefill", KVRole: "kv_producer", Nodes: []string{"node0", "10.0.0.11"}},
		{Name: "decode", KVRole: "kv_consumer", Nodes: []string{"node1", "10.0.0.12"}},
	}
	shared := []Pool{
		{Name: "prefill", KVRole: "kv_producer", Nodes: []string{"gpu-a", "10.0.0.21"}},
		{Name: "decode", KVRole: "kv_consumer", Nodes: []string{"gpu-a", "10.0.0.21"}},
	}
	kv := func(role string) *KVTransfer { return &KVTransfer{Connector: "NixlConnector", Role: role} }
	for _, tc := range []struct {
		name  string
		pools []Pool
		e     Engine
		pool  string
		byHas string // a part of PoolBy
	}{
		{"producer", apart, Engine{ID: "dp0", Files: []string{"a.log"}, KVTransfer: kv("kv_producer")}, "prefill", "kv_role kv_producer (logged)"},
		{"consumer", apart, Engine{ID: "dp0", Files: []string{"a.log"}, KVTransfer: kv("kv_consumer")}, "decode", "kv_role kv_consumer (logged)"},
		// The logged role wins over a file name that says otherwise, which is named.
		{"role over file", apart, Engine{ID: "decode.log/dp0", Files: []string{"decode.log"}, KVTransfer: kv("kv_producer")}, "prefill", "file decode.log would say decode"},
		{"kv_both, pool in file name", apart, Engine{ID: "dp0", Files: []string{"/var/log/vllm-prefill-0.log.gz"}, KVTransfer: kv("kv_both")}, "prefill", "file vllm-prefill-0.log.gz"},
		{"kv_both, node name", apart, Engine{ID: "dp0", Files: []string{"node1.log"}, KVTransfer: kv("kv_both")}, "decode", "file node1.log"},
		{"no role, node address", apart, Engine{ID: "dp0", Files: []string{"10.0.0.11.log"}}, "prefill", "no kv_role logged; file 10.0.0.11.log"},
		{"no role, pod prefix", apart, Engine{ID: "llm-d-decode-7f9/dp0", Files: []string{"pods.log"}}, "decode", "pod llm-d-decode-7f9"},
		{"no role, host", apart, Engine{ID: "dp0", Files: []string{"x.log"}, Ranks: []Rank{{Host: "node0"}}}, "prefill", "host node0"},
		// node10 is not node1; nothing names a pool.
		{"similar node name", apart, Engine{ID: "dp0", Files: []string{"node10.log"}, KVTransfer: kv("kv_both")}, "", "no file name, pod or host names one pool's name or node"},
		{"nothing", apart, Engine{ID: "dp0", Files: []string{"engine.log"}}, "", "no kv_role logged, and no file name"},
		// Same-node pools: the node names both.
		{"shared node", shared, Engine{ID: "dp0", Files: []string{"gpu-a.log"}, KVTransfer: kv("kv_both")}, "", "the hints name several pools (file gpu-a.log says prefill; file gpu-a.log says decode)"},
		// Both pool names in the hints.
		{"two hints", apart, Engine{ID: "dp0", Files: []string{"prefill.log", "decode.log"}}, "", "the hints name several pools"},
		// A role no pool has (a spec with no roles given) falls to the hints.
		{"role of no pool", []Pool{{Name: "prefill", Nodes: []string{"node0"}}, {Name: "decode", Nodes: []string{"node1"}}},
			Engine{ID: "dp0", Files: []string{"node0.log"}, KVTransfer: kv("kv_producer")}, "prefill", "kv_role kv_producer (logged) is no pool's own; file node0.log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool, by := assignPool(&tc.e, tc.pools)
			if pool != tc.pool || !strings.Contains(by, tc.byHas) {
				t.Errorf("assignPool = %q, %q; want %q with %q", pool, by, tc.pool, tc.byHas)
			}
		})
	}
}

// TestComparePools: each engine is compared with its own pool's
// prediction, and an engine of no pool with neither.
func TestComparePools(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	r := &Report{Engines: []Engine{
		{ID: "a/dp0", Pool: "prefill", WeightsGiB: f(10)},
		{ID: "b/dp0", Pool: "decode", WeightsGiB: f(10)},
		{ID: "c/dp0", PoolBy: "no kv_role logged", WeightsGiB: f(10)},
		{ID: "d/dp0", Pool: "decode"}, // no figure: no row
	}}
	ComparePools(r, map[string]Prediction{"prefill": {WeightsGiB: 10}, "decode": {WeightsGiB: 12}})
	got := map[string]Comparison{}
	for _, c := range r.Comparison {
		got[c.Engine+" "+c.Term] = c
	}
	if c := got["a/dp0 weights_gib"]; c.Pool != "prefill" || c.Predicted == nil || *c.Predicted != 10 {
		t.Errorf("prefill engine: %+v", c)
	}
	if c := got["b/dp0 weights_gib"]; c.Pool != "decode" || c.Predicted == nil || *c.Predicted != 12 {
		t.Errorf("decode engine: %+v", c)
	}
	if c, ok := got["c/dp0 pool"]; !ok || !strings.Contains(c.Explanation, "compared with neither pool's prediction") || c.Predicted != nil {
		t.Errorf("engine of no pool: %+v", c)
	}
	if _, ok := got["c/dp0 weights_gib"]; ok {
		t.Error("an engine of no pool was compared")
	}
	if len(r.Comparison) != 3 {
		t.Errorf("%d rows, want 3: %+v", len(r.Comparison), r.Comparison)
	}
}
