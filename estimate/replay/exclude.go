package replay

import (
	"fmt"
	"strings"
)

// Exclusion is a published figure the estimator does not claim to
// reproduce, with the mechanism that is missing. Excluded figures are shown
// with their error and never fitted; a mechanism added later removes its
// exclusion. There is no per-row adjustment: a figure is either reproduced
// by the general model or listed here with the reason.
type Exclusion struct {
	// Source and Engine select rows (empty: any); RowPrefix narrows to rows
	// whose id starts with it, Dataset and Load to rows of that dataset and
	// load kind; Regimes selects figures (empty: all).
	Source, Engine, RowPrefix string
	Dataset, Load             string
	// AfterReasoning narrows to rows whose TTFT is timed after the model's
	// reasoning (Target.TTFTAfterReasoning).
	AfterReasoning bool
	// PromptsSeenBefore narrows to rows whose prompts an earlier run of
	// the source had sent to the same server (Target.PromptsSeenBefore,
	// published Load.PromptsSeenBefore).
	PromptsSeenBefore bool
	// MaxOutput narrows to rows whose requests generate at most this many
	// tokens (Target.OutputTokens; 0: any).
	MaxOutput int
	// BelowFloor narrows to figures below their floor under the row's
	// stated protocol (Target.FloorMs, FloorOf); the reason returned
	// states the figure, the floor and its terms.
	BelowFloor bool
	Regimes    []Regime
	Reason     string
}

