package generator

import (
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// routedBase: DP 8 on one 8-GPU node (TP 1, EP), a top-level router in
// front of it (appended by the tests).
const routedBase = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: routed}
model: {name: qwen3-30b-a3b, path: Qwen/Qwen3-30B-A3B}
hardware:
  gpu: h100-80g
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 8}
workload: {concurrency: 64, session_tokens: 16384, input_tokens: 1024, output_tokens: 1024}
parallelism: {tensor: 1, data: 8, expert: true}
`

func routedGen(t *testing.T, text, runtime string) (*Bundle, []string, string) {
	t.Helper()
	r, ds, err := validate.Bytes("spec.yaml", []byte(text))
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	var b *Bundle
	if !ds.HasErrors() {
		// validate refuses what the spec's runtime cannot start
		// (validate.BundleRefusals, which generate runs too); generate,
		// for another runtime, what that one cannot
		b, ds = Generate(r, Options{Runtime: runtime})
	}
	var codes []string
	msg := ""
	for _, d := range ds {
		if d.Severity >= 2 { // errors
			codes = append(codes, string(d.Code)+"@"+d.Path)
			msg += d.Message + " | " + d.Hint
		}
	}
	return b, codes, msg
}

// TestColocatedRouterBundle: with vLLM 0.11.0 (external LB read at its
// tag) a router in front of DP 8 on one node writes one script per rank,
// each `vllm serve --data-parallel-rank R --port 8000+R` on GPU R, and
// router.sh listing the eight URLs with the spec's policy; without the
// router the same spec writes the single node0.sh of internal LB.
func TestColocatedRouterBundle(t *testing.T) {
	spec := routedBase + "vllm: {version: \"0.11.0\"}\n"
	plain, codes, _ := routedGen(t, spec, "bare")
	if plain == nil || len(codes) > 0 {
		t.Fatalf("without a router: %v", codes)
	}
	if _, ok := plain.File("node0.sh"); !ok {
		t.Fatal("without a router: no node0.sh")
	}
	b, codes, _ := routedGen(t, spec+"router: {policy: round_robin, port: 9000}\n", "bare")
	if b == nil || len(codes) > 0 {
		t.Fatalf("with a router: %v", codes)
	}
	for r := 0; r < 8; r++ {
		s := string(fileData(t, b, "node0-rank"+itoa(r)+".sh"))
		for _, want := range []string{"--data-parallel-rank " + itoa(r) + " ", "--port " + itoa(8000+r) + "\n", "CUDA_VISIBLE_DEVICES=" + itoa(r) + "\n",
			"--data-parallel-size 8 ", "--data-parallel-address 10.0.0.1 "} {
			if !strings.Contains(s, want) {
				t.Errorf("rank %d: no %q in\n%s", r, want, s)
			}
		}
		for _, not := range []string{"--headless", "--data-parallel-size-local", "--data-parallel-start-rank", "--api-server-count"} {
			if strings.Contains(s, not) {
				t.Errorf("rank %d: %s in an external-LB rank's command", r, not)
			}
		}
	}
	router := string(fileData(t, b, "router.sh"))
	if !strings.Contains(router, "--worker-urls http://10.0.0.1:8000 http://10.0.0.1:8001") || !strings.Contains(router, "http://10.0.0.1:8007 \\") ||
		!strings.Contains(router, "--policy round_robin") || strings.Contains(router, "--cache-threshold") || !strings.Contains(router, "--port 9000") {
		t.Errorf("router.sh:\n%s", router)
	}
	if _, ok := b.File("node0.sh"); ok {
		t.Error("a routed bundle still writes node0.sh")
	}
}

// TestColocatedRouterRefused: GEN014 where the bundle cannot start the
// router: a release whose --data-parallel-rank is unknown (0.10.1) or
// absent (0.9.0), each naming 0.11.0; replicas; an engine spanning nodes;
// Kubernetes without router.image; a router port a rank binds; replicas
// (of DP > 1, or of one rank each: not written yet). An engine spanning
// nodes with DP > 1 is validate's SPEC102 already.
func TestColocatedRouterRefused(t *testing.T) {
	for _, tc := range []struct {
		name, spec, runtime, path, say string
	}{
		{"unknown release", routedBase + "vllm: {version: \"0.10.1\"}\nrouter: {}\n", "bare", "vllm.version", "is unknown"},
		{"absent release", routedBase + "vllm: {version: \"0.9.0\"}\nrouter: {}\n", "docker", "vllm.version", "has no --data-parallel-rank"},
		{"kubernetes without image", routedBase + "vllm: {version: \"0.11.0\"}\nrouter: {}\n", "kubernetes", "router", "router.image"},
		{"port of a rank", routedBase + "vllm: {version: \"0.11.0\"}\nrouter: {port: 8003}\n", "bare", "router.port", "DP rank 3"},
		{"replicas", strings.Replace(routedBase, "data: 8, expert: true", "data: 4, expert: true, replicas: 2", 1) + "vllm: {version: \"0.11.0\"}\nrouter: {}\n", "bare", "router", "2 replicas"},
		{"replicas of one rank", strings.Replace(routedBase, "tensor: 1, data: 8, expert: true", "tensor: 1, data: 1, replicas: 8", 1) + "vllm: {version: \"0.11.0\"}\nrouter: {}\n", "bare", "router", "replicas of one DP rank"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, codes, msg := routedGen(t, tc.spec, tc.runtime)
			if b != nil || !slices.Contains(codes, string(CodeRouter)+"@"+tc.path) || !strings.Contains(msg, tc.say) {
				t.Errorf("bundle %v, errors %v (%s), want GEN014 at %s saying %q", b != nil, codes, msg, tc.path, tc.say)
			}
			if strings.HasPrefix(tc.name, "unknown") || strings.HasPrefix(tc.name, "absent") {
				if !strings.Contains(msg, "0.11.0") {
					t.Errorf("the refusal names no release that would allow it: %s", msg)
				}
			}
		})
	}
}
