package perf

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// Efficiency holds the few global constants that turn peak hardware figures
// into achievable ones and price the host's and the API server's work. They
// are the only tuned numbers in the performance model: a named set (Field),
// fitted once on the calibration split of published/throughput.yaml
// (docs/calibration-throughput.md) and used unchanged for every model, GPU
// and layout, unless a deployment's own calibration file sets some. No
// constant is per scenario.
type Efficiency struct {
	// GEMM is the fraction of the dense tensor-core peak (BF16 or FP8) that
	// linear layers reach when compute-bound, and the grouped expert GEMMs
	// of DeepEP deployments (DeepGEMM's masked and contiguous layouts).
	// Literature: large Hopper FP8 GEMMs reach 60–75% of peak (DeepGEMM).
	GEMM float64 `json:"gemm"`
	// GEMMFP8 is the same for FP8 weights against the FP8 peak: vLLM's
	// FP8 kernels reach a smaller share of their (twice as high) peak
	// than BF16 GEMMs do of theirs (tools/aicdata: 0.43–0.63 vs 0.69–0.86).
	GEMMFP8 float64 `json:"gemm_fp8"`
	// ExpertGEMM is the fraction of the tensor peak the fused-MoE grouped
	// GEMMs reach when compute-bound where experts are TP-sharded or
	// gathered (vLLM's and SGLang's Triton fused_moe, not DeepGEMM): small
	// per-expert tiles (an expert's intermediate width split over TP) and
	// ragged token counts keep them far below a dense GEMM (vLLM #28882;
	// TP8 DeepSeek-R1 prefills at ≈16k tokens/s on 8 × H200 in GPUStack's
	// runs and TensorRT-LLM #5929, a few percent of the FP8 peak). A GPU
	// with measured fused-MoE curves (KernelFigures.MoE) uses those
	// instead; this constant serves the others (H20, AMD …; the H800
	// reads the H100's curves, UseSharedDieTables).
	ExpertGEMM float64 `json:"expert_gemm"`
	// ExpertHBM is the share of the weight-streaming rate (HBM in effect)
	// grouped expert kernels reach reading their experts: the measured
	// tables time vLLM's fused MoE mostly at 50–90% of HBM (some FP8 paths far less) where a dense GEMM of
	// the same bytes streams at 82–89% (tools/aicdata, MoE at 8–512
	// tokens), its experts scattered and each a small GEMM of its own.
	ExpertHBM float64 `json:"expert_hbm"`
	// Attention is the fraction of peak attention kernels (FlashMLA,
	// FlashAttention) reach when compute-bound.
	Attention float64 `json:"attention"`
	// HBM is the fraction of the datasheet memory bandwidth a streaming
	// kernel reaches (STREAM-like measurements on Hopper: 80–90%).
	HBM float64 `json:"hbm"`
	// Link is the fraction of a link's nominal one-direction bandwidth
	// (NVLink, RDMA NIC) an all-to-all or collective reaches.
	Link float64 `json:"link"`
	// StepOverheadS is the host's fixed work between two engine steps:
	// scheduling, input preparation, the sampler's launches and output
	// processing (hidden behind the GPU with async scheduling). The GPU's
	// own per-kernel cost is KernelGapS, counted per kernel, not here.
	// The calibration rows that measure the in-process (TP 1) cost alone,
	// vllm-eagle-bench-h100 (Llama-3.1-8B at batch 1 on one H100, vLLM 0.8.4
	// and 0.9.2), replayed at −12%, +14% and +21% with the earlier 2.257 ms:
	// they want ≈1.2 ms, which the fit accepts at the same criterion with
	// MultiprocStepS ≈2.9 ms (the host split's ridge; DefaultEfficiency
	// says where on it these values sit and why).
	StepOverheadS float64 `json:"step_overhead_s"`
	// MultiprocStepS is the host's extra work per step when vLLM's engine
	// drives its GPUs through worker processes — TP × PP > 1, where
	// vllm/config/parallel.py picks the multiprocess (or Ray) executor
	// over the in-process "uni" one: each step's scheduler output goes
	// through a shared-memory queue to every worker and the sampled tokens
	// come back. Without it one host cost served TP 1 and TP 8 alike: an 8B
	// model's batch-1 step on one H100 came out 30% slow while gpt-oss on
	// TP 8 came out 20% fast (issue #28). SGLang's ranks schedule in
	// their own processes and do not pay it.
	MultiprocStepS float64 `json:"multiproc_step_s"`
	// KernelGapS is the GPU time each kernel of a step costs beyond its
	// roofline, with CUDA graphs: the gap between consecutive kernels of a
	// replayed graph plus a kernel's ramp-up and tail. A step launches
	// kernels in proportion to the model's operations (eager.go's census:
	// ≈350 for an 8B dense model, ≈1,700 for DeepSeek-V3 in BF16), so this cost
	// scales with the architecture, where a fixed per-step lump made small
	// models' batch-1 decode 1.7× too slow (issue #28).
	KernelGapS float64 `json:"kernel_gap_s"`
	// EagerPerLayerS is the extra host cost (Python dispatch and kernel
	// launches) per decoder layer of a step run in PyTorch eager mode
	// (enforce_eager; prefill steps of engines that capture only decode,
	// such as SGLang and vLLM V0), for a layer of eagerOpsRef operations (a
	// dense GQA layer); layers of more operations (MLA, MoE routing, FP8
	// activation quantization) cost proportionally more (eagerLayers).
	EagerPerLayerS float64 `json:"eager_per_layer_s"`
	// SGLangEagerPerLayerS is EagerPerLayerS for SGLang, whose prefill
	// steps run eagerly with fewer, fused operations (sgl-kernel); used for
	// the calibration rows SGLang served, never for a vLLM deployment.
	// Measured, not fitted, under UseCitedSGLangEager (sglangeager.go:
	// SGLang PR #12160's eager DeepSeek-V3 forward, 409.3 µs); else the
	// global fit's 896.4 µs.
	SGLangEagerPerLayerS float64 `json:"sglang_eager_per_layer_s"`
	// LargeStepPerLayerS is the host cost per (dense-GQA-equivalent) layer
	// of a vLLM V1 step with more tokens on a rank than the largest
	// captured batch: the compiled model's kernels launched one by one
	// without CUDA graphs (torch.compile's generated code, cheaper per
	// operation than eager PyTorch). It overlaps the GPU's work, so a
	// large prefill chunk hides it; it is bounded to launch costs (about
	// 1–35 µs per operation) so it cannot stand for slow kernels.
	LargeStepPerLayerS float64 `json:"large_step_per_layer_s"`
	// CollectiveS is the fixed cost of one collective — a TP all-reduce, or
	// one dispatch or combine phase of an MoE all-to-all — on top of link
	// latency: kernel launch, flag/barrier synchronisation between GPUs.
	CollectiveS float64 `json:"collective_s"`
	// StepPerSeqS is host time per running sequence per step: the
	// engine's scheduling, input preparation, sampling and output
	// processing are loops over its requests. The fit holds it at its
	// 30 µs bound (replay.Params). Freed to 150 µs (2026-12-06, session
	// 29, one constant at a time) it settles near 58 µs with
	// step_overhead_s 2.26 -> 1.77 ms (criterion 0.2732 -> 0.2633,
	// calibration 135 -> 136, anchors 9 -> 10 of 17, dense TPOT median
	// 19% -> 14%), but the held-out SGLang B200 DP-attention row falls
	// out (−26% -> −45%) and the vLLM source's own timings are smaller:
	// update_from_output about 1.1 µs a request at batch 256 (vllm PR
	// #46112), the scheduler 12.7 µs a request at the cap (a 0.27.1
	// profile, openfabric-systems/simllm PR #204). 58 µs would stand for
	// more than the loops it names: not adopted.
	StepPerSeqS float64 `json:"step_per_seq_s"`
	// FrontendRequestS is the serving front end's work to ingest one
	// request (HTTP, chat template, tokenization, hand-off to the engine),
	// done one request after another in one API-server process.
	FrontendRequestS float64 `json:"frontend_request_s"`
	// FrontendTokenS is the front end's work per streamed output token
	// (detokenization, one server-sent event); it delays delivery, not
	// the engine.
	FrontendTokenS float64 `json:"frontend_token_s"`
	// FrontendPromptTokenS is tokenization and input processing per prompt
	// token in the API-server process: a text prompt is encoded on the
	// server's one tokenizer thread before the engine sees the request
	// (vllm.PromptTokenizationSource: AsyncMicrobatchTokenizer's
	// single-thread executor, 0.11 and 0.20+). Where that thread runs
	// beside the event loop (vllm.PromptTokenizerOf, from 0.6.5) the
	// simulator queues it there, in micro-batches encoded in parallel on
	// 0.10.0–0.23.x (sim.Frontend.Tokenizer); before, it queues with
	// FrontendRequestS on the loop. Measured, not fitted: HuggingFace tokenizers encode
	// a 4 MB document (≈1M tokens) in 1.1 s as one sequence
	// (charlesxu.io/parallel-tokenizer, 2025): ≈1.1 µs a token; vLLM PR
	// #10635's "a few hundred milliseconds" for 256K-token prompts is the
	// same order. The global fit does not vary it (not in replay.Params).
	// A random dataset's text costs more a token (PromptTokenS).
	FrontendPromptTokenS float64 `json:"frontend_prompt_token_s"`
	// FrontendChatTemplateS is the API server's parse of the chat template
	// on a chat request of a release that does not cache it
	// (vllm.Release.ChatTemplateParse: 0.11.0 builds a Jinja environment,
	// parses the template and walks it for its variables on every request,
	// on the event loop), queued like FrontendRequestS and charged only to
	// chat requests (ChatTemplateS). Measured, not fitted: that call
	// (ImmutableSandboxedEnvironment(...).parse + jinja2.meta.
	// find_undeclared_variables, jinja2 3.1.6, CPython 3.11) on Qwen3's
	// 4,169-character template takes 14.1-14.8 ms on one core of the
	// project's build host, of which the parse 5.0-5.1 ms; PR #20065's
	// author measured 6-8 ms a request for a parse plus a lighter walk of a
	// Llama template ("1000 requests ... 6-8 seconds"), so that host is no
	// slower than theirs. A larger template (gpt-oss's) costs more; one
	// figure stands for all: the Qwen3, GLM-4.5 and DeepSeek-V3.1 family
	// templates cost 12.5-14.0 ms a request each (tools/chattemplate), so
	// per-model figures would not explain why the public bursts imply
	// 5.5 ms for Qwen3-2507 and 13-15 ms for GLM-4.5-Air and DeepSeek-R1
	// (docs/calibration-analysis.md). The global fit does not vary it.
	FrontendChatTemplateS float64 `json:"frontend_chat_template_s"`

	// MeasuredCompute and MeasuredHBM are the shares of their isolated,
	// CUDA-graph-replayed rates that a real serving step's kernels reach on
	// a GPU whose kernels were measured (ForGPU multiplies the measured GEMM
	// and prefill-attention efficiencies by the first, the measured
	// weight-streaming fraction by the second): the tables time one kernel
	// at a time on hot buffers, a step runs hundreds back to back on cold
	// weights between the engine's own small operations. Fitted on the
	// calibration rows of those GPUs; 1 would be the tables as measured.
	MeasuredCompute float64 `json:"measured_compute"`
	MeasuredHBM     float64 `json:"measured_hbm"`
	// Kernels are the GPU's measured kernel figures (ForGPU; zero when the
	// tables do not cover it): not constants a fit or a calibration file
	// sets, but measurements whose decode-attention, all-reduce and
	// prefill-attention figures the step model reads directly.
	Kernels KernelFigures `json:"measured_kernels,omitzero"`
	// PackedMXFP4 is the kernel the release runs compressed-tensors MXFP4
	// experts with on this GPU (ForRelease; vllm.Release.
	// PackedMXFP4MoEBackend for SiLU-family experts): where it verifiably
	// quantises the activations to MXFP4 (CUTLASS W4A4) the expert GEMMs
	// run at the FP4 peak (StepSetup.expertFLOPS). Not a constant.
	PackedMXFP4 vllm.MXFP4MoEBackend `json:"-"`
}

