package logs

import (
	"bytes"
	"strings"
	"testing"
)

// TestV1BareGPUBlocks (qa44c F6): the V1 engine of the 0.7 line logs its
// KV size as "# GPU blocks: N" with no CPU blocks after it
// (kv_cache_utils.py; the pattern of vllm PR #12569's log,
// https://github.com/vllm-project/vllm/pull/12569). The lines here are
// this test's own, in that form: the summary read "KV cache: ? tokens".
func TestV1BareGPUBlocks(t *testing.T) {
	log := `INFO 01-30 03:18:12 gpu_model_runner.py:848] Loading model weights took 60.0000 GB
INFO 01-30 03:19:14 kv_cache_utils.py:395] # GPU blocks: 1000
INFO 01-30 03:19:14 kv_cache_utils.py:398] Maximum concurrency for 4096 tokens per request: 3.91x
`
	r := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
	if len(r.Engines) != 1 {
		t.Fatalf("%d engines", len(r.Engines))
	}
	e := r.Engines[0]
	if e.NumGPUBlocks == nil || *e.NumGPUBlocks != 1000 {
		t.Fatalf("num_gpu_blocks %v, want 1000", e.NumGPUBlocks)
	}
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "KV cache: 1000 GPU blocks") {
		t.Errorf("summary does not give the blocks:\n%s", b.String())
	}
	// With a spec's block size the KV tokens are compared.
	Compare(r, Prediction{TP: 1, PP: 1, DP: 1, BlockSize: 16, KVTokens: 16000, KVBytesPerToken: 327680, MaxModelLen: 4096})
	found := false
	for _, c := range r.Comparison {
		if c.Term == "kv_cache_tokens" && c.Logged != nil && *c.Logged == 16000 {
			found = true
		}
	}
	if !found {
		t.Errorf("no kv_cache_tokens row with the logged 1000 × 16: %+v", r.Comparison)
	}
}
