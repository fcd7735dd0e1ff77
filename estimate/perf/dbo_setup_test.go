package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestNoOverlapWhereVLLMRefusesDBO: enable_dbo with a point-to-point
// backend vLLM's DBO assertion does not accept (FlashInfer's all2allv,
// pplx) is costed like DBO off: vLLM would not start, let alone overlap.
// With DeepEP low-latency the overlap stays.
func TestNoOverlapWhereVLLMRefusesDBO(t *testing.T) {
	base := testinput.Example(t, "deepseek-v3-fp8-2x8h200")
	for _, tt := range []struct {
		backend string
		overlap bool
	}{{"flashinfer_all2allv", false}, {vllm.BackendPPLX, false}, {vllm.BackendDeepEPLowLatency, true}} {
		in := base
		in.All2AllBackend, in.EnableDBO = tt.backend, true
		on := SetupFromInput(&in)
		in.EnableDBO = false
		off := SetupFromInput(&in)
		if on.DBO != tt.overlap {
			t.Errorf("%s with enable_dbo: setup DBO %v, want %v", tt.backend, on.DBO, tt.overlap)
		}
		pOn, _ := NewStepModel(on).DecodeAt(512, 2000)
		pOff, _ := NewStepModel(off).DecodeAt(512, 2000)
		if same := pOn.TPOTS == pOff.TPOTS; same == tt.overlap {
			t.Errorf("%s: TPOT with enable_dbo %.6f s, without %.6f s (overlap expected: %v)", tt.backend, pOn.TPOTS, pOff.TPOTS, tt.overlap)
		}
	}
}