// DefaultEfficiency is the calibrated set used everywhere, fitted on the
// calibration split of package calibration by go test ./estimate/replay
// -run TestCalibrationFit -fit (docs/calibration-throughput.md: the fit,
// its bounds and its error per row).
//
// These values and estimate/replay/testdata/loso.json were fitted with the
// measured per-shape GEMM tables off (UseGEMMTables): the tables were
// switched on 2026-12-06 without a refit (the held-out evidence favoured
// them; UseGEMMTables says by how much), so where the tables cover the GPU
// and dtype the fitted GEMM efficiencies no longer price the dense
// projections and MeasuredCompute scales only attention and the experts.
// A refit with the tables on (2026-12-06, docs/calibration-analysis.md
// "refitted with the GEMM tables on (not adopted)": measured_compute 0.53,
// step_overhead_s 2.57 ms) fitted its split better (138/155) and lost on
// every held-out check but the anchors and P/D: holdout 78 -> 75/187,
// left-out sources 134 -> 127/155, band coverage 91% -> 90%, dense
// throughput vs aiconfigurator 6 -> 4 of 6. These values stay.
//
// They are the fit of 2026-12-05, made before the measured fused-MoE
// curves (kernels.go) took the fused-MoE GEMM's place on the GPUs the
// tables cover. A refit with the
// curves in place (2026-12-06: measured_compute 0.4706, step_overhead_s
// 2.385 ms, multiproc_step_s 1.73 ms, attention 0.826, the rest within 5%)
// brought the calibration to 139 of 155 within ±30% and the left-out
// sources to 133 (129), but the holdout split to 69 of 181 (70), dense TPOT
// band coverage to 43% (100%), dense throughput against aiconfigurator to 4
// of 6 won (6), and calibrate's acceptance test failed: fitted to three of
// GPUStack's DeepSeek-R1 runs, a cluster's constants then predicted its
// held-out 32K burst at 32.6% where the refitted global ones reach 17.2%.
// Not adopted; the bands' leave-one-source-out figures therefore come from
// constants fitted under the earlier MoE term.
//
// A trial of issue #28 (2026-12-06, branch moeperm-term, not merged) priced
// the fused-MoE path's kernels other than the grouped GEMMs — silu_and_mul
// (6·I bytes a token-expert pair), FP8 requantization (3·I), the
// finalize's moe_sum (2·H a pair, 2·H a token) and the prepare's FP8 input
// quantization (3·H a token), vLLM fused_moe.py TritonExperts.apply and
// prepare_finalize.py MoEPrepareAndFinalizeNoEP — as serial HBM time added
// to the experts' roofline where no measured curve times them (the curves'
// tables run the whole FusedMoE op). Without a refit: calibration 133 of
// 155 and the holdout split 75 of 187 unchanged, but the PD calibration's
// TTFT mean fell from 4 to 3 of 10 within ±30% (gpt-oss-120b on Marlin,
// whose ExpertGEMM share already absorbs these kernels). Refitted:
// measured_compute 0.4696, expert_gemm 0.2216, expert_hbm 0.8869, gemm_fp8
// 0.8214, attention 0.7975, measured_hbm 0.9544, the rest within 15%;
// calibration 139 of 155, the dense prefill anchors +83% (8K, vllm#20155)
// and +86% (NIM 5K) against +101% and +107%, but the holdout split 74 of
// 187, dense throughput against aiconfigurator 4 of 6 won (6), MoE
// throughput 24 of 35 (25), and calibrate's acceptance test failed again
// (held-out 32K burst 32.7% calibrated, 17.4% global). Its measured_compute
// is the first refit's (0.4706) within 0.001: the unpriced MoE kernels do
// not explain the low measured_compute; the curves' arrival moved it. Not
// adopted.
//
// The host split (2026-12-06, session 31): the calibration criterion is
// flat along a ridge of StepOverheadS and MultiprocStepS (every point
// charges a TP > 1 step ≈4.07 ms; only TP 1 rows tell the two apart).
// The fit's point, 2.257 / 1.844 ms (criterion 0.2713), put 2.26 ms of
// host on every TP 1 step; the other end, 1.179 / 2.891 ms (0.2702, a
// refit of the two with the rest fixed, branch tp2b1), is what the batch-1
// TP 1 runs show — vllm-eagle-bench-h100's three calibration rows, the
// held-out GPUStack Qwen3-8B closed loops, the vLLM 0.19.1 anchors'
// intercepts — and is adopted: calibration 139 -> 140 of 160 within ±30%,
// holdout 97 of 230 unchanged, dense anchors 9 -> 12 of 17 (1 -> 3 of the
// 6 that count), aiconfigurator 97 -> 101 of 141 compared figures at least
// as close (dense TPOT 0 -> 4 of 4). It had waited on calibrate's held-out
// acceptance test, which a cluster fit to the last point failed at this
// end (35.6%, bound 32.6%); the fit now stops at its tolerance
// (calibrate's fitTolerance) and the test holds at 30.0%. MultiprocStepS
// then carries 2.9 ms a step for the workers' shared-memory hand-off and
// whatever else a TP > 1 small-batch step costs that nothing prices: it
// stands for more than its mechanism until a TP 2/4/8 batch-1 run on a
// synchronous release says how much (none found: published/README.md).
// estimate/replay/testdata/loso.json was refitted from these values.
var DefaultEfficiency = Efficiency{
	GEMM:                 0.6154,
	GEMMFP8:              0.7894,
	ExpertGEMM:           0.2110,
	ExpertHBM:            0.8196,
	Attention:            0.7760,
	HBM:                  0.6005,
	Link:                 0.9468,
	KernelGapS:           5.529e-6,
	StepOverheadS:        1.179e-3,
	MultiprocStepS:       2.891e-3,
	EagerPerLayerS:       542.2e-6,
	SGLangEagerPerLayerS: sglangEagerDefault(),
	LargeStepPerLayerS:   398.0e-6,
	CollectiveS:          1.641e-6,
	StepPerSeqS:          29.51e-6,
	FrontendRequestS:     4.468e-3,
	FrontendTokenS:       2.225e-6,
	FrontendPromptTokenS: 1.1e-6,
	MeasuredCompute:      0.4213,
	MeasuredHBM:          0.9978,

	// Measured, not fitted (see the field).
	FrontendChatTemplateS: 14e-3,
}