// Exclusions are the figures outside the model, by mechanism.
var Exclusions = []Exclusion{
	{BelowFloor: true, Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99}, Reason: belowFloor},
	{PromptsSeenBefore: true, Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99}, Reason: crossRunCache},
	{AfterReasoning: true, Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99}, Reason: afterReasoning},
	{Load: "burst", MaxOutput: 4, Regimes: []Regime{RegimeTPOTBurst}, Reason: shortBurstTPOT},
	{Engine: "nim", Reason: otherEngine},
	{Engine: "tensorrt-llm", Reason: otherEngine},
	{Source: "vllm-recipes-pr127-rocm-llama", RowPrefix: "vllmrecipes127-llama33-70b-mxfp4", Reason: denseMXFP4},
	{Source: "vllm-recipes-pr127-rocm-llama", RowPrefix: "vllmrecipes127-llama31-405b-mxfp4", Reason: denseMXFP4},
	{Source: "vllm-pr-25135", Reason: denseMXFP4},
	{Source: "gpustack-gptoss20b-h100", RowPrefix: "gs-oss20b-h100-vllm-tp1-random-128",
		Reason: frontendSpread + " This run's 4-token outputs make the whole run that ingest."},
	{Source: "gpustack-gptoss20b-h100", Engine: "sglang",
		Reason: "SGLang 0.5.4.post2 serves gpt-oss-20b on one H100 at a third of vLLM 0.11's output throughput on the same GPU, lab and ShareGPT burst " +
			"(2,679 vs 7,817 tok/s, TPOT 315 vs 91 ms); the model has no mechanism that tells the two engines' gpt-oss kernels apart (attention sinks, " +
			"MXFP4 experts on Hopper), and no SGLang gpt-oss row elsewhere to learn one from."},
	{Source: "tanjunchen-h20-1node", Engine: "sglang",
		Reason: "SGLang build of unstated version (image ea52b45be1a7, run with --quantization fp8 on the block-FP8 checkpoint) decodes one sequence on 8 × H20 in 42 ms, " +
			"8× the weight reads and host overhead the model sums (the same host's vLLM 0.8.2 eager run is reproduced); its TTFT and throughput are built from those steps. No published cause."},
	{Source: "tanjunchen-h20-1node", Engine: "vllm", RowPrefix: "tanjunchen-vllm-tp8-128-c128",
		Reason: kvH20},
	{Source: "tanjunchen-h20-1node", Engine: "vllm", RowPrefix: "tanjunchen-vllm-tp8-128-c256",
		Reason: kvH20},
	{Source: "tanjunchen-h20-1node", Engine: "vllm", RowPrefix: "tanjunchen-vllm-tp8-128-c1024",
		Reason: kvH20},
	{Source: "tanjunchen-h20-1node", Engine: "vllm", RowPrefix: "tanjunchen-vllm-tp8-256-c1", Regimes: []Regime{RegimeTTFTMean},
		Reason: "one 256-token prompt measured 377 ms to its first token on the server where one 128-token prompt took 137 ms and a burst of 64 such prompts " +
			"(16K tokens) 1.04 s: a single measurement dominated by something other than its prefill."},
	{Source: "tanjunchen-h20-2node", Engine: "sglang",
		Reason: "the same SGLang build as tanjunchen-h20-1node over two nodes (55.6 ms per token at batch 1): not reproduced for the same reason."},
	{Source: "inferencex-870", Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99},
		Reason: "the measured run's first wave (all sessions sent at t=0 after the warm-up) reaches 2.0–2.7 s at every concurrency from 8 to 64, ~6× the wave's prefill; " +
			"that wave alone carries about half of the mean (8 of 80 requests at ≈2 s at concurrency 8). An effect outside engine steps the model does not represent."},
	{Source: "gpustack-perflab", Engine: "vllm", RowPrefix: "gpustack-dsr1-h200-vllm-tp8-sharegpt-c4",
		Reason: "vLLM serves DeepSeek-R1 at 4 sequences at 19.4 ms per token and 123 ms to a first token on 8 × H200, where SGLang 0.5.7 decodes 8 at 12.8 ms " +
			"(inferencex-870) and the weights and overheads explain ≈15 ms and ≈65 ms; vLLM #28882 traces steps of few tokens falling back from DeepGEMM to " +
			"Triton fused-MoE kernels, slower at low concurrency, and #24117 calls vLLM's DeepSeek batch-1 traces \"very bad\". A separate efficiency for vLLM's " +
			"Triton MoE path was tried and fitted to 1.0 (no effect); the gap is not in the experts' bandwidth. The held-out vLLM 0.7 rows (dstack-dsr1) show the same gap."},
	{Source: "gpustack-perflab", Engine: "vllm", RowPrefix: "gpustack-dsr1-h200-vllm-tp8-sharegpt", Load: "burst", Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99, RegimeThroughputBurst},
		Reason: frontendSpread},
	{Source: "gpustack-perflab", Engine: "sglang", RowPrefix: "gpustack-dsr1-h200-sglang-tp8-sharegpt", Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99},
		Reason: shareGPTTail + " In SGLang's prefill-first burst the same tail sets when the last prompts are prefilled."},
	{Source: "gpustack-perflab", RowPrefix: "gpustack-", Dataset: "sharegpt", Load: "burst", Regimes: []Regime{RegimeTPOTBurst},
		Reason: shareGPTTail},
	{Dataset: "sharegpt", Regimes: []Regime{RegimeTTFTP99},
		Reason: "a ShareGPT run's P99 TTFT is set by its longest prompts, which the uniform spread of lengths over [0, 2] × the published mean does not have."},
	{Source: "lmsys-ant-h20", RowPrefix: "p3-mtp-bs1",
		Reason: "one sequence per GPU on 16 × H20 (EP16, MTP) takes ≈43 ms per step, which no constant within its bounds reaches (the fit's range: 51–95 tokens/s per GPU); " +
			"the only other H20 run at one sequence per GPU, tanjunchen's SGLang TP8, is at 42 ms too. A per-step cost of H20 at small batches the model lacks."},
	{Source: "gpustack-perflab", Engine: "vllm", RowPrefix: "gpustack-oss120b-h100-vllm-tp2-async-sharegpt", Load: "burst", Regimes: []Regime{RegimeTTFTMean, RegimeTTFTP99},
		Reason: frontendSpread},
	{Source: "gpustack-perflab", Engine: "vllm", RowPrefix: "gpustack-oss120b-h100-vllm-tp1-",
		Reason: "gpt-oss-120b on one H100: the memory model admits half the sequences the run held (it sizes every layer's KV for the full context; " +
			"vLLM's hybrid KV manager gives gpt-oss's sliding-window layers only their 128-token window), so the burst's queueing is not reproduced."},
	{Source: "vllm-pr-23151", Regimes: []Regime{RegimeThroughput, RegimeTPOT},
		Reason: "one H100 decodes 10 sequences of Qwen3-30B-A3B (BF16) in 13.2 ms per token: under uniform routing a step's 80 expert picks touch ≈60 of the 128 " +
			"experts of each layer, ≈28 GB with attention and embeddings, 8.5 ms at the datasheet's 3.35 TB/s, and vLLM 0.10–0.11 rows need ≥4 ms of host time " +
			"per step; the sum leaves no room for the bandwidth efficiency the other rows reach. Either real routing reads fewer experts than uniform routing " +
			"(the model assumes uniform) or this release's host time per step is well below the fitted one; the model has neither."},
	{Source: "inferencex-828", Regimes: []Regime{RegimeTTFTMean},
		Reason: "the model's host and launch costs of a step are one set, fitted on vLLM 0.8–0.11 rows (several ms per step, and a per-layer cost for steps above " +
			"the captured sizes); vLLM 0.15.1's are lower: with async scheduling the host's work hides only behind a longer GPU step, yet gpt-oss decodes 4 " +
			"sequences on TP8 in 3.7 ms per token, below the fitted per-step host time. A first token here is a few such steps, mostly prefill steps of up to " +
			"8,192 tokens (the sessions' prompts wait one step more under async scheduling, which the simulation models); the model's errors changed sign " +
			"with layout and load before any refit (80% high at 64 sessions on TP8) and are 13–42% low at every layout and load with the fitted constants: " +
			"per-release step costs, and gpt-oss's 8K prefill (run with Marlin MXFP4 experts), which measures about 1.4× (TP4) to 1.8× (TP8) the modelled one: mechanisms the model lacks."},
	{Source: "inferencex-828", RowPrefix: "inferencex828-oss120b-h100-vllm-tp8-1k8k-c64",
		Reason: "output throughput falls from 694.7 to 491.5 tok/s per GPU between 32 and 64 sessions (1024/8192, TP8) while TPOT triples (5.65 → 16.0 ms); " +
			"with max-num-seqs 64 the 64 × 9K-token contexts need about 5 GB of KV per GPU next to 7.6 GB of weights, and TP4 on half the GPUs serves the same load " +
			"at 1,632 tok/s per GPU, so no KV or batch limit explains it. The source calls it a wall and does not diagnose it."},
	{Source: "inferencex-828", RowPrefix: "inferencex828-oss120b-h100-vllm-tp4-8k1k-c32",
		Reason: "32 sessions (8192/1024, TP4) run at 255 tok/s per GPU with 1.13 s to a first token, against 506 tok/s and 0.26 s at 16 sessions and 903 tok/s and " +
			"0.64 s at 64; the source calls it an anomaly (\"a specific scheduling pathology\"). No load-dependent mechanism makes 32 sessions slower than both 16 and 64."},
	{Source: "gpustack-perflab", Engine: "vllm", RowPrefix: "gpustack-dsr1-h200-vllm-tp8-random-128",
		Reason: frontendSpread + " This run's 4-token outputs make the whole run that ingest."},
}

