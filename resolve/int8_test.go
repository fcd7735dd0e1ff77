package resolve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// int8Spec writes a spec serving config (a catalog/testdata/hf fixture) on
// gpu with weights, and loads it.
func int8Spec(t *testing.T, config, gpu, weights string) *spec.Deployment {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile("../catalog/testdata/hf/" + config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	y := `apiVersion: vlaunch/v1
kind: Deployment
model:
  config: config.json
  path: example/Meta-Llama-3.1-8B-Instruct-W8A8
  weights: ` + weights + `
hardware:
  gpu: ` + gpu + `
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 1}
parallelism: {tensor: 1}
workload: {concurrency: 16, max_model_len: 32768, input_tokens: 4096, output_tokens: 1024}
vllm:
  version: "0.20.0"
`
	p := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds := spec.Load(p)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	return d
}

// An INT8 W8A8 compressed-tensors checkpoint (config groups of 8-bit
// integer weights) resolves to weights int8, not fp8, on a GPU without FP8
// (A100) and on one with it (H100): vLLM runs it with
// CompressedTensorsW8A8Int8 on INT8 tensor cores either way. `weights:
// int8` (or its w8a8 spelling) is what the checkpoint ships; asked of an
// FP8 or a 16-bit checkpoint it is refused on model.weights.
func TestINT8W8A8Resolves(t *testing.T) {
	const int8Config = "llama-3.1-8b-instruct-w8a8-ct.written.json"
	for _, gpu := range []string{"a100-80gb", "h100"} {
		for _, w := range []string{"auto", "int8", "w8a8"} {
			r := mustResolve(t, int8Spec(t, int8Config, gpu, w))
			if e := r.Engine; e.WeightsDType.Value != "int8" || !e.WeightsFromCheckpoint {
				t.Errorf("%s, weights %s: %s (from checkpoint %t), want int8 from the checkpoint", gpu, w, e.WeightsDType.Value, e.WeightsFromCheckpoint)
			}
		}
	}
	m, err := catalog.LoadHFConfig("../catalog/testdata/hf/" + int8Config)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.CheckpointDType(); got != "int8" {
		t.Errorf("INT8 W8A8 checkpoint dtype %q, want int8", got)
	}

	fp8, err := catalog.LoadHFConfig("../catalog/testdata/hf/llama-3.1-8b-instruct-fp8-ct.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := fp8.CheckpointDType(); got != "fp8" {
		t.Errorf("compressed-tensors FP8 checkpoint dtype %q, want fp8", got)
	}
	bf16, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	for name, model := range map[string]*catalog.Model{"FP8": fp8, "BF16": bf16} {
		_, err := ResolveDTypes(model, "int8", "auto")
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != "model.weights" || !strings.Contains(err.Error(), "INT8 W8A8 checkpoints") {
			t.Errorf("weights int8 on the %s checkpoint: %v, want a model.weights error", name, err)
		}
	}
}
