package perf

import "testing"

// TestKVFitsTextEmptyPool: a pool vLLM refuses to start with says so,
// not "KV fits 0 sequences" (qa41b: beside a 43,215-token pool).
func TestKVFitsTextEmptyPool(t *testing.T) {
	cases := []struct {
		d    DecodeInfo
		want string
	}{
		{DecodeInfo{KVSeqsPerRank: 0}, "KV holds no sequence: vLLM does not start with this KV pool (the memory section says why)"},
		{DecodeInfo{KVSeqsPerRank: 21}, "KV fits 21 sequences of input+output per rank"},
		{DecodeInfo{KVSeqsPerRank: 2, KVSessionTokens: 32768}, "KV fits 2 sessions of 32768 tokens (workload.session_tokens) per rank"},
	}
	for _, c := range cases {
		if got := c.d.KVFitsText(); got != c.want {
			t.Errorf("KVFitsText(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}
