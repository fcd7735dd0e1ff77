package vllm

import "testing"

// A text prompt waits for the tokenizer thread (every model but gpt-oss,
// whose chat prompt harmony builds as token ids).
func TestIngestAwaitsTokenizer(t *testing.T) {
	for mt, want := range map[string]bool{"gpt_oss": false, "deepseek_v3": true, "qwen3": true, "glm4_moe": true, "": true} {
		if got := IngestAwaitsTokenizer(mt); got != want {
			t.Errorf("IngestAwaitsTokenizer(%q) = %v, want %v", mt, got, want)
		}
	}
}
