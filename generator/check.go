package generator

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// Diagnostic codes. GEN001 (unsafe names and values), GEN003 (version) and
// GEN010 (no socket interface) are retired: they re-raised what validate
// reports once, with positions (SPEC111-SPEC114, SPEC117, SPEC115).
const (
	CodeLayout   = "GEN002" // the layout does not fit the nodes
	CodeAll2All  = "GEN004" // all-to-all backend choice or fallback
	CodeSecret   = "GEN005" // a secret in vllm.env
	CodeExtraArg = "GEN006" // extra_args the release does not know
	CodeTemplate = "GEN007" // template parse/execute error
	CodeIdleGPUs = "GEN008" // GPUs left unused by the layout
	CodeRuntime  = "GEN009" // runtime-specific restriction
)

// secretKeyRE matches variable names that hold credentials.
var secretKeyRE = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|ACCESS_KEY|PRIVATE_KEY)`)

// checkSecrets refuses secrets in vllm.env: scripts read them from the
// environment they are started in, so they never land on disk. (Names,
// addresses and values that could break out of the generated files are
// validate's: SPEC111-SPEC114.)
func checkSecrets(d *spec.Deployment) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, k := range sortedKeys(d.VLLM.Env) {
		if secretKeyRE.MatchString(k) {
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, "vllm.env."+k, fmt.Sprintf("%s looks like a secret; vlaunch never writes secrets into launch files", k),
				"remove it from the spec and export it on each node (the scripts pass HF_TOKEN through when it is set)"))
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

// gdiag builds a diagnostic positioned at the spec field when known.
func gdiag(d *spec.Deployment, code string, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	dd := diag.Diagnostic{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}
	if path != "" {
		dd.Line, dd.Col = d.Pos(splitPath(path)...)
	}
	return dd
}

// splitPath turns "hardware.nodes[1].name" into segments for spec.Pos.
func splitPath(p string) []string {
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	return strings.Split(p, ".")
}
