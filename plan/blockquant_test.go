package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// qwenFP8Spec is Qwen3-235B-A22B-FP8 on one 8 × H200 node, the layout of
// issue #27 (TP 8 with expert parallelism: whole experts per rank).
const qwenFP8Spec = `apiVersion: vlaunch/v1
kind: Deployment
metadata:
  name: qwen-fp8
model:
  name: qwen3-235b-a22b-fp8
  path: /models/Qwen3-235B-A22B-FP8
hardware:
  gpu: h200
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 8}
workload:
  concurrency: 64
  max_model_len: 8192
  input_tokens: 1024
  output_tokens: 256
parallelism:
  tensor: 8
  pipeline: 1
  data: 1
  expert: true
vllm:
  version: "0.11.0"
`

// TestPlanKeepsWholeBlocks: plan never lists a layout that splits a
// block-FP8 checkpoint's weights into partial blocks
// (resolve.Layout.BlockSplitProblem, validate's SPEC124) — neither among
// the candidates it enumerates nor among those it ranks — for
// Qwen3-235B-A22B-FP8 on 8 × H200 and DeepSeek-V3 on 32 × H20; the
// reference's BF16 copy (no blocks) keeps the layouts the checkpoint's
// blocks refuse.
func TestPlanKeepsWholeBlocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "qwen.yaml")
	if err := os.WriteFile(path, []byte(qwenFP8Spec), 0o600); err != nil {
		t.Fatal(err)
	}
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatalf("qwen: %v %v", err, ds)
	}
	ref, _, _ := example(t, "deepseek-v3-32xh20")
	for _, tt := range []struct {
		name string
		dep  *resolve.Deployment
	}{{"qwen3-235b-a22b-fp8 8×h200", d}, {"deepseek-v3 32×h20", ref}} {
		dep, m := tt.dep, tt.dep.Model
		if len(m.Quant.WeightBlockSize) != 2 {
			t.Fatalf("%s: not block-quantized (%+v): the test would hold nothing", tt.name, m.Quant)
		}
		copyKept := false
		for _, s := range NewSpace(dep).Enumerate(dep) {
			l := resolve.Layout{TP: s.TP, DP: s.DP, EP: s.EP}
			if p := l.BlockSplitProblem(m, s.Weights == "auto"); p != "" {
				t.Errorf("%s: candidate %s enumerated, but vLLM refuses it: %s", tt.name, s, p)
			}
			copyKept = copyKept || s.Weights != "auto" && l.BlockSplitProblem(m, true) != ""
		}
		if dep == ref && !copyKept {
			t.Errorf("%s: no candidate of the BF16 copy at a layout the FP8 blocks refuse (TP 8 × DP 4 without EP): the copy has no blocks", tt.name)
		}
		r := Plan(dep, Options{Seed: 1, Top: 1000})
		if len(r.Top) == 0 {
			t.Fatalf("%s: no candidates", tt.name)
		}
		for _, c := range append(r.Top, r.Points...) {
			l := resolve.Layout{TP: c.TP, DP: c.DP, EP: c.EP}
			if p := l.BlockSplitProblem(m, c.Weights == "auto"); p != "" {
				t.Errorf("%s: candidate %s listed, but vLLM refuses it: %s", tt.name, c.Settings, p)
			}
		}
	}
}
