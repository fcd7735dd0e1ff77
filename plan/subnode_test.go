package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// gptOSSSpec is gpt-oss-120b on one 8 × H100 node as TP 8.
const gptOSSSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata:
  name: gpt-oss
model:
  name: gpt-oss-120b
  path: /models/gpt-oss-120b
hardware:
  gpu: h100-80g
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 8}
workload:
  concurrency: 64
  max_model_len: 8192
  input_tokens: 1024
  output_tokens: 256
parallelism: {tensor: 8, pipeline: 1, data: 1}
vllm:
  version: "0.11.0"
`

func loadInline(t *testing.T, src string) *resolve.Deployment {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	return d
}

// TestPlanOffersSubNodeReplicas: plan enumerates, ranks and simulates
// replicas smaller than a node (issue #27): two TP 4 replicas of
// Qwen3-235B-A22B-FP8 on one 8 × H200 node (aiconfigurator's winner there),
// eight single-GPU replicas of gpt-oss-120b on 8 × H100; each fits, and
// generate writes it (plan keeps only what resolve.Place places).
func TestPlanOffersSubNodeReplicas(t *testing.T) {
	for _, tc := range []struct {
		name, src  string
		tp, dp, rr int
	}{
		{"qwen3-235b-a22b-fp8 1×8 h200", qwenFP8Spec, 4, 1, 2},
		{"gpt-oss-120b 1×8 h100", gptOSSSpec, 1, 1, 8},
	} {
		d := loadInline(t, tc.src)
		is := func(s Settings) bool {
			return s.TP == tc.tp && s.PP == 1 && s.DP == tc.dp && !s.EP && s.Replicas == tc.rr
		}
		enumerated := false
		for _, s := range NewSpace(d).Enumerate(d) {
			enumerated = enumerated || is(s)
		}
		if !enumerated {
			t.Errorf("%s: TP %d × DP %d × %d replicas not enumerated", tc.name, tc.tp, tc.dp, tc.rr)
			continue
		}
		r := Plan(d, Options{Seed: 1, Top: 1000})
		var ranked []string
		found := false
		for _, c := range r.Top {
			ranked = append(ranked, c.Settings.String())
			if is(c.Settings) {
				found = true
				if !c.Fits || c.OutputTokPerS <= 0 {
					t.Errorf("%s: %s fits %v, %.0f tok/s", tc.name, c.Settings, c.Fits, c.OutputTokPerS)
				}
			}
		}
		if !found {
			t.Errorf("%s: TP %d × %d replicas not ranked among\n%s", tc.name, tc.tp, tc.rr, strings.Join(ranked, "\n"))
		}
	}
}
