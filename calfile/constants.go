package calfile

// Constant is one efficiency constant of the performance model that a
// calibration file may set (package estimate/perf maps each name to its
// field of perf.Efficiency; a test holds the two lists equal).
type Constant struct {
	// Name is the key in the file.
	Name string
	// Doc says what the constant is.
	Doc string
	// Lower and Upper bound what a fit may choose and a file may hold.
	Lower, Upper float64
	// MovedBy says which benchmark runs constrain it, for refusals.
	MovedBy string
}

// The bounds are documented assumptions, not fitted values. Efficiencies
// are at most 1 (no kernel beats the datasheet peak) and at least a tenth
// (a fifth for HBM): below that the gap is no longer a kernel's efficiency
// but host, client or scheduling effects the step model does not
// represent, and a fit that pushed an efficiency there would trade the
// model's other predictions for it. Fixed costs range from a CUDA-graph
// replay (0.1 ms per step, 0.1 µs per collective) to the slowest eager
// engines seen in the calibration data (100 ms per step, 5 ms per layer);
// a collective's fixed cost beyond link latency (launch, flag
// synchronisation) stays under 100 µs, ten times a small NCCL message.
var Constants = []Constant{
	{Name: "gemm", Lower: 0.1, Upper: 1,
		Doc:     "fraction of the dense BF16/FP8 tensor peak linear and expert GEMMs reach when compute-bound",
		MovedBy: "prefill-heavy runs (long prompts, bursts) and large decode batches"},
	{Name: "measured_compute", Lower: 0.1, Upper: 1,
		Doc:     "share of the measured (isolated, CUDA-graph) GEMM and prefill-attention rates a serving step reaches, on GPUs whose kernels were measured",
		MovedBy: "prefill-heavy runs and large decode batches on H100, H200, B200, B300, GB200, A100, L40S, RTX PRO 6000"},
	{Name: "measured_hbm", Lower: 0.1, Upper: 1,
		Doc:     "share of the measured weight-streaming bandwidth a serving step reaches, on GPUs whose kernels were measured",
		MovedBy: "decode at small and medium batches on the measured GPUs"},
	{Name: "gemm_fp8", Lower: 0.1, Upper: 1,
		Doc:     "fraction of the dense FP8 tensor peak linear layers with FP8 weights reach when compute-bound",
		MovedBy: "prefill-heavy runs and large decode batches of FP8 models"},
	{Name: "expert_gemm", Lower: 0.01, Upper: 1,
		Doc:     "fraction of the tensor peak the fused-MoE grouped GEMMs reach when compute-bound, where experts are TP-sharded or gathered (not DeepGEMM with DeepEP)",
		MovedBy: "prefill-heavy runs of MoE models without DeepEP (long prompts, bursts)"},
	{Name: "expert_hbm", Lower: 0.1, Upper: 1,
		Doc:     "share of the weight-streaming rate grouped expert kernels reach reading their experts (measured: 50-90% where dense GEMMs stream at 82-89%)",
		MovedBy: "decode of MoE models at small and medium batches"},
	{Name: "kernel_gap_s", Lower: 1e-7, Upper: 2e-5,
		Doc:     "GPU time per kernel of a step beyond its roofline with CUDA graphs (the gap between kernels of a replayed graph, ramp-up and tail); a step runs ≈11 kernels per dense layer",
		MovedBy: "decode at small batches, where kernels are short: small models and many layers"},
	{Name: "attention", Lower: 0.1, Upper: 1,
		Doc:     "fraction of peak attention kernels reach when compute-bound",
		MovedBy: "long prompts and long contexts"},
	{Name: "hbm", Lower: 0.2, Upper: 1,
		Doc:     "fraction of datasheet HBM bandwidth weight, KV and activation streaming reach",
		MovedBy: "decode at small and medium batches"},
	{Name: "step_overhead_s", Lower: 1e-4, Upper: 0.1,
		Doc:     "host time per engine step between steps (scheduling, input preparation, sampling, output); the GPU's per-kernel cost is kernel_gap_s",
		MovedBy: "decode at small batches, where the step is short"},
	{Name: "link", Lower: 0.1, Upper: 1,
		Doc:     "fraction of nominal NVLink/NIC one-direction bandwidth all-to-all and collectives reach",
		MovedBy: "runs whose steps move much data between GPUs: expert parallelism, tensor parallelism across nodes, large batches"},
	{Name: "eager_per_layer_s", Lower: 1e-6, Upper: 5e-3,
		Doc:     "host launch time per (dense-GQA-equivalent) decoder layer of a vLLM step without CUDA graphs (enforce_eager, V0 prefill, a backend without graphs, an idle DP rank); overlaps the GPU's work",
		MovedBy: "runs without CUDA graphs (enforce_eager, DeepEP high-throughput, batches above the capture size)"},
	{Name: "collective_s", Lower: 1e-7, Upper: 1e-4,
		Doc:     "fixed cost of one collective beyond link latency",
		MovedBy: "runs with many collectives per step relative to their size: tensor or expert parallelism at small batches"},
	{Name: "large_step_per_layer_s", Lower: 1e-6, Upper: 5e-3,
		Doc:     "host launch cost per (dense-GQA-equivalent) layer of a vLLM V1 step above the largest captured batch (a prefill chunk): the compiled model's kernels launched without CUDA graphs; overlaps the GPU's work",
		MovedBy: "prefill-heavy runs: long prompts, bursts"},
	{Name: "sglang_eager_per_layer_s", Lower: 1e-6, Upper: 5e-3,
		Doc:     "the same for SGLang's eager prefill steps (calibration rows only)",
		MovedBy: "SGLang runs only"},
	{Name: "multiproc_step_s", Lower: 1e-6, Upper: 1e-2,
		Doc:     "vLLM's extra host work per step when the engine drives worker processes (TP × PP > 1: the multiprocess or Ray executor, not the in-process one)",
		MovedBy: "runs with TP or PP above 1 at small batches"},
	{Name: "step_per_seq_s", Lower: 1e-7, Upper: 1e-3,
		Doc:     "host time per running sequence per step",
		MovedBy: "decode at large batches"},
	{Name: "frontend_request_s", Lower: 1e-5, Upper: 0.1,
		Doc:     "API server's work to ingest one request (HTTP, chat template, tokenization), one request at a time",
		MovedBy: "bursts of many requests (TTFT)"},
	{Name: "frontend_token_s", Lower: 1e-7, Upper: 1e-2,
		Doc:     "API server's work per streamed output token; delays delivery, not the engine",
		MovedBy: "many concurrent streams (TPOT)"},
	// Its range is physical, not the format's usual wide one: the global
	// fit does not vary it (it is set from a tokenizer measurement,
	// perf.Efficiency.FrontendPromptTokenS), so no fitted bound narrows it
	// for calibrate; 0.1-20 us a token spans fast tokenizers on fast hosts
	// to slow ones on random-token text.
	{Name: "frontend_prompt_token_s", Lower: 1e-7, Upper: 2e-5,
		Doc:     "API server's work per prompt token (tokenization and input processing on its one tokenizer thread), before the engine sees the request",
		MovedBy: "long prompts (TTFT), bursts of long prompts"},
	// Set from a measurement (perf.Efficiency.FrontendChatTemplateS), not
	// by the global fit; a cluster's fit may vary it: up to 100 ms for a
	// large template on a slow host, down to 0.1 ms where a cluster's runs
	// show no parse (a faster host, a release patched with the cache).
	{Name: "frontend_chat_template_s", Lower: 1e-4, Upper: 0.1,
		Doc:     "API server's parse of the chat template on every chat request, where the release does not cache it (vLLM 0.11.0), before the engine sees the request; it holds the other requests' streamed tokens too",
		MovedBy: "chat-endpoint runs on vLLM 0.11.0 (TTFT, the inter-token tail)"},
}

// Lookup returns the constant of that name.
func Lookup(name string) (Constant, bool) {
	for _, c := range Constants {
		if c.Name == name {
			return c, true
		}
	}
	return Constant{}, false
}
