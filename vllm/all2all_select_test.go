package vllm

import "testing"

// TestAll2AllSelected pins vLLM's precedence between --all2all-backend and
// VLLM_ALL2ALL_BACKEND per release (PR #26732, PR #33535).
func TestAll2AllSelected(t *testing.T) {
	tests := []struct {
		version, flag, env, want string
		by                       Mechanism
	}{
		{"0.10.1", "", "", BackendNaive, 0},
		{"0.11.0", "", "pplx", "pplx", ViaEnv},
		{"0.11.0", "", "", BackendAllgatherReducescatter, 0},
		{"0.11.1", "deepep_low_latency", "naive", "deepep_low_latency", ViaFlag},
		{"0.11.1", "", "naive", "naive", ViaEnv},
		{"0.16.0", "", "naive", BackendAllgatherReducescatter, 0},
		{"0.16.0", "deepep_low_latency", "naive", "deepep_low_latency", ViaFlag},
	}
	for _, tt := range tests {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		if got, by := r.All2AllSelected(tt.flag, tt.env); got != tt.want || by != tt.by {
			t.Errorf("%s flag %q env %q: %s by %v, want %s by %v", tt.version, tt.flag, tt.env, got, by, tt.want, tt.by)
		}
	}
}
