package vllm

import (
	"regexp"
	"strings"
)

// secretNameRE matches variable names that hold credentials by convention
// (HF_TOKEN, AWS_SECRET_ACCESS_KEY, WANDB_API_KEY, DB_PASSWORD, ...): a
// credential word between underscores or the ends of the name, so that
// MAX_TOKENS or TOKENIZER_PATH are not taken for secrets.
var secretNameRE = regexp.MustCompile(`(?i)(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)($|_)`)

// hfTokenRE matches a Hugging Face access token ("hf_" and 30+ letters and
// digits), which is a secret whatever flag or variable carries it.
var hfTokenRE = regexp.MustCompile(`^hf_[A-Za-z0-9]{30,}$`)

// secretFlags maps the `vllm serve` options whose value is a credential to
// the variable vLLM reads the same credential from, so a launch file never
// needs the value: --api-key and VLLM_API_KEY (vllm/entrypoints/openai/
// api_server.py uses `args.api_key or envs.VLLM_API_KEY`; both since 0.9.0,
// see the flag and env tables).
var secretFlags = map[string]string{"api-key": "VLLM_API_KEY"}

// SecretEnv reports whether an environment variable holds a credential:
// a variable the env table marks Secret, or a name with a credential word.
// This is the one rule validate, generate and lint apply to variables.
func SecretEnv(name string) bool {
	if e, ok := KnownEnvEver(name); ok && e.Secret {
		return true
	}
	return secretNameRE.MatchString(name)
}

// SecretFlag reports whether a command-line word names an option whose
// value is a credential ("--api-key", "--api_key", "--api-key=..."), and
// returns the variable that supplies the credential instead.
func SecretFlag(word string) (envVar string, ok bool) {
	if !strings.HasPrefix(word, "--") {
		return "", false
	}
	long, _ := splitFlag(word)
	envVar, ok = secretFlags[long]
	return envVar, ok
}

// SecretValue reports whether a value is recognisably a credential on its
// own (a Hugging Face token), wherever it appears.
func SecretValue(v string) bool { return hfTokenRE.MatchString(v) }
