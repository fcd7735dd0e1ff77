package generator

import (
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestColocatedRouterRefused: a colocated spec with a top-level router
// validates, but generate refuses it (GEN014, at router) on every runtime
// rather than write a bundle without the router; the same spec without it
// generates.
func TestColocatedRouterRefused(t *testing.T) {
	const base = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: routed}
model: {name: qwen3-30b-a3b, path: Qwen/Qwen3-30B-A3B}
hardware:
  gpu: h100-80g
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 8}
workload: {concurrency: 64, session_tokens: 16384, input_tokens: 1024, output_tokens: 1024}
parallelism: {tensor: 1, data: 8, expert: true}
vllm: {version: "0.11.0"}
`
	for _, runtime := range Runtimes {
		plain, ds, err := validate.Bytes("spec.yaml", []byte(base))
		if err != nil || ds.HasErrors() {
			t.Fatalf("validate: %v %v", err, ds)
		}
		if b, ds := Generate(plain, Options{Runtime: runtime}); b == nil || ds.HasErrors() {
			t.Fatalf("%s: without a router: %v", runtime, ds)
		}
		r, ds, err := validate.Bytes("spec.yaml", []byte(base+"router: {policy: cache_aware}\n"))
		if err != nil || ds.HasErrors() {
			t.Fatalf("validate with a router: %v %v", err, ds)
		}
		b, ds := Generate(r, Options{Runtime: runtime})
		if b != nil || len(ds) != 1 || ds[0].Code != CodeRouter || ds[0].Path != "router" {
			t.Errorf("%s: generate with a router gave a bundle %v and %v, want no bundle and one GEN014 at router", runtime, b != nil, ds)
		}
	}
}
