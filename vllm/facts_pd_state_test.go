package vllm

import "testing"

// TestNixlConvLayoutSpan: the DS conv layout NixlConnector asserts,
// release by release (srcSSMConvLayout): absent at the v0.19.0 commit
// 2a69949bd and the v0.19.1 tag, at the v0.20.0 tag (read by choices45)
// and the 0.21.0 checkout, still required after (PR #54489).
func TestNixlConvLayoutSpan(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want Presence
	}{
		{"0.18.0", Absent}, {"0.19.0", Absent}, {"0.19.1", Absent},
		{"0.20.0", Present}, {"0.21.0", Present}, {"0.22.1", Present}, {"0.28.0", Present},
	} {
		v := mustVersion(tt.v)
		if got := NixlConvLayoutNeed(v); got != tt.want {
			t.Errorf("NixlConvLayoutNeed(%s) = %v, want %v", tt.v, got, tt.want)
		}
		// The variable is in the env table exactly where the check is.
		r, _ := Resolve(v)
		_, known := r.Env(SSMConvLayoutEnv)
		if known != (tt.want != Absent) {
			t.Errorf("%s: env table has %s = %v, want %v", tt.v, SSMConvLayoutEnv, known, tt.want != Absent)
		}
	}
}

// TestStateTransfer: which connector moves which state in which release.
func TestStateTransfer(t *testing.T) {
	for _, tt := range []struct {
		conn string
		v    string
		k    StateLayer
		want Presence
	}{
		// NIXL + GDN: the 3-read split (0.20.0) raises for GDN until #41869 (0.22.0).
		{"NixlConnector", "0.19.0", StateGDN, Maybe},
		{"NixlConnector", "0.20.0", StateGDN, Absent},
		{"NixlConnector", "0.21.0", StateGDN, Absent},
		{"NixlConnector", "0.22.0", StateGDN, Present},
		{"NixlConnector", "0.22.1", StateGDN, Present},
		{"NixlPullConnector", "0.24.0", StateGDN, Present},
		{"NixlConnector", "0.20.0", StateMamba2, Present},
		{"NixlConnector", "0.19.0", StateMamba2, Maybe},
		{"NixlConnector", "0.22.1", StateKDA, Maybe},
		// Mooncake: no state before #46807 (0.25.0), GDN from it.
		{"MooncakeConnector", "0.16.0", StateGDN, Absent},
		{"MooncakeConnector", "0.22.1", StateGDN, Absent},
		{"MooncakeConnector", "0.24.0", StateGDN, Absent},
		{"MooncakeConnector", "0.25.0", StateGDN, Present},
		{"MooncakeConnector", "0.25.0", StateMamba2, Maybe},
		{"MooncakeConnector", "0.22.1", StateMamba2, Absent},
		{"LMCacheConnectorV1", "0.22.1", StateGDN, Maybe},
	} {
		got, src := StateTransfer(tt.conn, mustVersion(tt.v), tt.k)
		if got != tt.want || src == "" {
			t.Errorf("StateTransfer(%s, %s, %s) = %v (%q), want %v with a source", tt.conn, tt.v, tt.k, got, src, tt.want)
		}
	}
}

// TestPDStateEnv: the bundle's variables for a state model under NIXL,
// none for other models, other connectors or releases without the check.
func TestPDStateEnv(t *testing.T) {
	env, why := PDStateEnv("NixlConnector", mustVersion("0.22.1"), true)
	if env[SSMConvLayoutEnv] != SSMConvLayoutDS || len(env) != 1 || why == "" {
		t.Errorf("0.22.1 NIXL + state: %v %q, want %s=%s", env, why, SSMConvLayoutEnv, SSMConvLayoutDS)
	}
	// 0.19.1's tag has neither the variable nor the assertion (choices45).
	if env, _ := PDStateEnv("NixlConnector", mustVersion("0.19.1"), true); len(env) != 0 {
		t.Errorf("0.19.1 (read at the tag: no check) should get nothing: %v", env)
	}
	for _, tt := range []struct {
		conn  string
		v     string
		state bool
	}{
		{"NixlConnector", "0.22.1", false},
		{"NixlConnector", "0.19.0", true},
		{"MooncakeConnector", "0.25.0", true},
	} {
		if env, _ := PDStateEnv(tt.conn, mustVersion(tt.v), tt.state); len(env) != 0 {
			t.Errorf("PDStateEnv(%s, %s, %v) = %v, want none", tt.conn, tt.v, tt.state, env)
		}
	}
}
