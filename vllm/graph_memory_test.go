package vllm

import "testing"

// TestGraphMemoryProfiling: from 0.20.0 vLLM subtracts its CUDA-graph
// memory estimate from the KV pool unless VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0
// (a 0.20.0 release log with the variable unset shows it on, although the
// line says "default since v0.21.0"); before, only with =1, and not at all
// in releases that do not read the variable (before PR #30515).
func TestGraphMemoryProfiling(t *testing.T) {
	for _, tt := range []struct {
		v          string
		value      string
		set        bool
		want       bool
		defaultOn  Presence
		variableIn Presence
	}{
		{"0.19.1", "", false, false, Absent, Present},
		{"0.19.1", "1", true, true, Absent, Present},
		{"0.20.0", "", false, true, Present, Present}, // the 0.20.0 log: on, variable unset
		{"0.20.2", "0", true, false, Present, Present},
		{"0.18.1", "1", true, true, Absent, Present}, // the v0.18.0 and v0.18.1 tags read it (default "0")
		{"0.19.0", "1", true, true, Absent, Present}, // 0.19.0's envs.py has it (default "0")
		{"0.16.0", "1", true, false, Absent, Absent}, // not in the v0.16.0 release branch
		{"0.21.0", "", false, true, Present, Present},
		{"0.21.0", "0", true, false, Present, Present},
		{"0.27.1", "", false, true, Present, Present},
		{"0.31.0", "", false, true, Present, Present},
		{"0.31.0", "2", true, true, Present, Present},
		{"0.31.0", "yes", true, true, Present, Present}, // not an integer: vLLM fails; counted as unset
		{"0.11.2", "1", true, false, Absent, Absent},    // the variable does not exist yet
	} {
		g := rel(t, tt.v).GraphMemoryProfiling()
		if g.DefaultOn != tt.defaultOn || g.VariableIn != tt.variableIn {
			t.Errorf("%s: default on %s, variable %s; want %s, %s", tt.v, g.DefaultOn, g.VariableIn, tt.defaultOn, tt.variableIn)
		}
		if got := g.Subtracts(tt.value, tt.set); got != tt.want {
			t.Errorf("%s %s=%q (set %v): subtracts %v, want %v", tt.v, g.Variable, tt.value, tt.set, got, tt.want)
		}
	}
	for v, want := range map[string]string{"0.19.1": "0", "0.20.0": "1", "0.21.0": "1", "0.31.0": "1"} {
		if got, ok := rel(t, v).EnvDefault(GraphMemoryVariable); !ok || got != want {
			t.Errorf("%s: EnvDefault = %q %v, want %q", v, got, ok, want)
		}
	}
}
