package perf

import "github.com/vlaunch/vlaunch/catalog"

// UseKVWriteKernel counts the KV-cache write as a kernel of its own in
// every attention layer on the GPUs whose decode-attention fixed cost is
// not measured (Kernels.AttnDecodeS zero: the H20's and AMD's cited
// figures, GPUs with no figures at all). vLLM writes each forward's new
// keys and values into the paged cache with one kernel per attention layer
// before the attention kernel reads it: reshape_and_cache_flash for the
// FlashAttention, FlashInfer, FlexAttention and ROCm backends, and
// concat_and_cache_mla for MLA (read at vllm-project/vllm v0.11.0
// vllm/v1/attention/backends/flash_attn.py, flashinfer.py,
// mla/common.py; v0.15.0 flash_attn.py, flashinfer.py and
// vllm/model_executor/layers/attention/mla_attention.py; v0.19.0
// flash_attn.py FlashAttentionImpl.do_kv_cache_update, triton_attn.py,
// vllm/v1/attention/backend.py). The kernel census (eager.go) counts the
// attention as one kernel and so lacks it.
//
// Where the tables measure decode attention the write is already in:
// aiconfigurator's vLLM collector times impl.do_kv_cache_update with
// impl.forward (ai-dynamo/aiconfigurator 095f58a5, collector/vllm/
// collect_attn.py, run()), so Kernels.AttnDecodeS holds it (qknorm.go).
// DeepSeek-V4's census counts its fused cache insert itself. vLLM only:
// SGLang's attention backends store the KV through their own pools
// (set_kv_buffer), not read at a release here.
//
// Its cost is one kernel gap (its bytes, the step's new KV, are what the
// KV term already streams at decode sizes).
//
// On since session 42 (docs regenerated; off in brackets): holdout 448
// (447) of 647 within ±30%; MoE-EP TPOT median |error| 14.1% (14.9%; the
// Kimi-K2.5 DP8 EP8 H20 rows on 0.19, too fast at 4–64 sessions, 1–2
// points nearer), MoE-EP TTFT p99 8 (7) of 9; dense and MoE throughput
// and TPOT unchanged; calibration 202 of 220, aiconfigurator 111 of 141
// and the anchors unchanged. Of the figures that moved, 33 came nearer
// and 7 went 1–2 points further (MI355X Llama TP 1, H100 PCIe Qwen3-30B,
// already too slow).
var UseKVWriteKernel = true

// kvWriteKernels is the KV-write kernels one stage's forward pass runs
// that the census lacks (UseKVWriteKernel), over attnLayers attention
// layers per stage.
func kvWriteKernels(m *catalog.Model, s *StepSetup, attnLayers float64) float64 {
	if !UseKVWriteKernel || s.SGLang || s.Eff.Kernels.AttnDecodeS > 0 || m.DSV4 != nil {
		return 0
	}
	return attnLayers
}
