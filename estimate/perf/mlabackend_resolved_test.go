package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
)

// TestStepSetupReadsResolvedMLABackend (qa44b F4): DeepSeek-V3 on MI300X
// at vLLM 0.22.1 with AITER on in vllm.env runs ROCM_AITER_MLA (the
// resolved deployment's choice: vllm/platforms/rocm.py at v0.22.1 puts it
// first when AITER is on); the step model prices the backend the
// deployment resolved, not the release's AITER-off default (TRITON_MLA).
func TestStepSetupReadsResolvedMLABackend(t *testing.T) {
	const y = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: aiter}
model: {name: deepseek-v3}
hardware:
  gpu: mi300x
  nodes:
    - {name: mi-0, address: 10.8.0.10, gpus: 8}
workload: {concurrency: 16, max_model_len: 8192, input_tokens: 1000, output_tokens: 200}
parallelism: {tensor: 8}
vllm:
  version: "0.22.1"
  block_size: 1
  env: {VLLM_ROCM_USE_AITER: "1"}
runtime: {kind: bare}
`
	in := testinput.FromYAML(t, "aiter.yaml", y)
	d := in.Resolved()
	if d == nil || d.Engine.MLABackend == "" {
		t.Fatal("no resolved MLA backend")
	}
	s := SetupFromInput(&in)
	if s.MLABackend != d.Engine.MLABackend {
		t.Errorf("step setup prices %s, the deployment resolved %s", s.MLABackend, d.Engine.MLABackend)
	}
	if def, _ := in.Release().MLABackend(in.GPU.ComputeMajor, false, false); def == d.Engine.MLABackend {
		t.Errorf("the release default (%s) equals the resolved backend: the case no longer tells them apart", def)
	}
}
