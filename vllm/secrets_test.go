package vllm

import "testing"

func TestSecrets(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"HF_TOKEN", true}, {"VLLM_API_KEY", true}, {"WANDB_API_KEY", true}, {"aws_secret_access_key", true},
		{"DB_PASSWORD", true}, {"NCCL_SOCKET_IFNAME", false}, {"VLLM_HOST_IP", false}, {"MAX_TOKENS_PER_STEP", false}, {"TOKENIZER_PATH", false}, {"HUGGING_FACE_HUB_TOKEN", true}, {"OPENAI_APIKEY", true},
	} {
		if got := SecretEnv(tt.name); got != tt.want {
			t.Errorf("SecretEnv(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		word, env string
	}{
		{"--api-key", "VLLM_API_KEY"}, {"--api_key", "VLLM_API_KEY"}, {"--api-key=sk-1", "VLLM_API_KEY"},
		{"--served-model-name", ""}, {"api-key", ""}, {"-k", ""},
	} {
		env, ok := SecretFlag(tt.word)
		if env != tt.env || ok != (tt.env != "") {
			t.Errorf("SecretFlag(%s) = %q %v, want %q", tt.word, env, ok, tt.env)
		}
	}
	if !SecretValue("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH") || SecretValue("hf_short") || SecretValue("deepseek-ai/DeepSeek-V3") {
		t.Error("SecretValue")
	}
}
