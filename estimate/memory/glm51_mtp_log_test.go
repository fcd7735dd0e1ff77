package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
)

// glm51MTPSpec is the layout of the GLM-5.1 start-up that
// voipmonitor/rtx6kpro records in models/glm5.1/vllm-b12x-nsa-mtp-port-2026-05-02.md
// (at 9192047): GLM-5.1 on one node of eight RTX PRO 6000 at TP 8, an FP8
// KV cache, max_model_len 202,752, utilization 0.89, MTP drafting 3 tokens.
const glm51MTPSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: glm51-mtp-rtx6kpro}
model: {name: glm-5-fp8, weights: fp8}
hardware:
  gpu: rtx-pro-6000
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 8}
workload: {max_model_len: 202752}
parallelism: {tensor: 8, pipeline: 1, data: 1}
vllm:
  version: "0.20.0"
  gpu_memory_utilization: 0.89
  kv_cache_dtype: fp8
  speculative: {method: mtp, num_speculative_tokens: 3}
`

// TestGLM51FP8KVWithMTPLog reproduces the KV lines of that start-up
// ("Available KV cache memory: 25.09 GiB", "GPU KV cache size: 432,832
// tokens", "Maximum concurrency for 202,752 tokens per request: 2.13x")
// from its logged memory. By hand: with an FP8 cache every GLM-5 layer
// holds fp8_ds_mla's 512 FP8 + 4 × 4 B scales + 64 × 2 B RoPE key = 656 B
// and the indexer's 128 + 4 = 132 B, 78 × 788 = 61,464 B per token, and
// the MTP layer vLLM runs as the proposer one more 788 B: 62,252 B; 25.09
// GiB makes 6,761 blocks of 64 tokens (vLLM, from the unrounded memory:
// 6,763) = 432,704 tokens (−0.03%), and 6,761 / ceil(202,752 / 64) =
// 2.13x. The run is a patched vLLM tree (B12X sparse-MLA backend) with
// lukealonso/GLM-5.1-NVFP4-MTP, an NVFP4 build the catalog does not hold,
// so only the KV layout is compared; its --hf-overrides index_topk_pattern
// did not reduce the indexer caches in that tree (all 78 are in the
// logged figure), so the catalog's GLM-5 (no pattern) is the right input.
func TestGLM51FP8KVWithMTPLog(t *testing.T) {
	in := testinput.FromYAML(t, "glm51.yaml", glm51MTPSpec)
	r := Estimate(&in)
	kv := r.Stages[0].KV
	if kv.BytesPerToken-kv.DraftBytesPerToken != 78*788 || kv.DraftBytesPerToken != 788 {
		t.Fatalf("%d B per token (draft %d), want 61,464 + 788", kv.BytesPerToken, kv.DraftBytesPerToken)
	}
	// The same tree's second public run (models/glm5.1/glm51-sglang-vllm-cc32-state-2026-05-03.md:
	// utilization 0.82, max_model_len 65,536): 19.12 GiB, 329,792 tokens, 5.03x.
	for _, lg := range []struct {
		availGiB    float64
		blocks      float64
		tokens      float64
		maxModelLen float64
		conc        float64
	}{
		{25.09, 6761, 432832, 202752, 2.13},
		{19.12, 5152, 329792, 65536, 5.03},
	} {
		blocks := math.Floor(lg.availGiB * GiB / float64(64*kv.BytesPerToken))
		if blocks != lg.blocks {
			t.Errorf("%.2f GiB: %v blocks, want %v", lg.availGiB, blocks, lg.blocks)
			continue
		}
		if tok := blocks * 64; math.Abs(tok/lg.tokens-1) > 0.001 {
			t.Errorf("%.2f GiB: GPU KV cache size %.0f, the log says %.0f", lg.availGiB, tok, lg.tokens)
		}
		if c := blocks / math.Ceil(lg.maxModelLen/64); math.Abs(c-lg.conc) > 0.005 {
			t.Errorf("%.2f GiB: concurrency %.3f, the log says %.2fx", lg.availGiB, c, lg.conc)
		}
	}
}
