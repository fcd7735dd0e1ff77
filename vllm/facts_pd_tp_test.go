package vllm

import "testing"

// TestPDTPPairing: the connector-aware P/D tensor-size decision validate
// and plan share. MooncakeConnector follows its own code (equal sizes only
// before 0.19.0; from it, divisible sizes with a decode TP at most the KV
// heads unless MLA); NIXL, and any connector vlaunch has not read, NIXL's
// (divisible sizes; a larger prefill TP refused before 0.12, Maybe until
// #27274).
func TestPDTPPairing(t *testing.T) {
	for _, c := range []struct {
		conn     string
		v        string
		p, d     int
		heads    int
		mla      bool
		refused  bool
		mooncake bool
	}{
		{"mooncake", "0.15.1", 1, 2, 8, false, true, true},
		{"MooncakeConnector", "0.16.0", 2, 1, 8, false, true, true},
		{"mooncake", "0.18.1", 4, 4, 8, false, false, true},
		{"mooncake", "0.18.1", 1, 4, 8, false, true, true},
		{"mooncake", "0.19.0", 1, 4, 8, false, false, true},
		{"mooncake", "0.19.0", 4, 8, 4, false, true, true},
		{"mooncake", "0.19.0", 4, 8, 4, true, false, true},
		{"mooncake", "0.19.0", 2, 3, 8, false, true, true},
		{"nixl", "0.18.1", 1, 4, 8, false, false, false},
		{"nixl", "0.11.0", 8, 2, 8, false, true, false},
		{"nixl", "0.12.0", 8, 2, 8, false, true, false},
		{"nixl", "0.14.0", 8, 2, 8, false, false, false},
		{"NixlConnector", "0.19.0", 2, 3, 8, false, true, false},
		{"lmcache", "0.11.0", 8, 2, 8, false, true, false},
	} {
		v, err := ParseVersion(c.v)
		if err != nil {
			t.Fatal(err)
		}
		got := PDTPPairing(c.conn, v, c.p, c.d, c.heads, c.mla)
		if got.Refused != c.refused || got.Mooncake != c.mooncake {
			t.Errorf("%s %s P TP %d D TP %d (%d KV heads, mla %t): refused %t mooncake %t, want %t %t",
				c.conn, c.v, c.p, c.d, c.heads, c.mla, got.Refused, got.Mooncake, c.refused, c.mooncake)
		}
		if got.Mooncake && got.Refused && got.Moon.Why == "" {
			t.Errorf("%s %s P TP %d D TP %d: refused without a reason", c.conn, c.v, c.p, c.d)
		}
	}
}
