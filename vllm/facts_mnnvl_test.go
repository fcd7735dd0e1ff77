package vllm

import "testing"

// The facts of a multi-node NVLink deployment by release: when vLLM forces
// NCCL's cuMem off, which variables a bundle sets, and which backends cross
// trays over NVLink.
func TestMNNVLFacts(t *testing.T) {
	for v, want := range map[string]Presence{"0.8.4": Present, "0.8.5": Maybe, "0.9.0": Absent, "0.22.1": Absent} {
		if got, _ := rel(t, v).CuMemForcedOff(); got != want {
			t.Errorf("CuMemForcedOff(%s) = %v, want %v", v, got, want)
		}
	}
	names := func(v, backend string) map[string]string {
		out := map[string]string{}
		for _, e := range rel(t, v).MNNVLEnv(backend) {
			out[e.Name] = e.Value
		}
		return out
	}
	// VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL arrived after 0.11.0 (PR #27328).
	if got := names("0.11.0", BackendDeepEPLowLatency); got[EnvDeepEPLLMNNVL] != "" || got["NCCL_CUMEM_ENABLE"] != "1" || got["NCCL_MNNVL_ENABLE"] != "1" {
		t.Errorf("0.11.0 deepep_low_latency: %v", got)
	}
	if got := names("0.12.0", BackendDeepEPLowLatency); got[EnvDeepEPLLMNNVL] != "1" {
		t.Errorf("0.12.0 deepep_low_latency: %v, want %s=1", got, EnvDeepEPLLMNNVL)
	}
	if got := names("0.12.0", BackendAllgatherReducescatter); got[EnvDeepEPLLMNNVL] != "" {
		t.Errorf("0.12.0 allgather_reducescatter sets the DeepEP switch: %v", got)
	}
	for b, want := range map[string]bool{BackendDeepEPHighThroughput: false, BackendDeepEPLowLatency: true, BackendAllgatherReducescatter: true, "flashinfer_all2allv": true} {
		if got, src := A2AOverMNNVL(b); got != want || src == "" {
			t.Errorf("A2AOverMNNVL(%s) = %v (%q), want %v", b, got, src, want)
		}
	}
}
