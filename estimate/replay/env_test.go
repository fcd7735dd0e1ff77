package replay

import (
	"reflect"
	"testing"
)

// envOf reads the VLLM_* assignments of a quoted launch command, wherever
// they sit in it, and nothing else.
func TestEnvOf(t *testing.T) {
	for flags, want := range map[string]map[string]string{
		"VLLM_MXFP4_USE_MARLIN=1 vllm serve openai/gpt-oss-120b --config config.yaml (async-scheduling, ...)": {"VLLM_MXFP4_USE_MARLIN": "1"},
		"env VLLM_USE_FLASHINFER_MOE_MXFP4_BF16=1; VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve x":      {"VLLM_USE_FLASHINFER_MOE_MXFP4_BF16": "1", "VLLM_ALL2ALL_BACKEND": "deepep_low_latency"},
		"vllm serve x --tensor-parallel-size 8":     nil,
		"NCCL_DEBUG=INFO vllm serve x --foo=VLLM_X": nil,
		"": nil,
	} {
		if got := envOf(flags); !reflect.DeepEqual(got, want) {
			t.Errorf("envOf(%q) = %v, want %v", flags, got, want)
		}
	}
}
