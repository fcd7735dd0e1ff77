package generator

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Diagnostic codes. GEN001 (unsafe names and values), GEN003 (version) and
// GEN010 (no socket interface) are retired: they re-raised what validate
// reports once, with positions (SPEC111-SPEC114, SPEC117, SPEC115).
const (
	CodeLayout   = codes.GenLayout   // the layout does not fit the nodes
	CodeAll2All  = codes.GenAll2All  // all-to-all backend choice or fallback
	CodeSecret   = codes.GenSecret   // a secret in vllm.env or vllm.extra_args
	CodeExtraArg = codes.GenExtraArg // extra_args the release does not know
	CodeTemplate = codes.GenTemplate // template parse/execute error
	CodeIdleGPUs = codes.GenIdleGPUs // GPUs left unused by the layout
	CodeRuntime  = codes.GenRuntime  // runtime-specific restriction
	// CodeModelPath: the model comes from model.config alone, so the
	// bundle would have no checkpoint for vllm serve to load.
	CodeModelPath = codes.GenModelPath
)

// checkSecrets refuses credentials in vllm.env and vllm.extra_args (the
// rule is vllm.SecretEnv / SecretFlag / SecretValue, shared with validate
// and lint): bundles read them from the environment they are started in
// (Kubernetes: from Secrets), so they never land on disk. (Names,
// addresses and values that could break out of the generated files are
// validate's: SPEC111-SPEC114.)
func checkSecrets(d *spec.Deployment) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, k := range sortedKeys(d.VLLM.Env) {
		if vllm.SecretEnv(k) || vllm.SecretValue(d.VLLM.Env[k]) {
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, "vllm.env."+k, fmt.Sprintf("%s looks like a secret; vlaunch never writes secrets into launch files", k),
				"remove it from the spec and export it where the scripts start (they pass HF_TOKEN and VLLM_API_KEY through; on Kubernetes they come from Secrets)"))
		}
	}
	for i, a := range d.VLLM.ExtraArgs {
		path := fmt.Sprintf("vllm.extra_args[%d]", i)
		if env, ok := vllm.SecretFlag(a); ok {
			name, _, _ := strings.Cut(a, "=")
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, path, fmt.Sprintf("%s takes a secret; vlaunch never writes secrets into launch files", name),
				fmt.Sprintf("remove it and its value, and export %s where the scripts start (vLLM reads it; the scripts pass it through)", env)))
		} else if vllm.SecretValue(a) {
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, path, "this argument looks like a Hugging Face token; vlaunch never writes secrets into launch files",
				"remove it and export HF_TOKEN where the scripts start"))
		}
	}
	return ds
}

// k8sName turns a (validated) deployment name into a DNS-1035 label short
// enough to take the "-api" suffix: lower case, '.' and '_' become '-'.
func k8sName(name string) string {
	n := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r == '.' || r == '_':
			return '-'
		}
		return r
	}, name)
	if len(n) > 58 {
		n = n[:58]
	}
	n = strings.Trim(n, "-")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "v" + n
	}
	return n
}

// gdiag builds a diagnostic about a spec field, placed by the spec's one
// position pass (spec.Locate).
func gdiag(d *spec.Deployment, code diag.Code, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	ds := diag.Diagnostics{{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}}
	d.Locate(ds)
	return ds[0]
}
