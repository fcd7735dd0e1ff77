package input

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestDBOFollowsVLLMsAssertion: the models see DBO only where vLLM runs it
// (vllm.Release.DBORequirement): with enable_dbo, a release that has the
// flag, and a backend the assertion accepts — DeepEP low-latency, and
// high-throughput (both accepted by every tag's assertion from v0.11.0,
// qa44a F8) — never pplx, FlashInfer or the gathers.
func TestDBOFollowsVLLMsAssertion(t *testing.T) {
	for _, tt := range []struct {
		version, backend string
		on, want         bool
	}{
		{"0.11.0", vllm.BackendDeepEPLowLatency, true, true},
		{"0.11.0", vllm.BackendDeepEPLowLatency, false, false},
		{"0.11.0", vllm.BackendPPLX, true, false},
		{"0.11.0", vllm.BackendDeepEPHighThroughput, true, true}, // v0.11.0 vllm/config/__init__.py:480-488
		{"0.11.0", vllm.BackendAllgatherReducescatter, true, false},
		{"0.11.0", "", true, false},
		{"0.14.0", vllm.BackendDeepEPHighThroughput, true, true},
		{"0.10.2", vllm.BackendDeepEPLowLatency, true, false}, // no --enable-dbo yet
	} {
		in := Input{VLLMVersion: tt.version, All2AllBackend: tt.backend, EnableDBO: tt.on}
		if got := in.DBO(); got != tt.want {
			t.Errorf("vLLM %s, %q, enable_dbo %v: DBO %v, want %v", tt.version, tt.backend, tt.on, got, tt.want)
		}
	}
}
