package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkSecrets reports credentials written into launch files as literal
// text (VL129), by the rule validate and generate apply to specs
// (vllm.SecretEnv, SecretFlag, SecretValue). A value taken from a variable
// the file does not set is not known, and not reported: it comes from the
// environment, which is where credentials belong.
func checkSecrets(p *pass) {
	for _, s := range p.Servers {
		for _, e := range s.Inv.Env {
			if literal(e.Value) && (vllm.SecretEnv(e.Name) || vllm.SecretValue(e.Value.Text)) {
				p.ReportAt(s.Inv, e.Value.Pos, "export "+e.Name+" where the script starts (or mount it from a Secret) instead of writing it here",
					"%s is set to a literal credential in the launch file", e.Name)
			}
		}
		for _, f := range s.Flags() {
			if env, ok := vllm.SecretFlag(f.At.Text); ok && f.Value != nil && literal(*f.Value) {
				name, _, _ := strings.Cut(f.At.Text, "=")
				p.ReportAt(s.Inv, f.Value.Pos, "drop the option and export "+env+" where the script starts (vLLM reads it from there)",
					"%s is given a literal credential in the launch file", name)
			}
		}
		for _, a := range s.Inv.Args {
			if literal(a) && vllm.SecretValue(a.Text) {
				p.ReportAt(s.Inv, a.Pos, "take it from the environment (HF_TOKEN) instead of writing it here",
					"a Hugging Face token is written into the launch file")
			}
		}
	}
}

// literal reports a value written out in the file (fully resolved, not
// empty). A manifest's `value: $HF_TOKEN` is no credential but a template
// for envsubst (Kubernetes itself expands only $(NAME)).
func literal(v launch.Value) bool {
	return v.Known && strings.TrimSpace(v.Text) != "" && varName(v.Text) == ""
}