// belowFloor is why a TTFT figure below its first-wave floor (FloorOf) is
// outside every model of the stated protocol.
const belowFloor = "the figure is below what the GPUs' datasheet peak allows under the row's stated protocol: its first wave of prompts, sent at once, " +
	"needs every prompt prefilled before its first token, and no schedule prefills them faster than the dense peak (the floor's derivation: " +
	"estimate/replay/floor.go). The run's prompts were served from a prefix cache (an earlier run of the same seeded prompts on the same server, " +
	"or repeated prompts) or its requests did not start together; either way the protocol the replay runs is not the one measured."

// shortBurstTPOT is why the TPOT of a burst of requests that generate a
// handful of tokens is outside the model.
// crossRunCache is why the TTFT of a run whose prompts an earlier run of
// the same source had already sent to the server (published
// Load.PromptsSeenBefore) is outside the model: the server's prefix cache
// may serve them — how much depends on what it kept between runs, which
// no source records. SGLang's bench_serving regenerates the same prompts
// at its default --seed 1 (numpy's RandomState(1) draws reproduce the
// sglang-cookbook pages' token totals) and the radix cache is never
// flushed between runs; vllm bench serve draws the random dataset from
// --seed (scicom-benchmaq-h100: seed 0 at every concurrency against one
// server) and V1's prefix cache is on by default.
const crossRunCache = "the source's runs reuse one prompt sequence against one server whose prefix cache is not flushed between runs " +
	"(SGLang's bench_serving draws the random dataset with its default --seed 1: numpy's RandomState(1).randint(1, L+1, n) gives the sglang-cookbook " +
	"pages' token totals, sglang@0033168f python/sglang/bench_serving.py; vllm bench serve with a fixed --seed draws the same prompts again, and V1's " +
	"prefix cache is on by default), so a loaded run's prompts (some or all) may be served from cache, not prefilled (load.prompts_seen_before). " +
	"The first run at each length is scored."

const shortBurstTPOT = "the TPOT of a burst whose requests generate at most 4 tokens is the time between 2 or 3 tokens delivered while the API " +
	"server is still ingesting the burst: it is set by the event loop's passes (a step's outputs wait for every request handler ready before " +
	"them), which the simulation has built but switched off (perf.UseIngestRounds; docs/calibration-analysis.md, \"Event-loop passes\"), " +
	"not by engine steps (measured 153–525 ms against 10–45 ms steps)."

// denseMXFP4 is why dense MXFP4 checkpoints are outside the model.
const denseMXFP4 = "an MXFP4 checkpoint of a dense model (AMD Quark) quantizes every linear layer, where vlaunch's MXFP4 rule is gpt-oss's (experts " +
	"only, attention in BF16): the model reads four times the weights the GPU streams and, for the 405B model on one GPU, finds no room for the KV " +
	"cache. Checkpoint formats are issue #23's."

