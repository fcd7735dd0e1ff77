package vllm

import "testing"

// TestMooncakeTPPairing: the connector's heterogeneous-TP rules by release
// (facts_pd_mooncake.go), with qa44b F3's case: Qwen3-235B (4 KV heads),
// prefill TP4 into decode TP8.
func TestMooncakeTPPairing(t *testing.T) {
	for _, tt := range []struct {
		v          string
		p, d, kv   int
		mla        bool
		want       Presence
		wantHetero bool
	}{
		{"0.24.0", 4, 8, 4, false, Absent, true},   // decode replicates, prefill does not: every transfer errors
		{"0.19.0", 4, 8, 4, false, Absent, true},   // #36869's first release has the same check
		{"0.24.0", 8, 4, 4, false, Present, true},  // producer replicated: the check passes
		{"0.24.0", 4, 8, 8, false, Present, true},  // 8 heads: 2 per prefill rank = 2 decode regions
		{"0.24.0", 4, 8, 1, true, Present, true},   // MLA: replicated everywhere
		{"0.24.0", 4, 6, 8, false, Absent, true},   // not divisible: _get_tp_ratio asserts
		{"0.18.0", 4, 8, 8, false, Absent, false},  // NotImplementedError before #36869
		{"0.18.1", 8, 4, 8, false, Absent, false},  // either direction
		{"0.15.0", 4, 8, 8, false, Absent, false},  // port + tp_rank pairing
		{"0.18.0", 8, 8, 4, false, Present, false}, // equal sizes always pair
	} {
		got := MooncakeTPPairing(mustVersion(tt.v), tt.p, tt.d, tt.kv, tt.mla)
		if got.Pairs != tt.want || got.Hetero != tt.wantHetero {
			t.Errorf("%s P%d D%d kv%d mla=%v: %v hetero=%v, want %v hetero=%v (%s)", tt.v, tt.p, tt.d, tt.kv, tt.mla, got.Pairs, got.Hetero, tt.want, tt.wantHetero, got.Why)
		}
		if got.Pairs == Absent && (got.Why == "" || got.Source == "") {
			t.Errorf("%s P%d D%d: refused without a reason or a citation", tt.v, tt.p, tt.d)
		}
	}
}
