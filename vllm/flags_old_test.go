package vllm

import (
	"strings"
	"testing"
)

// TestOldFlagPresence pins issue #23's old-release flags (sources_tags.go)
// per release: Absent where a tag read predates the flag's PR, Present from
// the first tag read that has it, Maybe in between (releases tagged off main,
// not read). Real configurations on 0.5.3 and 0.8.5 (lint corpus) use them.
func TestOldFlagPresence(t *testing.T) {
	tests := []struct {
		version, flag string
		want          Presence
	}{
		// cli_args.py at the 0.5.3 release commit bb2fc0807 has both; the
		// table's oldest release is 0.5.3.
		{"0.5.3", "--host", Present},
		{"0.5.3", "--port", Present},
		{"0.34.0", "--port", Present},
		// PR #3538 (2024-03-29); StoreBoolean at 0.5.3.
		{"0.5.3", "--enable-chunked-prefill", Present},
		{"0.8.5", "--enable-chunked-prefill", Present},
		// PR #10502 (2024-12-01): not in v0.6.4.post1 (2024-11-15), in
		// v0.6.6.post1 (2024-12-27); 0.6.5 not read.
		{"0.6.4", "--kv-transfer-config", Absent},
		{"0.6.5", "--kv-transfer-config", Present}, // arg_utils.py at the v0.6.5 tag (flagspans45)
		{"0.6.6", "--kv-transfer-config", Present},
		{"0.8.5", "--kv-transfer-config", Present},
		// PR #14305 (2025-03-06): not in v0.7.3 (2025-02-20); the v0.8.3
		// image's Namespace has it (issue #16177), the v0.8.4 tag too;
		// 0.8.0-0.8.2 were tagged off main.
		{"0.7.3", "--enable-expert-parallel", Absent},
		// arg_utils.py from the v0.8.0 tag (flagspans45)
		{"0.8.0", "--enable-expert-parallel", Present},
		{"0.8.2", "--enable-expert-parallel", Present},
		{"0.8.3", "--enable-expert-parallel", Present},
		{"0.8.4", "--enable-expert-parallel", Present},
		{"0.8.5", "--enable-expert-parallel", Present},
		// flagspans45: arg_utils.py registers the -ep alias from the v0.14.0 tag,
		// and --no-enable-expert-parallel from v0.8.4 (store_true before).
		{"0.8.5", "-ep", Absent},
		{"0.13.0", "-ep", Absent},
		{"0.14.0", "-ep", Present},
		{"0.8.3", "--no-enable-expert-parallel", Absent},
		{"0.8.4", "--no-enable-expert-parallel", Present},
		// PR #12432 (2025-02-11): not in v0.7.2, in v0.7.3.
		{"0.7.2", "--additional-config", Absent},
		{"0.7.3", "--additional-config", Present},
		{"0.11.0", "--additional-config", Present},
		// PR #8168 (2024-09-07): between the v0.6.0 (09-04) and v0.6.1
		// (09-11) version bumps.
		{"0.5.5", "--config-format", Absent},
		{"0.6.0", "--config-format", Absent}, // flagspans45: first at the v0.6.1 tag
		{"0.6.1", "--config-format", Present},
		{"0.11.1", "--config_format", Present},
		// Absent at the v0.10.1.1 tag, present at v0.10.2 (flags_dcp_table.go).
		{"0.10.1", "--mm-encoder-tp-mode", Absent},
		{"0.10.2", "--mm-encoder-tp-mode", Present},
		{"0.11.0", "--mm-encoder-tp-mode", Present},
		{"0.10.1", "--safetensors-load-strategy", Absent}, // flagspans45: first at the v0.10.2 tag
		{"0.10.2", "--safetensors-load-strategy", Present},
		{"0.11.0", "--safetensors-load-strategy", Present},
		{"0.23.0", "--safetensors-load-strategy", Present},
	}
	for _, tt := range tests {
		got, _ := rel(t, tt.version).FlagIn(tt.flag)
		if got != tt.want {
			t.Errorf("%s: FlagIn(%q) = %v, want %v", tt.version, tt.flag, got, tt.want)
		}
	}
}

// TestOldFlagSourcesNameTags: each changed entry cites the tag commits its
// bounds rest on, so a reader can check them with git.
func TestOldFlagSourcesNameTags(t *testing.T) {
	for flag, cites := range map[string][]string{
		"host":                   {"bb2fc0807", "issue #3296"},
		"enable-chunked-prefill": {"PR #3538", "bb2fc0807"},
		"kv-transfer-config":     {"PR #10502", "a6221a144", "2339d59f9"},
		"enable-expert-parallel": {"PR #14305", "ed6e9075d", "issue #16177", "dc1b4a6f1", "issue #18888"},
		"additional-config":      {"PR #12432", "0408efc6d", "ed6e9075d"},
		"kv-events-config":       {"PR #16750", "dc1b4a6f1", "issue #17410", "587387724"},
		"config-format":          {"PR #8168", "32e7db253", "3fd2b0d21"},
		"mm-encoder-tp-mode":     {"PR #23190", "b8b302cde434"},
	} {
		f, ok := Newest().Flag(flag)
		if !ok {
			t.Fatalf("%s: not in the table", flag)
		}
		for _, c := range cites {
			if !strings.Contains(f.Source, c) {
				t.Errorf("%s: source does not cite %s: %s", flag, c, f.Source)
			}
		}
	}
}
