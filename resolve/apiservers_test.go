package resolve

import (
	"strings"
	"testing"
)

// TestAPIServers: the one API-server count that check simulates and
// generate writes (#27: check simulated one while the bundle started 8):
// the spec's value; unset, one per DP rank on the replica's first node
// (re-derived with the layout); vLLM's single API server for an engine
// spanning nodes and for a release without --api-server-count.
func TestAPIServers(t *testing.T) {
	tests := []struct {
		name    string
		version string
		asked   *int
		layout  func(l Layout) Layout // nil: as written (DP 32 over 4 × 8 H20)
		want    int
		from    Source
	}{
		{"spec", "0.11.0", ptr(8), nil, 8, SourceSpec},
		{"spec, not the node's share", "0.11.0", ptr(3), nil, 3, SourceSpec},
		{"unset: DP ranks on node 0", "0.11.0", nil, nil, 8, SourceDerived},
		// vLLM 0.15.0 on defaults an internal-LB node to the whole DP size
		// (serve.py): DP 32 over 4 nodes starts 32, not node 0's 8
		{"unset, release default auto", "0.16.0", nil, nil, 32, SourceRelease},
		// qa43 F7: DP 16 over 16 trays of 4 GPUs wrote 1
		{"unset, auto, one engine per node", "0.24.0", nil, func(l Layout) Layout { l.TP, l.DP = 8, 4; return l }, 4, SourceRelease},
		{"unset, auto, TP8 DP1", "0.24.0", nil, func(l Layout) Layout { l.TP, l.DP = 8, 1; return l }, 1, SourceDerived},
		{"unset, TP4 DP8: two engines on node 0", "0.11.0", nil, func(l Layout) Layout { l.TP, l.DP = 4, 8; return l }, 2, SourceDerived},
		{"unset, TP8 DP1: one engine", "0.11.0", nil, func(l Layout) Layout { l.TP, l.DP = 8, 1; return l }, 1, SourceDerived},
		{"unset, TP16 spans nodes", "0.11.0", nil, func(l Layout) Layout { l.TP, l.DP = 16, 1; return l }, 1, SourceRelease},
		{"unset, replicas: the replica's first node", "0.11.0", nil, func(l Layout) Layout { l.DP, l.Replicas = 16, 2; return l }, 8, SourceDerived},
		{"release without the flag", "0.9.0", ptr(8), nil, 1, SourceDerived},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := example(t, "deepseek-v3-32xh20.yaml")
			d.VLLM.Version, d.VLLM.APIServerCount, d.VLLM.All2AllBackend = tt.version, tt.asked, "auto"
			r := mustResolve(t, d)
			if tt.layout != nil {
				w := r.WithLayout(tt.layout(r.Layout))
				r = &w
			}
			got := r.Engine.APIServers
			if got.Value != tt.want || got.From != tt.from {
				t.Errorf("api_server_count %d from %s (%s), want %d from %s", got.Value, got.From, got.Why, tt.want, tt.from)
			}
			if got.From != SourceSpec && got.Why == "" {
				t.Errorf("from %s says nothing about how", got.From)
			}
			if tt.version == "0.9.0" && !strings.Contains(got.Why, "not written") {
				t.Errorf("the dropped setting is not mentioned: %q", got.Why)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
