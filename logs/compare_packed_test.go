package logs

import (
	"strings"
	"testing"
)

// packedLog is this test's own three lines in the form of a hybrid
// model's V1 start-up (the pattern of vllm-project/vllm#28228,
// https://github.com/vllm-project/vllm/issues/28228: Kimi-Linear on
// 2 × RTX 3090, whose log gives 2.30 GiB and 75,840 tokens).
const packedLog = `(Worker_TP0 pid=2) INFO 11-06 10:51:48 [gpu_worker.py:349] Available KV cache memory: 2.00 GiB
(EngineCore_DP0 pid=1) INFO 11-06 10:51:48 [kv_cache_utils.py:1229] GPU KV cache size: 60,480 tokens
(EngineCore_DP0 pid=1) INFO 11-06 10:51:48 [kv_cache_utils.py:1234] Maximum concurrency for 100,000 tokens per request: 2.30x
`

func rowNamed(t *testing.T, r *Report, term string) Comparison {
	t.Helper()
	for _, c := range r.Comparison {
		if c.Term == term {
			return c
		}
	}
	t.Fatalf("no %s row: %+v", term, r.Comparison)
	return Comparison{}
}

// TestPackedTokensFromLoggedMemory (qa44c F5): a hybrid's tokens from the
// logged memory are the memory model's count of the logged quantity
// (blocks of every group among the groups), not the memory over the
// attention layers' bytes per token; the implied bytes per token, which
// carry the state pages, are not compared.
func TestPackedTokensFromLoggedMemory(t *testing.T) {
	r := analyzeStrings(t, map[string]string{"a.log": packedLog}, "a.log")
	var gotAvail float64
	Compare(r, Prediction{TP: 2, PP: 1, DP: 1, BlockSize: 16, MaxModelLen: 100000, KVBytesPerToken: 8064, DeviceGiB: 24, Utilization: 0.9,
		WeightsGiB: 10, AvailableKVGiB: 2.1, KVTokens: 63000,
		LoggedKVTokens: func(avail float64) (int64, bool) { gotAvail = avail; return 60480, true }})
	row := rowNamed(t, r, "kv_cache_tokens_from_logged_memory")
	if row.Predicted == nil || *row.Predicted != 60480 || row.Within == nil || !*row.Within {
		t.Errorf("tokens from logged memory: %+v, want 60,480 predicted, within target", row)
	}
	if gotAvail != 2*gib {
		t.Errorf("the memory model was given %.0f B, want the logged 2 GiB", gotAvail)
	}
	if bpt := rowNamed(t, r, "kv_bytes_per_token"); bpt.Error != nil || !strings.Contains(bpt.Explanation, "state pages") {
		t.Errorf("bytes per token compared for a packed layout: %+v", bpt)
	}
	// Without the packed rule the per-token pool stands (a dense model).
	r = analyzeStrings(t, map[string]string{"a.log": packedLog}, "a.log")
	Compare(r, Prediction{TP: 2, PP: 1, DP: 1, BlockSize: 16, MaxModelLen: 100000, KVBytesPerToken: 8064})
	if row := rowNamed(t, r, "kv_cache_tokens_from_logged_memory"); row.Predicted == nil || *row.Predicted != 266304 {
		t.Errorf("per-token pool: %+v, want 2 GiB / (8064 × 16) blocks × 16 = 266,304", row)
	}
}

// TestWeightsAloneExceedTheCard (qa44c F10): with predicted weights above
// the usable memory and a positive logged KV memory, the available-memory
// row names the weights (a quantized checkpoint the spec does not
// name), not "cannot say which one differs".
func TestWeightsAloneExceedTheCard(t *testing.T) {
	r := analyzeStrings(t, map[string]string{"a.log": packedLog}, "a.log")
	Compare(r, Prediction{TP: 2, PP: 1, DP: 1, BlockSize: 16, MaxModelLen: 100000, KVBytesPerToken: 8064,
		DeviceGiB: 23.58, Utilization: 0.95, WeightsGiB: 45.78, AvailableKVGiB: -28.58})
	row := rowNamed(t, r, "available_kv_gib")
	if !strings.Contains(row.Explanation, "the weights differ") || !strings.Contains(row.Explanation, "45.78 GiB") || strings.Contains(row.Explanation, "cannot say which one differs") {
		t.Errorf("explanation %q", row.Explanation)
	}
	// Weights that fit leave the old words.
	r = analyzeStrings(t, map[string]string{"a.log": packedLog}, "a.log")
	Compare(r, Prediction{TP: 2, PP: 1, DP: 1, BlockSize: 16, MaxModelLen: 100000, KVBytesPerToken: 8064,
		DeviceGiB: 23.58, Utilization: 0.95, WeightsGiB: 15, AvailableKVGiB: 5})
	if row := rowNamed(t, r, "available_kv_gib"); strings.Contains(row.Explanation, "the weights differ") {
		t.Errorf("weights named although they fit: %q", row.Explanation)
	}
}
