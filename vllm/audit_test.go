package vllm

import "testing"

// The six facts issue #23's audit of this package against release sources
// found false, each with the release it was checked at.

// TestAttentionBackendEnvGone: VLLM_ATTENTION_BACKEND is not read from
// 0.16.0 (PR #32812 removed it; the 0.16.0 envs page already reflects the
// later PR #33535); the table had it read up to 0.25.x, so at 0.21 too.
func TestAttentionBackendEnvGone(t *testing.T) {
	for v, want := range map[string]bool{"0.14.1": true, "0.16.0": false, "0.21.0": false} {
		if _, got := rel(t, v).Env("VLLM_ATTENTION_BACKEND"); got != want {
			t.Errorf("%s reads VLLM_ATTENTION_BACKEND = %v, want %v", v, got, want)
		}
	}
	// flagspans45: vllm/envs.py at the v0.15.0 tag no longer registers it.
	if e, _ := KnownEnvEver("VLLM_ATTENTION_BACKEND"); e.Removed.Compare(v0150) != 0 {
		t.Errorf("removed in %s, want 0.15.0", e.Removed)
	}
}

// TestTurboQuantKVDTypes: 0.22 accepts the TurboQuant presets (0.20.0
// already parses turboquant_4bit_nc); the table refused them.
func TestTurboQuantKVDTypes(t *testing.T) {
	for _, v := range []string{"0.22.0", "0.22.1", "0.26.0", "0.31.0"} {
		f, ok := rel(t, v).Flag("--kv-cache-dtype")
		if !ok {
			t.Fatalf("%s: no --kv-cache-dtype", v)
		}
		for _, c := range []string{"turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc"} {
			if !f.HasChoice(c) {
				t.Errorf("%s refuses --kv-cache-dtype %s", v, c)
			}
		}
		if f.HasChoice("turboquant_9bit") {
			t.Errorf("%s: any turboquant_* accepted", v)
		}
	}
}

// TestMoriSplit: mori_high_throughput and mori_low_latency are accepted at
// 0.26.0 and 0.29.0 (the table had them in no release); --all2all-backend
// mori is gone by 0.26.0 (the table kept it forever).
func TestMoriSplit(t *testing.T) {
	for _, v := range []string{"0.26.0", "0.29.0"} {
		r := rel(t, v)
		for _, name := range []string{"mori_high_throughput", "mori_low_latency"} {
			if _, ok := r.All2AllBackend(name); !ok {
				t.Errorf("%s refuses %s", v, name)
			}
		}
		if _, ok := r.All2AllBackend("mori"); ok {
			t.Errorf("%s still accepts mori", v)
		}
	}
	if _, ok := rel(t, "0.22.1").All2AllBackend("mori"); !ok {
		t.Error("0.22.1 (argparse dump) accepts mori")
	}
	if _, ok := rel(t, "0.22.1").All2AllBackend("mori_low_latency"); ok {
		t.Error("0.22.1's dump has no mori_low_latency")
	}
}

// TestAPIServersWithStartRank: at 0.27 and 0.28 a node that serves the API
// with an explicit --data-parallel-start-rank (0 included) and no
// --api-server-count starts the local DP size of API servers (serve.py's
// hybrid default), not the global DP size.
func TestAPIServersWithStartRank(t *testing.T) {
	for _, v := range []string{"0.27.0", "0.27.1", "0.28.0"} {
		r := rel(t, v)
		for _, start := range []int{0, 8} {
			n := DPNode{Size: 32, LocalSizeSet: true, LocalSize: 8, StartRankSet: true, StartRank: start}
			if got, _ := r.DefaultAPIServers(n); got != 8 {
				t.Errorf("%s start rank %d: %d API servers, want the local size 8", v, start, got)
			}
		}
		if got, _ := r.DefaultAPIServers(DPNode{Size: 32, LocalSizeSet: true, LocalSize: 8}); got != 32 {
			t.Errorf("%s without a start rank: %d API servers, want the DP size 32", v, got)
		}
	}
}

// TestSeenIsNotFirst: a flag or backend known only from the release it was
// first seen in is unknown before it (Maybe, with that release), not
// absent (issue #23: --enable-elastic-ep, DBO with deepep_high_throughput).
func TestSeenIsNotFirst(t *testing.T) {
	for _, tt := range []struct {
		v, flag string
		want    Presence
		seen    string
	}{
		// factaudit2: not in the v0.16.0 release branch, in 0.19.0.
		// flagspans45: arg_utils.py has it from the v0.17.0 tag.
		{"0.18.1", "--enable-elastic-ep", Present, "0.17.0"},
		{"0.16.0", "--enable-elastic-ep", Absent, "0.0.0"},
		{"0.21.0", "--enable-elastic-ep", Present, "0.17.0"},
		// flagspans45: arg_utils.py has it from the v0.13.0 tag.
		{"0.13.0", "--attention-config", Present, "0.13.0"},
		{"0.12.0", "--attention-config", Absent, "0.0.0"},
		{"0.11.2", "--attention-config", Absent, "0.0.0"},
		{"0.11.0", "--all2all-backend", Absent, "0.0.0"},
		{"0.11.1", "--all2all-backend", Present, "0.11.1"},
	} {
		got, seen := rel(t, tt.v).FlagIn(tt.flag)
		if got != tt.want || seen.String() != tt.seen {
			t.Errorf("%s %s: %s seen %s, want %s seen %s", tt.v, tt.flag, got, seen, tt.want, tt.seen)
		}
	}
	// qa44a F8: every tag v0.11.0-v0.24.0 accepts deepep_high_throughput
	// for DBO (v0.11.0 through VLLM_ALL2ALL_BACKEND); nixl_ep from v0.24.0.
	for _, tt := range []struct {
		v        string
		ht, nixl bool
		verified bool
	}{
		{"0.11.0", true, false, true}, {"0.11.1", true, false, true}, {"0.14.0", true, false, true},
		{"0.23.0", true, false, true}, {"0.24.0", true, true, true}, {"0.26.0", true, true, false},
	} {
		d := rel(t, tt.v).DBORequirement()
		if d.Accepts(BackendDeepEPHighThroughput) != tt.ht || d.Accepts(BackendNixlEP) != tt.nixl || d.Verified != tt.verified {
			t.Errorf("%s: DBO backends %v verified %v, want high-throughput %v nixl_ep %v verified %v", tt.v, d.Backends, d.Verified, tt.ht, tt.nixl, tt.verified)
		}
		if d.MayAccept(BackendDeepEPHighThroughput) {
			t.Errorf("%s: deepep_high_throughput is read at the tags, not unverified", tt.v)
		}
	}
}

// TestReadsAttentionBackendEnv: the variable forces a backend up to 0.14.x
// and not from 0.15.0 (flagspans45: vllm/envs.py at the v0.15.0 tag has no
// such entry and nothing under vllm/ reads it).
func TestReadsAttentionBackendEnv(t *testing.T) {
	for v, want := range map[string]bool{"0.8.5": true, "0.14.1": true, "0.15.0": false, "0.16.0": false, "0.26.0": false} {
		if got := rel(t, v).ReadsAttentionBackendEnv(); got != want {
			t.Errorf("%s reads %s = %v, want %v", v, AttentionBackendEnv, got, want)
		}
	}
}
