package vllm

import "testing"

// TestDCPFacts: the flag from 0.10.2 (release notes, PR #23734; read at the tag), GQA from
// 0.11.1 (PR #24864, merged after 0.11.0), and vLLM's layout rules: TP a
// multiple of dcp; GQA needs TP > KV heads and dcp ≤ TP / KV heads
// (Qwen3-235B's 4 KV heads at TP 8: dcp ≤ 2; MiniMax's 8 at TP 4: none).
func TestDCPFacts(t *testing.T) {
	for _, c := range []struct {
		v        string
		flag, gq Presence
	}{{"0.10.1", Absent, Absent}, {"0.10.2", Present, Absent}, {"0.11.0", Present, Absent}, {"0.11.1", Present, Present}, {"0.20.0", Present, Present}} {
		r, _, err := ResolveString(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if d := r.DCP(); d.Flag != c.flag || d.GQA != c.gq {
			t.Errorf("%s: flag %v GQA %v, want %v %v", c.v, d.Flag, d.GQA, c.flag, c.gq)
		}
		if _, ok := r.Flag(DCPFlag); ok != (c.flag != Absent) {
			t.Errorf("%s: flag table has --%s = %t, Release.DCP says %v", c.v, DCPFlag, ok, c.flag)
		}
	}
	for _, c := range []struct {
		tp, dcp, kv int
		mla, ok     bool
	}{
		{8, 8, 1, true, true}, {8, 4, 1, true, true}, {8, 3, 1, true, false}, {16, 16, 1, true, true}, {4, 8, 1, true, false},
		{8, 2, 4, false, true}, {8, 4, 4, false, false}, {4, 2, 8, false, false}, {8, 2, 8, false, false}, {16, 2, 8, false, true}, {8, 1, 8, false, true},
	} {
		if got := DCPFits(c.tp, c.dcp, c.kv, c.mla); got != c.ok {
			t.Errorf("DCPFits(tp %d, dcp %d, kv heads %d, mla %t) = %t, want %t", c.tp, c.dcp, c.kv, c.mla, got, c.ok)
		}
	}
}

// TestDCPBackends: which attention backend accepts dcp > 1, per release
// (dcpBackendTable's citations): FlashMLA with the flag (PR #23734);
// FlashAttention with GQA support (PR #24864, 0.11.1); FlashInfer (GQA)
// refused up to 0.11.0 (issue #28407), unknown in 0.11.1-0.11.2, accepted
// from 0.12.0 (PR #25438); FlashInfer MLA and FlashMLA sparse refused up to
// 0.21.0 (PRs #43729, #45426), unknown after; FlashAttention MLA, Triton MLA
// and CUTLASS MLA unknown throughout; an unlisted backend unknown; nothing
// before the flag's 0.10.2.
func TestDCPBackends(t *testing.T) {
	const A, M, P = Absent, Maybe, Present
	for _, c := range []struct {
		backend string
		want    map[string]Presence
	}{
		{MLAFlashMLA, map[string]Presence{"0.10.1": A, "0.10.2": M, "0.11.0": P, "0.14.0": P, "0.26.0": P}},
		{AttnFlashAttn, map[string]Presence{"0.10.2": A, "0.11.0": A, "0.11.1": P, "0.20.0": P}},
		{AttnFlashInfer, map[string]Presence{"0.10.2": A, "0.11.0": A, "0.11.1": M, "0.11.2": M, "0.12.0": P, "0.20.0": P}},
		{"flashinfer", map[string]Presence{"0.11.0": A, "0.12.0": P}},
		{MLAFlashAttn, map[string]Presence{"0.10.1": A, "0.10.2": M, "0.11.1": M, "0.26.0": M}},
		{MLATriton, map[string]Presence{"0.10.2": M, "0.20.0": M}},
		{MLACutlass, map[string]Presence{"0.10.2": M, "0.13.0": M}},
		{MLAFlashInfer, map[string]Presence{"0.10.2": A, "0.14.0": A, "0.21.0": A, "0.22.0": M, "0.26.0": M}},
		{MLAFlashMLASparse, map[string]Presence{"0.11.0": A, "0.21.0": A, "0.22.0": M}},
		{"TRITON_ATTN", map[string]Presence{"0.10.1": A, "0.10.2": M, "0.20.0": M}},
	} {
		for v, want := range c.want {
			r, _, err := ResolveString(v)
			if err != nil {
				t.Fatal(err)
			}
			got, f, known := r.DCPBackend(c.backend)
			if got != want {
				t.Errorf("%s on %s: %v, want %v (%s)", c.backend, v, got, want, f.Source)
			}
			if known != (c.backend != "TRITON_ATTN") {
				t.Errorf("%s: known %t", c.backend, known)
			}
		}
	}
	for _, f := range DCPBackendFacts() {
		if f.Source == "" || f.Since.IsZero() {
			t.Errorf("%s: no source or no first release", f.Backend)
		}
		if !f.Confirmed.IsZero() && f.Confirmed.Less(f.Since) {
			t.Errorf("%s: confirmed %s before since %s", f.Backend, f.Confirmed, f.Since)
		}
	}
}

// TestGQABackend: FlashInfer first on compute capability 10.x, FlashAttention
// on 8.x and 9.x (cuda.py _get_backend_priorities), unknown elsewhere.
func TestGQABackend(t *testing.T) {
	r, _, _ := ResolveString("0.12.0")
	for sm, want := range map[int]string{10: AttnFlashInfer, 9: AttnFlashAttn, 8: AttnFlashAttn, 0: "", 12: ""} {
		if got, _ := r.GQABackend(sm); got != want {
			t.Errorf("sm %d: %q, want %q", sm, got, want)
		}
	}
}

// TestNixlDCP: NIXL knows DCP's sharding from PR #50611 (merged between
// 2026-08-18 and 2026-09-10: 0.27.1 predates it, 0.28.0 to 0.30.0 are
// unknown, 0.31.0 of 2026-10-02 has it), and its checks: dcp 1 or tp on each
// side, above 1 only for MLA, never under NixlPushConnector.
func TestNixlDCP(t *testing.T) {
	for v, want := range map[string]Presence{"0.11.0": Absent, "0.27.1": Absent, "0.28.0": Maybe, "0.30.0": Maybe, "0.31.0": Present} {
		if got := NixlDCPIn(mustVersion(v)).Aware; got != want {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
	for _, c := range []struct {
		conn    string
		tp, dcp int
		mla     bool
		hybrid  bool
		refused bool
	}{
		{"NixlConnector", 8, 1, false, false, false},
		{"NixlConnector", 8, 8, true, false, false},
		{"NixlConnector", 8, 4, true, false, true},
		{"NixlConnector", 8, 8, false, false, true},
		{"NixlConnector", 8, 8, true, true, true},
		{"NixlConnector", 8, 1, true, true, false},
		{"NixlPullConnector", 4, 4, true, false, false},
		{"NixlPushConnector", 8, 8, true, false, true},
		{"NixlPushConnector", 8, 1, true, false, false},
	} {
		if got := NixlDCPProblem(c.conn, c.tp, c.dcp, c.mla, c.hybrid) != ""; got != c.refused {
			t.Errorf("%s tp %d dcp %d mla %v: refused %v, want %v", c.conn, c.tp, c.dcp, c.mla, got, c.refused)
		}
	}
}

// TestDCPFlagsAtTags: the DCP flags as read at the release tags
// (flags_dcp_table.go): the interleave size from 0.11.1, --dcp-comm-backend
// from 0.18.0 with DCPCommBackend's choices where read (to 0.24.0), so
// `--dcp` abbreviates one flag in 0.11.1-0.17.x and two from 0.18.0; the
// -dcp alias from 0.10.2.
func TestDCPFlagsAtTags(t *testing.T) {
	for _, c := range []struct {
		v        string
		flag     string
		in       Presence
		choices  int
		prefixes int
	}{
		{"0.11.0", "--dcp-kv-cache-interleave-size", Absent, 0, 0},
		{"0.11.1", "--dcp-kv-cache-interleave-size", Present, 0, 1},
		{"0.12.0", "--cp-kv-cache-interleave-size", Present, 0, 1},
		{"0.17.1", "--dcp-comm-backend", Absent, 0, 1},
		{"0.18.0", "--dcp-comm-backend", Present, 2, 2},
		{"0.24.0", "--dcp-comm-backend", Present, 2, 2},
		{"0.25.0", "--dcp-comm-backend", Present, 0, 2},
		{"0.10.2", "-dcp", Present, 0, 0},
	} {
		r, _, err := ResolveString(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if in, _ := r.FlagIn(c.flag); in != c.in {
			t.Errorf("%s %s: %v, want %v", c.v, c.flag, in, c.in)
		}
		if f, ok := r.Flag(c.flag); ok && len(f.Choices) != c.choices {
			t.Errorf("%s %s: choices %v, want %d", c.v, c.flag, f.Choices, c.choices)
		}
		if n := len(r.PrefixMatches("--dcp")); n != c.prefixes {
			t.Errorf("%s: --dcp matches %d flags, want %d", c.v, n, c.prefixes)
		}
		if al, ok := r.ShortAliasFlag("--dcp"); !ok || al.Name != DCPFlag {
			t.Errorf("%s: --dcp as a slipped alias: %v %t", c.v, al, ok)
		}
	}
}

// TestLiteralChoicesWhereRead: Literal flags carry their choices only in the
// releases whose tags were read (to 0.24.0), and exist from the first tag
// that has them.
func TestLiteralChoicesWhereRead(t *testing.T) {
	for _, c := range []struct {
		v, flag string
		in      Presence
		choices int
	}{
		{"0.14.1", "--mamba-cache-mode", Absent, 0},
		{"0.15.0", "--mamba-cache-mode", Present, 3},
		{"0.24.0", "--mamba-cache-mode", Present, 3},
		{"0.28.0", "--mamba-cache-mode", Present, 0},
		{"0.10.1", "--mm-encoder-tp-mode", Absent, 0},
		{"0.10.2", "--mm-encoder-tp-mode", Present, 2},
		{"0.26.0", "--mm-encoder-tp-mode", Present, 0},
	} {
		r, _, err := ResolveString(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if in, _ := r.FlagIn(c.flag); in != c.in {
			t.Errorf("%s %s: %v, want %v", c.v, c.flag, in, c.in)
		}
		if f, ok := r.Flag(c.flag); ok && len(f.Choices) != c.choices {
			t.Errorf("%s %s: choices %v, want %d", c.v, c.flag, f.Choices, c.choices)
		}
	}
}
