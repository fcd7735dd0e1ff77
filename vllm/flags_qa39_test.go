package vllm

import "testing"

// TestQA39FlagPresence pins realin39's flags per release as arg_utils.py
// reads at the tags (flags_qa39_table.go): --device to 0.9.x, the Mamba
// cache dtypes from 0.10.1, --mamba-block-size from 0.11.1, and
// --engine-use-ray gone from 0.6.2 (0.6.1.post1 already lacks it).
func TestQA39FlagPresence(t *testing.T) {
	tests := []struct {
		version, flag string
		want          Presence
	}{
		{"0.5.3", "--device", Present},
		{"0.9.2", "--device", Present},
		{"0.10.0", "--device", Absent},
		{"0.34.0", "--device", Absent},
		{"0.10.0", "--mamba-cache-dtype", Absent},
		{"0.10.1", "--mamba-cache-dtype", Present},
		{"0.10.0", "--mamba-ssm-cache-dtype", Absent},
		{"0.10.1", "--mamba-ssm-cache-dtype", Present},
		{"0.34.0", "--mamba-ssm-cache-dtype", Present},
		{"0.11.0", "--mamba-block-size", Absent},
		{"0.11.1", "--mamba-block-size", Present},
		{"0.6.1", "--engine-use-ray", Present},
		{"0.6.2", "--engine-use-ray", Absent},
	}
	for _, tt := range tests {
		got, _ := rel(t, tt.version).FlagIn(tt.flag)
		if got != tt.want {
			t.Errorf("%s: FlagIn(%q) = %v, want %v", tt.version, tt.flag, got, tt.want)
		}
	}
	if f, ok := rel(t, "0.9.0").Flag("--device"); !ok || !f.Deprecated.AtLeast(mustVersion("0.9.0")) {
		t.Errorf("--device: want deprecated from 0.9.0 (deprecated=True at the v0.9.0 tag)")
	}
}
