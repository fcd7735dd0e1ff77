package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestAPIServerCountIsResolved: node0.sh writes the API-server count
// resolve decided (the one check simulates, #27): the spec's value, one
// per DP rank of node 0 when unset, and for an engine spanning nodes the
// spec's value or nothing (vLLM's single API server).
func TestAPIServerCountIsResolved(t *testing.T) {
	four := 4
	tests := []struct {
		name string
		edit func(d *spec.Deployment)
		want string // "" = no --api-server-count
	}{
		{"spec", func(d *spec.Deployment) { d.VLLM.APIServerCount = &four }, "--api-server-count 4"},
		{"unset: node 0's DP ranks", func(d *spec.Deployment) { d.VLLM.APIServerCount = nil }, "--api-server-count 8"},
		{"unset, TP 4: two engines on node 0", func(d *spec.Deployment) {
			d.VLLM.APIServerCount, d.Parallelism.Tensor, d.Parallelism.Data = nil, 4, 8
		}, "--api-server-count 2"},
		{"spanning, unset", func(d *spec.Deployment) {
			d.VLLM.APIServerCount, d.Parallelism.Tensor, d.Parallelism.Data = nil, 16, 1
		}, ""},
		{"spanning, spec", func(d *spec.Deployment) {
			d.VLLM.APIServerCount, d.Parallelism.Tensor, d.Parallelism.Data = &four, 16, 1
		}, "--api-server-count 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := loadSpec(t, "reference")
			tt.edit(d)
			r := resolved(t, d)
			b, ds := Generate(r, Options{})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			s := string(fileData(t, b, "node0.sh"))
			got := ""
			if i := strings.Index(s, "--api-server-count "); i >= 0 {
				got = strings.Fields(s[i:])[0] + " " + strings.Fields(s[i:])[1]
			}
			if got != tt.want {
				t.Errorf("node0.sh has %q, want %q", got, tt.want)
			}
			if n := r.Engine.APIServers.Value; tt.want != "" && tt.want != "--api-server-count "+itoa(n) {
				t.Errorf("resolve says %d API servers, node0.sh %q", n, tt.want)
			}
		})
	}
}
