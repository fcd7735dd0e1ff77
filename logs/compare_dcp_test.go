package logs

import (
	"strings"
	"testing"
)

func i64(v int64) *int64 { return &v }

// TestCompareDCPLog: the Kimi-K2-Thinking recipe's TP8+DCP8 lines
// (vllm-project/recipes moonshotai/Kimi-K2-Think.md at 0d218d1): 46.80 GiB
// and 5,721,088 tokens, the rank's tokens × 8. By hand: 46.80 GiB /
// (70,272 B × 64) = 11,173 blocks = 715,072 tokens per GPU, × 8 =
// 5,720,576 (−0.01%); the bytes per token the log implies are 46.80 GiB /
// (5,721,088 / 8) = 70,268 B, not 8,784 B.
func TestCompareDCPLog(t *testing.T) {
	e := Engine{ID: "dp0", AvailableKVGiB: f64(46.80), KVCacheTokens: i64(5721088)}
	p := Prediction{KVBytesPerToken: 70272, BlockSize: 64, DCP: 8, KVTokens: 8 * 715072}
	r := &Report{Engines: []Engine{e}}
	Compare(r, p)
	rows := map[string]Comparison{}
	for _, c := range r.Comparison {
		rows[c.Term] = c
	}
	if c, ok := rows["kv_cache_tokens_from_logged_memory"]; !ok || *c.Predicted != 5720576 || !*c.Within {
		t.Errorf("tokens from the logged memory: %+v, want 5,720,576 within 1%%", c)
	}
	if c, ok := rows["kv_bytes_per_token"]; !ok || c.Logged == nil || *c.Logged != 70268 {
		t.Errorf("bytes per token implied by the log: %+v, want 70,268", c)
	}
}

// TestCompareDCPMismatch: a log that ran DCP 8 against a spec without it
// (or the other way round) says so among the inputs that differ, with the
// factor the token figures move by; the same DCP says nothing.
func TestCompareDCPMismatch(t *testing.T) {
	eight, one := 8, 1
	for _, c := range []struct {
		logged *int
		spec   int
		want   string
	}{
		{&eight, 0, "the log ran decode context parallel 8, the spec 1: vLLM logs a rank's KV tokens × that size, so the token figures differ by ×8"},
		{&one, 8, "the log ran decode context parallel 1, the spec 8: vLLM logs a rank's KV tokens × that size, so the token figures differ by ×0.125"},
		{&eight, 8, ""},
		{nil, 8, ""},
	} {
		got := ""
		for _, d := range inputDiffs(&Engine{DCP: c.logged}, Prediction{DCP: c.spec}) {
			if strings.Contains(d, "decode context parallel") {
				got = d
			}
		}
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("logged %v, spec %d: %q, want %q", c.logged, c.spec, got, c.want)
		}
	}
}
