package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// pathSpec loads a spec serving the catalog's BF16 llama-3.3-70b from
// path with weights.
func pathSpec(t *testing.T, path, weights string) *spec.Deployment {
	t.Helper()
	y := `apiVersion: vlaunch/v1
kind: Deployment
model:
  name: llama-3.3-70b
  path: ` + path + `
  weights: ` + weights + `
hardware:
  gpu: h100-80g
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 4}
parallelism: {tensor: 4}
workload: {concurrency: 16, max_model_len: 16384, input_tokens: 2048, output_tokens: 512}
vllm:
  version: "0.11.0"
`
	p := filepath.Join(t.TempDir(), "spec.yaml")
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

// TestCheckpointDTypeOfPathCopy: Deployment.CheckpointDType is the format
// of the checkpoint vLLM loads — a pre-quantized copy model.path names
// (PathQuant) on a 16-bit catalog model, the model's own otherwise — and
// weights of the copy's format are its own: INT8 from a W8A8 copy is
// accepted (it was refused: "this checkpoint ships bf16"), FP8 from an FP8
// copy is not quantized online; weights auto stay the catalog's BF16 and
// say why (validate's GEN011 warns).
func TestCheckpointDTypeOfPathCopy(t *testing.T) {
	for _, c := range []struct {
		path, weights, ckpt, resolved string
		fromCkpt                      bool
		why                           string
	}{
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "fp8", "fp8", "fp8", true, "what the checkpoint model.path names ships"},
		{"RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "int8", "int8", "int8", true, "what the checkpoint model.path names ships"},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "auto", "fp8", "bf16", true, "model.path names an FP8 checkpoint, which vLLM serves instead"},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "bf16", "fp8", "bf16", true, ""},
		{"/models/Llama-3.3-70B-Instruct", "fp8", "bf16", "fp8", false, ""},
		{"/models/Llama-3.3-70B-Instruct", "auto", "bf16", "bf16", true, "what the checkpoint ships"},
	} {
		d, err := FromSpec(pathSpec(t, c.path, c.weights))
		if err != nil {
			t.Errorf("%s weights %s: %v", c.path, c.weights, err)
			continue
		}
		w := d.Engine.WeightsDType
		if got := d.CheckpointDType(); got != c.ckpt || w.Value != c.resolved || d.Engine.WeightsFromCheckpoint != c.fromCkpt || !strings.Contains(w.Why, c.why) {
			t.Errorf("%s weights %s: checkpoint %s, weights %s (from it %v, %q); want %s, %s (%v, %q)", c.path, c.weights,
				got, w.Value, d.Engine.WeightsFromCheckpoint, w.Why, c.ckpt, c.resolved, c.fromCkpt, c.why)
		}
	}
	// int8 from an FP8 copy is still refused, naming the copy's format.
	_, err := FromSpec(pathSpec(t, "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "int8"))
	if err == nil || !strings.Contains(err.Error(), "this checkpoint ships fp8") {
		t.Errorf("int8 from an FP8 copy: want a refusal naming fp8, got %v", err)
	}
}
