package logs

// v1BlockRules read the V1 engine's KV size in the releases that logged
// it as a bare block count. vllm/v1/core/kv_cache_utils.py of the 0.7
// line (V1 opted into with VLLM_USE_V1=1) logs `logger.info("# GPU
// blocks: %d", num_blocks)` and then "Maximum concurrency for %s tokens
// per request: %.2fx" (num_blocks × block_size / max_model_len), with no
// CPU blocks after it: vllm PR #12569's log (Jan 2025, 0.7.x) has
// "kv_cache_utils.py:395] # GPU blocks: 1381" then "Maximum concurrency for
// 2048 tokens per request: 10.79x" (1381 × 16 / 2048). V0's line carries
// ", # CPU blocks: N" and is read in kvRules; later V1 releases log "GPU KV
// cache size: N tokens" instead (qa44c F6: this form was not read, so the
// summary said "KV cache: ? tokens").
func v1BlockRules() []rule {
	return []rule{
		r(one("# GPU blocks: "), `^# GPU blocks: (\d+)\s*$`, func(c *ctx, m [][]byte) {
			c.num(fGPUBlocks, m[1])
			c.phase(phKVCache)
		}),
	}
}
