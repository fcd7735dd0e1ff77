package vllm

import "testing"

// TestEngineEraWithEnv: VLLM_USE_V1 picks the engine only in releases
// that read it (the env table) and have the engine it names.
func TestEngineEraWithEnv(t *testing.T) {
	for _, c := range []struct {
		version string
		env     map[string]string
		v0      bool
	}{
		{"0.7.1", nil, true},
		{"0.7.1", map[string]string{UseV1Env: "1"}, false}, // vllm PR #12569's server
		{"0.8.0", nil, false},
		{"0.8.0", map[string]string{UseV1Env: "0"}, true},
		{"0.6.4", map[string]string{UseV1Env: "1"}, true},   // no V1 engine yet
		{"0.11.0", map[string]string{UseV1Env: "0"}, false}, // V0 is gone
		{"0.12.0", map[string]string{UseV1Env: "0"}, false}, // the switch is gone
	} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.EngineEraWithEnv(c.env).V0Default(); got != c.v0 {
			t.Errorf("%s with %v: V0 %v, want %v", c.version, c.env, got, c.v0)
		}
	}
}
