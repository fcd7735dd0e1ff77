package vllm

import "testing"

// TestRecentFlagPresence pins what the evidence says about issue #23's
// flags per release (FlagIn): Absent before a release that cannot have the
// flag (cut before its PR was opened), Maybe between that and the first
// release a source shows it in (lint: an info), Present from there.
func TestRecentFlagPresence(t *testing.T) {
	tests := []struct {
		version, flag string
		want          Presence
	}{
		// PR #30011 opened 2025-12-04, after 0.11.1; kserve #5507: 0.16.
		{"0.11.1", "--disable-access-log-for-endpoints", Absent},
		// flagspans45: FrontendArgs has the field from the v0.16.0 tag.
		{"0.11.2", "--disable-access-log-for-endpoints", Absent},
		{"0.15.1", "--disable-access-log-for-endpoints", Absent},
		{"0.16.0", "--disable-access-log-for-endpoints", Present},
		{"0.34.0", "--disable-access-log-for-endpoints", Present},
		// PR #36047 opened 2026-03-04, after 0.16.0; issue #45078 on 0.20.2.
		{"0.16.0", "--distributed-timeout-seconds", Absent},
		{"0.17.1", "--distributed-timeout-seconds", Absent}, // flagspans45: first at the v0.18.0 tag
		{"0.18.0", "--distributed-timeout-seconds", Present},
		{"0.19.0", "--distributed-timeout-seconds", Present}, // the v0.19.0 commit's arg_utils.py (factaudit2)
		{"0.20.1", "--distributed-timeout-seconds", Present},
		{"0.20.2", "--distributed-timeout-seconds", Present},
		// PR #16750 merged 2025-04-30: not in the v0.8.4 tag nor in 0.8.5
		// (tagged by 2025-04-29, issue #17410); in the v0.9.0 tag.
		{"0.5.3", "--kv-events-config", Absent},
		{"0.8.5", "--kv-events-config", Absent},
		{"0.9.0", "--kv-events-config", Present},
		{"0.22.1", "--kv-events-config", Present},
		{"0.28.0", "--kv-events-config", Present},
		// PR #31343 opened 2025-12-25; 0.17.1 docs show its consumer.
		{"0.11.2", "--default-chat-template-kwargs", Absent},
		{"0.13.0", "--default-chat-template-kwargs", Absent}, // flagspans45: first at the v0.14.0 tag
		{"0.14.0", "--default-chat-template-kwargs", Present},
		{"0.17.1", "--default-chat-template-kwargs", Present},
		{"0.10.1", "--enable-log-outputs", Present},
		{"0.10.0", "--enable-log-outputs", Absent}, // flagspans45: first at the v0.10.1 tag
		{"0.11.0", "--stream-interval", Absent},
		{"0.11.1", "--stream-interval", Present}, // arg_utils.py from the v0.11.1 tag (flagspans45)
		{"0.11.2", "--mamba-cache-mode", Absent},
		{"0.18.0", "--mamba-cache-mode", Present},
		{"0.28.0", "--no-disable-hybrid-kv-cache-manager", Present},
		{"0.34.0", "--additional_config", Present},
		{"0.34.0", "--config_format", Present},
		{"0.19.1", "--numa-bind", Absent}, // flagspans45: first at the v0.20.0 tag
		{"0.22.0", "--numa-bind", Present},
		{"0.22.1", "--numa-bind", Present},
		// The v0.19.0 commit's arg_utils.py adds --reasoning-config
		// (factaudit2, srcFAReasoning); issue #42399's "unrecognized
		// arguments" on the v0.20.1 image contradicts it (unresolved).
		{"0.16.0", "--reasoning-config", Absent},
		{"0.18.1", "--reasoning-config", Absent}, // flagspans45: first at the v0.19.0 tag; the v0.20.1 tag has it too
		{"0.19.0", "--reasoning-config", Present},
		{"0.20.1", "--reasoning-config", Present},
		{"0.28.0", "--reasoning-config", Present},
		// issue #23: present before the table's first release (0.5.3).
		{"0.5.3", "--served-model-name", Present},
		{"0.6.6", "--served-model-name", Present},
		{"0.8.5", "--served-model-name", Present},
	}
	for _, tt := range tests {
		got, _ := rel(t, tt.version).FlagIn(tt.flag)
		if got != tt.want {
			t.Errorf("%s: FlagIn(%q) = %v, want %v", tt.version, tt.flag, got, tt.want)
		}
	}
}

// TestLBConflictByRelease: hybrid with external LB is refused from 0.16.0
// (serve.py; EngineArgs too from 0.28.0), unpinned in 0.13-0.15, and not
// refused before 0.13.0 (one mode is dropped).
func TestLBConflictByRelease(t *testing.T) {
	for _, tt := range []struct {
		version string
		want    Presence
	}{
		{"0.10.1", Absent}, {"0.12.0", Absent}, {"0.13.0", Maybe}, {"0.15.1", Maybe},
		{"0.16.0", Present}, {"0.27.1", Present}, {"0.28.0", Present}, {"0.34.0", Present},
	} {
		got, why := rel(t, tt.version).LBConflict()
		if got != tt.want || why == "" {
			t.Errorf("%s: LBConflict() = %v %q, want %v", tt.version, got, why, tt.want)
		}
	}
	_, why := rel(t, "0.28.0").LBConflict()
	_, why16 := rel(t, "0.16.0").LBConflict()
	if why == why16 {
		t.Errorf("0.28.0 should cite EngineArgs' own check, 0.16.0 only serve.py: both %q", why)
	}
}
