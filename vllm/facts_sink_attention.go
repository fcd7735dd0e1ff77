package vllm

// Which kernel runs the attention of a model with attention sinks (gpt-oss:
// one trained sink logit per query head, head dim 64, sliding-window layers
// of 128 tokens interleaved 1:1 with full ones) on a Hopper GPU, per release.
//
//   - vLLM's gpt-oss launch post (blog.vllm.ai 2025-08-05, "gpt-oss", the
//     release that brought GptOssForCausalLM: 0.10.1): "vLLM has integrated
//     special GPU kernels from FlashInfer (Blackwell) and FlashAttention 3
//     (Hopper)"; Colfax "implemented the necessary changes to adapt to
//     attention sinks" in FA3.
//   - The attention selector of later releases keeps that choice without a
//     model-specific rule: vllm/platforms/cuda.py _get_backend_priorities puts
//     FLASH_ATTN first for every non-MLA model below SM100, in both stored
//     versions read (the dict form {FLASH_ATTN: 0, FLASHINFER: 1, TRITON_ATTN:
//     2, …} and the later list form [FLASH_ATTN, …]), and FlashAttentionBackend.
//     supports_sink is true where FA3's s_aux argument exists (Hopper).
//   - aiconfigurator's collector timed the head-dim-64, window-128 decode rows
//     of its H100 and H200 tables as vllm_flash_attn_fa3 (ai-dynamo/
//     aiconfigurator 095f58a51c4c, systems/data/{h100_sxm,h200_sxm}/attention/
//     vllm/0.24.0/generation_attention_perf.parquet, kernel_source).
//
// No release read removes it; the recipe's Hopper configuration (vllm-project/
// recipes OpenAI/GPT-OSS_Hopper.yaml) sets no attention backend. A deployment
// that forces another backend (--attention-backend, VLLM_ATTENTION_BACKEND) is
// not modelled here.
const srcSinkAttentionHopper = "blog.vllm.ai/2025/08/05/gpt-oss.html (FlashAttention 3 with attention sinks on Hopper at gpt-oss's launch, vLLM 0.10.1); " +
	"vllm/platforms/cuda.py _get_backend_priorities (FLASH_ATTN first below SM100; two stored versions, releases not read one by one); " +
	"vllm/v1/attention/backends/flash_attn.py FlashAttentionBackend.supports_sink; " +
	"ai-dynamo/aiconfigurator 095f58a51c4c systems/data/h100_sxm|h200_sxm/attention/vllm/0.24.0 (head dim 64, window 128: vllm_flash_attn_fa3)"

// fa3SinksHopper: releases whose Hopper attention for sink models is
// FlashAttention 3 (from gpt-oss's launch release on; nothing read removes it).
var fa3SinksHopper = Span{Since: v0101}

// SinkAttentionFA3Hopper reports whether release r runs a sink model's
// attention (gpt-oss) with FlashAttention 3 on a Hopper GPU, and the source.
func (r Release) SinkAttentionFA3Hopper() (Presence, string) {
	return fa3SinksHopper.In(r.Version), srcSinkAttentionHopper
}
