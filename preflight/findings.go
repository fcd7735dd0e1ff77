package preflight

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// Findings turns the warns and fails into diagnostics for the machine
// formats (json, sarif, github): a fail is an error, a warn or a check
// that could not run (Unchecked) a warning;
// passes and skips are not findings. Each carries its check's code and the
// spec field it compared the host with; the caller places them in the spec
// file (spec.Deployment.Locate).
func (r Report) Findings() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, res := range r.Results {
		sev := diag.Warning
		switch res.Status {
		case Fail:
			sev = diag.Error
		case Warn, Unchecked: // a check that could not run is a warning, not an error
		default:
			continue
		}
		ds = append(ds, diag.Diagnostic{Code: res.Code, Severity: sev, Path: res.Path,
			Message: findingMessage(r.Node, res), Hint: oneLine(res.Fix)})
	}
	return ds
}

// findingMessage says on one line which check, what was found and what the
// spec expects: "node0 gpu.count: 4 GPUs; expected 8 GPUs".
func findingMessage(node string, res Result) string {
	var b strings.Builder
	b.WriteString(node + " " + res.ID)
	if res.Pool != "" {
		b.WriteString(" (" + res.Pool + " pool)")
	}
	b.WriteString(": " + oneLine(res.Found))
	if res.Expected != "" {
		b.WriteString("; expected " + oneLine(res.Expected))
	}
	return b.String()
}