// otherEngine is why rows of engines other than vLLM and SGLang are shown
// but neither fitted nor in the bands.
const otherEngine = "another serving engine (NVIDIA NIM, whose profile may be TensorRT-LLM, or TensorRT-LLM itself): its kernels, scheduler and " +
	"front end are not vLLM's, so its figures are a comparison on the same hardware, not evidence of what vLLM does; the replay runs them with " +
	"SGLang's scheduling, which they do not share either."

// kvH20 is why the largest vLLM 0.8.2 bursts on H20 are outside the model.
const kvH20 = "the run held far fewer sequences than the memory model admits: output throughput stops growing at 64 prompts (506 tok/s at 64, 497 at 128) and " +
	"TTFT jumps from 0.64 s at 64 prompts to 1.7 s at 128 and 11 s at 256 (later requests wait for earlier ones to finish), " +
	"so vLLM 0.8.2 in eager mode on 8 × H20 at gpu_memory_utilization 0.95 kept KV for roughly 130 short sequences where the model gives room for several hundred; " +
	"no start-up log of that setup is in the memory calibration to size it."

// shareGPTTail is why ShareGPT bursts' TPOT is outside the model.
const shareGPTTail = "a ShareGPT burst's TPOT is long-tailed (SGLang's: mean 420 ms, median 217, P99 2.5 s): requests admitted early " +
	"share every later step with the burst's prefills, and the shortest decode entirely inside them. The model draws the lengths from a log-normal around " +
	"the published means (sim.ConversationSpread, sigma an assumption) and predicts this TPOT 2–6× low on every ShareGPT burst of the lab (the held-out " +
	"GLM-4.5-Air and Qwen3-14B pages too, counted there). The published median TPOT is off nearly as much as the mean, so the lengths' tail is the " +
	"smaller part: the rest is the API server's passes holding the burst's prompts and the early requests' tokens while it ingests the burst " +
	"(built, off: perf.UseIngestRounds) and the cost of the mixed steps (docs/calibration-analysis.md, \"ShareGPT burst TPOT\")."

// frontendSpread is why the 1,000-request DeepSeek bursts on vLLM 0.11 are
// outside one global front-end cost.
const frontendSpread = "every request of a 1,000-prompt burst gets its first token only after the API server has ingested the whole burst (median ≈ mean TTFT); " +
	"the ingest costs ≈18–19 ms per request for DeepSeek-R1 on vLLM 0.11 but 4.6 ms for gpt-oss on vLLM 0.10.2 and 8.7 ms for Qwen3-235B on vLLM 0.11 in the same source, " +
	"with similar prompts; one global front-end cost cannot carry a per-model, per-release spread of 4×. " +
	"Not the prompts' encode: at 128–220 tokens it is ≈0.2 ms a prompt, run beside the event loop in micro-batches on these releases (vllm.TokenizeMicrobatch; gpt-oss's chat prompts, built as token ids by harmony, have none to run)."

// afterReasoning is why a content-timed TTFT of a model whose chat reasoning
// streams first is outside the model (docs/ttft-client-timing.md).
const afterReasoning = "the client stops TTFT at the first chunk with non-empty content, and vLLM's chat endpoint streams this model's reasoning " +
	"before it as reasoning_content (gpt-oss's harmony analysis channel, or the server's --reasoning-parser): the figure is the prefill plus one " +
	"decode step per reasoning token, as many as the model wrote for each prompt, which the row does not publish."

// Excluded returns the exclusion that covers target t of a row served by
// engine, if any.
func Excluded(t Target, engine string) (Exclusion, bool) {
	for _, x := range Exclusions {
		if (x.Source != "" && x.Source != t.Source) || (x.Engine != "" && x.Engine != engine) ||
			(x.RowPrefix != "" && !strings.HasPrefix(t.Row, x.RowPrefix)) ||
			(x.Dataset != "" && x.Dataset != t.Dataset) || (x.Load != "" && x.Load != t.Load) ||
			(x.AfterReasoning && !t.TTFTAfterReasoning) || (x.PromptsSeenBefore && !t.PromptsSeenBefore) || (x.MaxOutput > 0 && t.OutputTokens > x.MaxOutput) ||
			(x.BelowFloor && !(t.FloorMs > 0 && t.Published < t.FloorMs)) {
			continue
		}
		if x.BelowFloor {
			x.Reason = fmt.Sprintf("%s Published %.0f ms, floor %.0f ms: %s.", x.Reason, t.Published, t.FloorMs, t.Floor)
		}
		if len(x.Regimes) == 0 {
			return x, true
		}
		for _, r := range x.Regimes {
			if r == t.Regime {
				return x, true
			}
		}
	}
	return Exclusion{}, false
}
