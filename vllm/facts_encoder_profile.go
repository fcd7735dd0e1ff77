package vllm

// The profile run's multimodal encoder outputs. For a multimodal model vLLM's
// profile_run (vllm/v1/worker/gpu_model_runner.py) first runs the encoder on
// the dummy items of the modality with the most tokens per item, keeps the
// outputs in the encoder cache (`self.encoder_cache["tmp"] =
// dict(enumerate(dummy_encoder_outputs))`) through the language model's dummy
// run and the dummy sampler run, and clears them only after: they are part
// of the profiled peak that the KV cache is sized from.
//
// How many rows those outputs have changed. Before PR #30475 ("[Core][MM]
// Optimize encoder cache manager by operating with embeddings only",
// 2025-12-11) the encoder cache held the contiguous range of the item's
// placeholder tokens, and the profile padded the dummy outputs to the
// item's maximum token count (`output.new_zeros((max_mm_tokens_per_item,
// encoder_hidden_size))`); issue #25903 and PR #30450 describe the waste,
// 12.5× for Qwen3-VL video, whose maximum tokens per item count every
// video embedding as 12.5 prompt tokens (qwen3_vl.py get_max_video_tokens:
// "video_soft_tokens * 12.5", the timestamp text around each frame). From
// that PR on the cache holds embeddings only; its first release is not
// pinned.
const srcEncoderProfile = "vllm/v1/worker/gpu_model_runner.py profile_run (encoder_cache[\"tmp\"] kept through _dummy_run and " +
	"_dummy_sampler_run; dummy outputs padded to max_mm_tokens_per_item); vllm/model_executor/models/qwen3_vl.py " +
	"Qwen3VLProcessingInfo.get_max_video_tokens (video_soft_tokens * 12.5); PR #30475 (2025-12-11, embeddings only; " +
	"first release not pinned); confirmed at 0.11.0 by published/vllm-memory-logs.yaml qwen3vl-30b-a3b-sipeed-rtx3090-tp4 " +
	"(\"Encoder cache will be initialized with a budget of 153600 tokens, and profiled with 1 video items of the maximum feature size\")"

// Qwen3VLVideoTokensPerEmbed is the prompt tokens vLLM counts per Qwen3-VL
// video embedding when it sizes the largest video item (timestamps and
// vision start/end tokens around each frame's embeddings).
const Qwen3VLVideoTokensPerEmbed = 12.5

// EncoderProfilePlaceholders is whether the release's profile run holds the
// dummy encoder outputs at the item's whole placeholder length (Present),
// embeddings only (Absent), or a release not pinned either way (Maybe),
// with the source. Only 0.11.0 is confirmed (by a replayed start-up log);
// the releases before it (the padding's first release) and those after it
// (PR #30475's first release) are not pinned.
func (r Release) EncoderProfilePlaceholders() (Presence, string) {
	if r.Version.AtLeast(v0110) && r.Version.Less(v0111) {
		return Present, srcEncoderProfile
	}
	return Maybe, srcEncoderProfile
}
