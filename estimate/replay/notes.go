package replay

// HeldOutNotes says, per held-out source, what its rows test that the
// calibration rows do not — the assumption a large error there points at.
// A band names the one of its dominant source.
var HeldOutNotes = map[string]string{
	"dstack-dsr1": "engine releases older than the calibration's (vLLM 0.7 on the V0 engine, SGLang 0.4) and AMD MI300X: " +
		"per-release kernel efficiency and prefill speed outside the fitted rows",
	"dstack-llama405":         "a dense 405B model on vLLM 0.6 (V0), MI300X in eager mode: eager and KV costs fitted on MoE layers",
	"tanjunchen-h20-2node":    "TP16 across two H20 nodes over RoCE with an untuned SGLang build",
	"sglang-pr-3602":          "Poisson overload on H200 with an early-2025 SGLang build",
	"sglang-pr-9359":          "gpt-oss on B200 with DP attention: MXFP4 expert kernels on Blackwell",
	"vllm-issue-23752":        "DP lock-step on B200 with idle ranks (vllm.Release.IdleDPRanksSlow)",
	"inferencex-pr-3183":      "DeepSeek-R1 NVFP4 on B300 with TP+EP (SGLang 0.5.12): FP4 experts and Blackwell Ultra, modelled with the FP8 checkpoint's bytes",
	"inferencex-pr-3318":      "DeepSeek-R1 FP8 on MI325X, TP8 at 8K/1K (SGLang 0.5.19): AMD kernels and long prompts",
	"gpustack-qwen3-8b-h100":  "dense Qwen3-8B on one H100 under vLLM 0.11 closed loops of 1–8 ShareGPT sessions: a dense model's decode and prefill on a measured GPU",
	"gpustack-qwen3-14b-a100": "the same dense Qwen3-14B bursts on one A100 (vLLM 0.11, SGLang 0.5.5): Ampere bandwidth and BF16 compute, no FP8, under the H100 page's protocol",
	"gpustack-qwen3-14b-h100": "dense Qwen3-14B bursts of 100–1,000 prompts on one H100 (vLLM 0.11, SGLang 0.5.5): a dense model's prefill queue, KV capacity and mixed steps under load",
	"gpustack-glm45air-h100":  "GLM-4.5-Air bursts on H100 with TP, EP and PP4 (vLLM 0.11, SGLang), its vLLM TP4 random bursts on 4 × A100 (the page copied the lab's A100 block): a GQA MoE other than DeepSeek's, pipeline stages",
	"nim-llm-benchmarking":    "dense Llama-3.3-70B FP8 TP2 on H100 under NVIDIA NIM (not vLLM): a comparison, excluded from fits and bands",
	"trtllm-perf-overview":    "dense Llama-3.3-70B offline throughput under TensorRT-LLM (not vLLM): a comparison, excluded from fits and bands",
	"vllm-pr-25135":           "dense Llama-3.1-405B MXFP4 on one MI355X (vLLM ROCm): a dense model on CDNA4 with MXFP4 weights",
	"vllm-pr-20759":           "dense Llama-3.1-70B BF16 TP4 on B200 under Poisson load (vLLM 0.9.2): Blackwell dense decode and TTFT at light load",
	"vllm-issue-20710":        "dense Llama-3.3-70B FP8 on 2 × B200 (incomplete rows)",
	"sglang-cookbook-llama31-a100": "dense Llama-3.1-70B BF16 TP8 on 8 × A100 under SGLang 0.5.6 closed loops of 1–100 sessions at ~1K and ~8K prompts: " +
		"dense TP8 all-reduce and Ampere decode, from a publisher outside GPUStack",
	"lmsys-gb200-part2": "DP48 + EP48 decode on one GB200 NVL72 (SGLang, FP8 KV, NVFP4 experts, 1,408 sequences per GPU): all-to-all over a rack's NVLink domain",
	"tant2tls-blog-arch-h100": "DeepSeek-V4-Flash (sparse MLA, FP4 experts) TP8 + EP8 on H100 under a vLLM 0.31 dev build, closed loops of 1 and 8 at 1K–64K prompts: " +
		"a new attention family, long-context prefill and a current release's step costs",
	"vllm-pr-29284": "vLLM wide-EP decode across four H200 nodes (DP32 + EP32 over InfiniBand, DeepEP low-latency, DBO, EPLB, 512 sequences per rank): " +
		"inter-node all-to-all and dual-batch overlap on vLLM 0.11.1, and 32 API servers streaming one deployment's output",
	"inferencex-exp-minimax-m25-h200": "MiniMax-M2.5 FP8 on 8 × H200 under vLLM main of 2026-02-12, TP8 + EP8 closed loops of 4–64 at 1K–32K prompts and 128 outputs, and DP8 attention + EP8 at 1K/2K: " +
		"a 256-expert MoE no calibration row has, long prefills under load, and a second moe-ep p99 TTFT (the sweep's later runs repeat earlier prompts: their TTFT is excluded)",
	"inferencex-pr-832": "MiniMax-M2.5 FP8 TP8 + EP8 and TP4 + EP4 on H100 under vLLM 0.16.0 (piecewise CUDA graphs), 4 sessions at 1K/1K through InferenceX's harness: " +
		"the same model and release as the experimental H200 sweep, measured with mean statistics on fresh servers",
	"vllm-pr-26887": "Qwen3-Next-80B-A3B-Instruct-FP8 TP2 on 2 × H100 under vLLM 0.11.0, a closed loop of 64 at 128/1024 with prefix caching off: " +
		"a hybrid Gated DeltaNet MoE's decode and a loaded closed loop's p99 TTFT in the moe class",
	"pegainfer-vllm-h20-baseline": "vLLM 0.19 serving Kimi-K2.5 (INT4 experts) with DP8 + EP8 on 8 × H20-3e, closed loops of 1–256 sessions: " +
		"idle DP ranks on a release after the fix, INT4 Marlin experts on low-compute Hopper, and DP load balance at large batch",
	"sglang-cookbook-step35-h200": "Step-3.5-Flash BF16 TP4 + EP4 on 4 × H200 under SGLang 0.5.8 closed loops of 1–100 sessions at ~1K prompts: " +
		"a hybrid sliding-window / full-attention MoE of 288 small experts (top 8) no calibration row has, and SGLang's TP + EP path on Hopper",
	"scicom-benchmaq-h100": "dense Llama-3.1-70B and Qwen3-14B BF16 on 8 × H100 SXM under vLLM 0.15 (inferred), TP8 and TP4 × DP2: " +
		"closed loops of 10–200 sessions at random 128–4096-token prompts and 128 output tokens, a third publisher's dense " +
		"concurrency sweep beside the GPUStack pages (the c25/c50/c200 runs' TTFT excluded: their seed-0 prompts were sent before)",
	"jingchaozhang-qwen25-72b-h100-ib": "dense Qwen2.5-72B FP16 on H100 under vLLM 0.17, one request at a time: TP4 and TP8 on one node, TP8 × PP2 and TP16 " +
		"across two nodes over InfiniBand on the Ray executor: batch-1 host and all-reduce cost at TP > 1 and the cross-node step",
	"sglang-cookbook-qwen3-b200": "Qwen3-235B-A22B-Instruct-2507 BF16 TP8 on 8 × B200 under SGLang 0.5.6 closed loops of 1–100 sessions at ~1K/1K, ~1K/8K and ~8K/1K: " +
		"a TP-sharded 128-expert MoE's decode and prefill on Blackwell outside InferenceX's DeepSeek-R1 lanes (the loaded runs' TTFT excluded: their seed-1 prompts were sent before)",
	"gpustack-glm46-h200": "GLM-4.6 (glm-4.5 stands in) bursts of 100–1,000 prompts on H200 under vLLM 0.11 TP8 and SGLang 0.5.3 TP8/TP4/TP4 + EP4 (BF16, FP8), " +
		"and a vLLM closed loop of 4: a 355B GQA MoE of 160 experts under the lab's burst protocol, prefill queue and mixed steps at TP4",
	// Calibration sources, held out by refitting without them.
	"vllm-blog-fp8-kvcache":         "dense Llama-3.1-8B on one H100 (vLLM 0.19), 20K-token prompts: long-context decode and prefill interference",
	"vllm-eagle-bench-h100":         "dense Llama-3.1-8B on one H100 at batch 1 on synchronous vLLM V1 (0.8.4, 0.9.2), offline and through the API server: the in-process host cost per step",
	"vllm-recipes-pr127-rocm-llama": "dense Llama 70B and 405B (FP8, MXFP4) on one MI355X (vLLM ROCm, AITER) at 64 sessions",
	"sglang-pr-11125":               "dense Llama-3.3-70B BF16 TP2 under Poisson load (incomplete rows)",
	"inferencex-pr-3363":            "DeepSeek-R1 FP8 TP8 closed loops on B200 (SGLang 0.5.12): Blackwell compute and bandwidth at batch 1–64",
	"inferencex-pr-3175": "DeepSeek-R1 FP8 TP8/TP4 closed loops on B300 with inferencex-pr-3363's recipe, image and harness (SGLang 0.5.12): " +
		"a second source for SGLang's eager prefill launches (perf.Efficiency.SGLangEagerPerLayerS), which inferencex-pr-3363 alone pinned",
	"inferencex-pr-1053":      "gpt-oss-120b on one MI300X (vLLM 0.17) at 64–256 sessions: MXFP4 experts on CDNA3",
	"gpustack-gptoss20b-h100": "gpt-oss-20b bursts on one H100 (vLLM 0.11, SGLang 0.5.4): a small MoE where host and API-server costs dominate",
	"deepseek-day6":           "large-EP decode (EP144 on H800) from DeepSeek's production statistics",
	"lmsys-large-ep":          "large-EP prefill and decode on H100 over InfiniBand (DeepEP, two-batch overlap)",
	"lmsys-ant-h20":           "EP16/EP32 decode with MTP and TP8 prefill on H20 (an optimised SGLang)",
	"inferencex-870":          "TP8 closed-loop decode on H200 (SGLang 0.5.7)",
	"vllm-issue-28887":        "TP8 closed-loop TTFT on H200 (vLLM, Triton fused MoE)",
	"tanjunchen-h20-1node":    "vLLM 0.8.2 in eager mode on 8 × H20: launch-bound steps",
	"gpustack-perflab":        "bursts of 100–1,000 prompts on vLLM 0.10–0.11 (H200, H100, A100): TTFT as queueing, KV capacity, the API server",
	"inferencex-828":          "gpt-oss-120b closed loops on vLLM 0.15.1 (TP2–TP8 on H100): MXFP4 experts and a newer release's step costs",
	"vllm-pr-23151":           "a small MoE (Qwen3-30B-A3B, BF16) on one H100, vLLM 0.10: expert reads at few sequences",
	"vllm-pr-25398":           "TP2 + EP2 over PCIe (Qwen3-30B-A3B-FP8 on H100 PCIe): PCIe collectives and long contexts",
}
