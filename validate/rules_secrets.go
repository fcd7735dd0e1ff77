package validate

import (
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// secretHint says where credentials go instead of the spec.
const secretHint = "remove it and export it where the scripts start: they pass HF_TOKEN and VLLM_API_KEY through from the environment (on Kubernetes, from Secrets)"

// checkSecrets reports credentials in vllm.env and vllm.extra_args, by
// the one rule generate and lint apply too (vllm.SecretEnv, SecretFlag,
// SecretValue): a spec, and every bundle made from it, is copied,
// committed and pasted into tickets, so a credential in it leaks.
func checkSecrets(c *checker) {
	keys := make([]string, 0, len(c.d.VLLM.Env))
	for k := range c.d.VLLM.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case vllm.SecretEnv(k):
			c.addAt(true, diag.Error, CodeSecret, p("vllm", "env", k), secretHint,
				"vllm.env sets %s, a credential; it would be written into every launch script", k)
		case vllm.SecretValue(c.d.VLLM.Env[k]):
			c.errorf(CodeSecret, p("vllm", "env", k), secretHint,
				"the value of %s is a Hugging Face token; it would be written into every launch script", k)
		}
	}
	for i, a := range c.d.VLLM.ExtraArgs {
		if env, ok := vllm.SecretFlag(a); ok {
			name, _, _ := strings.Cut(a, "=")
			c.errorf(CodeSecret, p("vllm", "extra_args", i), "remove it and its value, and export "+env+" where the scripts start (vLLM reads it from there)",
				"%s takes a credential; it would be written into every launch script", name)
		} else if vllm.SecretValue(a) {
			c.errorf(CodeSecret, p("vllm", "extra_args", i), secretHint, "this argument is a Hugging Face token; it would be written into every launch script")
		}
	}
}
