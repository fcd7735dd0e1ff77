package logs

import "testing"

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
