package perf

// RandomTextPromptTokenS is what a HuggingFace fast tokenizer takes per
// token to encode the prompts of a benchmark's random dataset
// (vllm.BenchRandomPromptSource: decoded walks through the vocabulary), on
// one thread, called once per prompt from Python. Measured, not fitted:
// ROCm/ATOM PR #1907 (merged 2026-08-15) timed the generation of 2,000
// such prompts of 1,024 tokens with DeepSeek-V4-Flash's tokenizer (the
// walk of vLLM's RandomDataset, "a prompt built from N consecutive ids"):
// "the final encode" 2.71 s, 1.32 µs a token (its retry loop, 6.05 s of
// encodes and decodes for 4,022 encodes recorded, is no slower). Natural text
// costs about 1.1 µs a token (DefaultEfficiency.FrontendPromptTokenS, on
// another host): the mechanism is that such text misses the BPE word cache
// (tokenizers src/utils/cache.rs: DEFAULT_CACHE_CAPACITY 10_000, and
// set_values "At capacity, so do nothing": filled once, never evicted) and
// carries more bytes a token; tokenizers' own benchmark put the whole
// encode without the cache at 1.27 × with it on English (PR #350: "BPE
// GPT2 encode" 37.4 µs, "no cache" 47.7 µs). A pure-Go measurement on the
// o200k_base ranks (docs/calibration-analysis.md, "dense TTFT
// under-prediction") found 6.1–6.8 bytes a token against 4.8 and 62–91% of
// the pieces missing a warm cache. So random-dataset text costs about
// 1.2–1.6 × natural text, not the 7–9 × the unexplained 8–10 µs a prompt
// token of issue #28's held-out runs would need.
const RandomTextPromptTokenS = 1.32e-6

// UseRandomTextPromptCost switches on the random-dataset premium on the
// API server's tokenizer thread (PromptTokenS). On (adopted 2026-12-07,
// branch tok40): holdout split 372 of 575 either way; calibration 203 ->
// 202 of 220 (tanjunchen-vllm-tp8-128-c64's TTFT mean, a burst whose
// prediction sits at -30.0% and moves 447.0 -> 445.8 ms); dense ttft_mean
// within ±30% 20 -> 21 of 65; the guards unchanged. Off, every prompt is
// priced as natural text.
var UseRandomTextPromptCost = true

// PromptTokenS is the API server's tokenization and input processing per
// prompt token under eff: eff.FrontendPromptTokenS for natural text, and
// that times RandomTextPromptTokenS over the natural-text measurement
// where randomText (the client sends a random dataset's decoded ids), so a
// cluster that calibrates its own frontend_prompt_token_s scales both.
func PromptTokenS(eff Efficiency, randomText bool) float64 {
	if !randomText || !UseRandomTextPromptCost || DefaultEfficiency.FrontendPromptTokenS <= 0 {
		return eff.FrontendPromptTokenS
	}
	return eff.FrontendPromptTokenS * RandomTextPromptTokenS / DefaultEfficiency.FrontendPromptTokenS
}
