package replay

// HeldOutNotes says, per held-out source, what its rows test that the
// calibration rows do not — the assumption a large error there points at.
// A band names the one of its dominant source.
var HeldOutNotes = map[string]string{
	"dstack-dsr1": "engine releases older than the calibration's (vLLM 0.7 on the V0 engine, SGLang 0.4) and AMD MI300X: " +
		"per-release kernel efficiency and prefill speed outside the fitted rows",
	"dstack-llama405":      "a dense 405B model on vLLM 0.6 (V0), MI300X in eager mode: eager and KV costs fitted on MoE layers",
	"tanjunchen-h20-2node": "TP16 across two H20 nodes over RoCE with an untuned SGLang build",
	"sglang-pr-3602":       "Poisson overload on H200 with an early-2025 SGLang build",
	"sglang-pr-9359":       "gpt-oss on B200 with DP attention: MXFP4 expert kernels on Blackwell",
	"vllm-issue-23752":     "DP lock-step on B200 with idle ranks (vllm.Release.IdleDPRanksSlow)",
	// Calibration sources, held out by refitting without them.
	"deepseek-day6":        "large-EP decode (EP144 on H800) from DeepSeek's production statistics",
	"lmsys-large-ep":       "large-EP prefill and decode on H100 over InfiniBand (DeepEP, two-batch overlap)",
	"lmsys-ant-h20":        "EP16/EP32 decode with MTP and TP8 prefill on H20 (an optimised SGLang)",
	"inferencex-870":       "TP8 closed-loop decode on H200 (SGLang 0.5.7)",
	"vllm-issue-28887":     "TP8 closed-loop TTFT on H200 (vLLM, Triton fused MoE)",
	"tanjunchen-h20-1node": "vLLM 0.8.2 in eager mode on 8 × H20: launch-bound steps",
	"gpustack-perflab":     "bursts of 100–1,000 prompts on vLLM 0.10–0.11 (H200, H100, A100): TTFT as queueing, KV capacity, the API server",
	"inferencex-828":       "gpt-oss-120b closed loops on vLLM 0.15.1 (TP2–TP8 on H100): MXFP4 experts and a newer release's step costs",
	"vllm-pr-23151":        "a small MoE (Qwen3-30B-A3B, BF16) on one H100, vLLM 0.10: expert reads at few sequences",
	"vllm-pr-25398":        "TP2 + EP2 over PCIe (Qwen3-30B-A3B-FP8 on H100 PCIe): PCIe collectives and long contexts",
}
