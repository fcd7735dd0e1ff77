package vllm

import "testing"

// TestLintfix44FlagPresence pins qa44a's F6 flags to the first tag whose
// arg_utils.py adds them (flags_lintfix44_table.go): the FlashInfer
// autotune switch (and its --no- form) from 0.16.0, the CPU group timeout
// from 0.22.0.
func TestLintfix44FlagPresence(t *testing.T) {
	tests := []struct {
		version, flag string
		want          Presence
	}{
		{"0.15.1", "--enable-flashinfer-autotune", Absent},
		{"0.16.0", "--enable-flashinfer-autotune", Present},
		{"0.16.0", "--no-enable-flashinfer-autotune", Present},
		{"0.24.0", "--no-enable-flashinfer-autotune", Present},
		{"0.21.0", "--cpu-distributed-timeout-seconds", Absent},
		{"0.22.0", "--cpu-distributed-timeout-seconds", Present},
		{"0.24.0", "--cpu-distributed-timeout-seconds", Present},
	}
	for _, tt := range tests {
		got, _ := rel(t, tt.version).FlagIn(tt.flag)
		if got != tt.want {
			t.Errorf("%s: FlagIn(%q) = %v, want %v", tt.version, tt.flag, got, tt.want)
		}
	}
}
