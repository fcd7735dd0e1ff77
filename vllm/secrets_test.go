package vllm

import (
	"strings"
	"testing"
)

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

// TestFindSecrets: each credential form is found inside a longer value,
// and masked without echoing any of it; ordinary values that share a
// prefix or a separator with a credential are not taken for one. The
// tokens are made up in each format's shape (vllm/secrets.go cites the
// formats); the AWS pair is AWS's documented example key.
func TestFindSecrets(t *testing.T) {
	for _, tt := range []struct {
		v, kind, masked string
	}{
		// the QA's three specs (qa38/bad/secret-*.yaml)
		{"https://me:hf_abcdefghijklmnopqrstuvwxyzABCDEFGH@huggingface.co/openai/gpt-oss-120b", "a password in a URL",
			"https://me:****@huggingface.co/openai/gpt-oss-120b"},
		{"s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY@bucket/gpt-oss", "an AWS access key and a password in a URL",
			"s3://****:****@bucket/gpt-oss"},
		{"user:ghp_abcdefghijklmnopqrstuvwxyz0123456789@registry.example.com/vllm:v0.22.1", "a GitHub token",
			"user:****@registry.example.com/vllm:v0.22.1"},
		// a plain password in a URL, any scheme
		{"https://alice:correct-horse@models.example.com/llama", "a password in a URL", "https://alice:****@models.example.com/llama"},
		{"postgres://:s3cr3t@db:5432/x", "a password in a URL", "postgres://:****@db:5432/x"},
		// tokens as substrings
		{"--hf-token=hf_abcdefghijklmnopqrstuvwxyz0123", "a Hugging Face token", "--hf-token=****"},
		{"Bearer gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "a GitHub token", "Bearer ****"},
		{"github_pat_11ABCDEFG0123456789abc_" + "xyzXYZ0123456789xyzXYZ0123456789xyzXYZ0123456789xyzXYZ01234", "a GitHub token", "****"},
		{"token=glpat-AbCdEfGhIjKlMnOpQrSt", "a GitLab token", "token=****"},
		{"key ASIAIOSFODNN7EXAMPLE here", "an AWS access key", "key **** here"},
		{"OPENAI=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "an API key (sk-…)", "OPENAI=****"},
		{"sk-T3BlbkFJa1b2c3d4e5f6g7h8i9j0", "an API key (sk-…)", "****"},
		{"xoxb-1234567890-0987654321-AbCdEfGhIjKl", "a Slack token", "****"},
	} {
		if got := SecretKinds(tt.v); got != tt.kind {
			t.Errorf("SecretKinds(%q) = %q, want %q", tt.v, got, tt.kind)
		}
		if got := MaskSecrets(tt.v); got != tt.masked {
			t.Errorf("MaskSecrets(%q) = %q, want %q", tt.v, got, tt.masked)
		}
		if !SecretValue(tt.v) {
			t.Errorf("SecretValue(%q) = false", tt.v)
		}
	}
	for _, v := range []string{
		"hf_transfer", "HF_HUB_ENABLE_HF_TRANSFER", "pip install hf_transfer", "hf_short",
		"/models/task-classifier-v2", "/data/sk-learn-models-for-production-2024", "risk-assessment-model-0123456789",
		"vllm/vllm-openai@sha256:3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
		"registry.example.com:5000/vllm/vllm-openai:v0.22.1",
		"https://huggingface.co/openai/gpt-oss-120b", "s3://bucket/models/gpt-oss", "https://host:8443/models/a@b",
		"https://user:$HF_TOKEN@huggingface.co/x", "git+ssh://git@github.com/org/repo",
		"deepseek-ai/DeepSeek-V3", "ghp_short", "AKIAshort", "--kv-transfer-config={\"kv_connector\":\"NixlConnector\"}",
		"MY_hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "xoxb-notatoken",
	} {
		if s := FindSecrets(v); len(s) != 0 {
			t.Errorf("FindSecrets(%q) = %+v, want none", v, s)
		}
	}
}

// TestBlankSecrets: the snippet source keeps its lines and columns and
// loses the credential.
func TestBlankSecrets(t *testing.T) {
	in := "model:\n  path: \"https://me:hf_abcdefghijklmnopqrstuvwxyzABCDEFGH@huggingface.co/x\"\n  name: gpt-oss\n"
	want := "model:\n  path: \"https://me:" + strings.Repeat("*", 37) + "@huggingface.co/x\"\n  name: gpt-oss\n"
	if got := string(BlankSecrets([]byte(in))); got != want {
		t.Errorf("BlankSecrets:\n%s\nwant\n%s", got, want)
	}
}

// TestSecretArgs: an option is given a credential apart or joined; alone
// (--hf-token's stored login) or followed by another option it is given
// none.
func TestSecretArgs(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []SecretArg
	}{
		{[]string{"--hf-token", "hf_abcdefSECRETtoken123"}, []SecretArg{{0, 1, "--hf-token", "HF_TOKEN"}}},
		{[]string{"--seed", "1", "--hf_token=x"}, []SecretArg{{2, 2, "--hf_token", "HF_TOKEN"}}},
		{[]string{"--api-key", "k", "--hf-token"}, []SecretArg{{0, 1, "--api-key", "VLLM_API_KEY"}}},
		{[]string{"--hf-token", "--seed", "1"}, nil},
		{[]string{"--hf-token="}, nil},
		{[]string{"--max-tokens", "hf_abcdefSECRETtoken123"}, nil},
	} {
		got := SecretArgs(tt.args)
		if len(got) != len(tt.want) {
			t.Errorf("SecretArgs(%q) = %+v, want %+v", tt.args, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("SecretArgs(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		}
	}
	if args := []string{"--hf-token", "v", "--seed", "1"}; !SecretArgWord(args, 1) || !SecretArgWord(args, 0) || SecretArgWord(args, 3) {
		t.Error("SecretArgWord")
	}
}

// TestBlankSecretArgs: a snippet does not echo the value given to a secret
// option, in a YAML flow list, a block list (the value on the next line),
// a shell line and its continuation; a bare option and comments are kept.
func TestBlankSecretArgs(t *testing.T) {
	in := `vllm: {extra_args: ["--hf-token", "tok123"]}
  - --api-key  # want SPEC121
  - key456
vllm serve m --hf-token=tok789 --port 8000 \
  --api-key \
  key000
vllm serve m --hf-token --seed 1 # --hf-token here
`
	want := `vllm: {extra_args: ["--hf-token", "******"]}
  - --api-key  # want SPEC121
  - ******
vllm serve m --hf-token=****** --port 8000 \
  --api-key \
  ******
vllm serve m --hf-token --seed 1 # --hf-token here
`
	if got := string(BlankSecrets([]byte(in))); got != want {
		t.Errorf("BlankSecrets:\n%s\nwant\n%s", got, want)
	}
}