// ChatTemplateS is the API server's per-request parse of the chat template
// for a request to the chat endpoint of release rel serving a model of type
// modelType: FrontendChatTemplateS where a source shows the release parsing
// it on every request (vllm.ChatTemplateParse.PerRequest), else 0 (a release
// that caches it, one not shown either way, gpt-oss's harmony prompts).
func (e Efficiency) ChatTemplateS(rel vllm.Release, modelType string) float64 {
	if rel.ChatTemplateParse(modelType).PerRequest() {
		return e.FrontendChatTemplateS
	}
	return 0
}

// Field is the constant a calibration file names (calibrate.Constants);
// nil for a name the model does not have.
func (e *Efficiency) Field(name string) *float64 {
	switch name {
	case "gemm":
		return &e.GEMM
	case "measured_compute":
		return &e.MeasuredCompute
	case "measured_hbm":
		return &e.MeasuredHBM
	case "gemm_fp8":
		return &e.GEMMFP8
	case "expert_gemm":
		return &e.ExpertGEMM
	case "expert_hbm":
		return &e.ExpertHBM
	case "kernel_gap_s":
		return &e.KernelGapS
	case "attention":
		return &e.Attention
	case "hbm":
		return &e.HBM
	case "link":
		return &e.Link
	case "step_overhead_s":
		return &e.StepOverheadS
	case "multiproc_step_s":
		return &e.MultiprocStepS
	case "eager_per_layer_s":
		return &e.EagerPerLayerS
	case "collective_s":
		return &e.CollectiveS
	case "large_step_per_layer_s":
		return &e.LargeStepPerLayerS
	case "sglang_eager_per_layer_s":
		return &e.SGLangEagerPerLayerS
	case "step_per_seq_s":
		return &e.StepPerSeqS
	case "frontend_request_s":
		return &e.FrontendRequestS
	case "frontend_token_s":
		return &e.FrontendTokenS
	case "frontend_prompt_token_s":
		return &e.FrontendPromptTokenS
	case "frontend_chat_template_s":
		return &e.FrontendChatTemplateS
	}
	return nil
}

// EfficiencyFor is the constants in effect for in: ConstantsFor, with the
// GPU's measured kernel figures over them (ForRelease: ForGPU and the
// release's MXFP4 MoE kernel) — last, so that a calibration file's
// measured_compute and measured_hbm scale the measured rates as the fit
// that wrote it did, and its gemm, hbm and kernel gap apply only where no
// table covers the GPU.
func EfficiencyFor(in *input.Input) Efficiency {
	return ForInput(ConstantsFor(in), in)
}

// ForInput is ForRelease for in's GPU, release and environment.
func ForInput(e Efficiency, in *input.Input) Efficiency {
	return ForRelease(e, in.GPU, in.Release(), true, in.Env)
}

// ConstantsFor is the global constants with those in's calibration file
// sets (validated against calibrate.Constants when the file was read):
// what a fit varies, before the GPU's measured figures are applied.
func ConstantsFor(in *input.Input) Efficiency {
	e := DefaultEfficiency
	if f := in.Calibration.File; f != nil {
		for name, v := range f.Constants {
			if p := e.Field(name); p != nil {
				*p = v
			}
		}
	}
	return e
}
