package main

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// newFindings drops from gen (the generator's findings) what validate
// already reported: the generator calls validate's rule on what the release
// refuses (validate.BundleRefusals) for every plan, so its warnings would
// otherwise print twice. A pool's "ROLE pool: " or "both pools: " prefix
// is ignored (validate reports a finding both pools share once).
func newFindings(gen, validated diag.Diagnostics) diag.Diagnostics {
	seen := map[string]bool{}
	for _, d := range validated {
		seen[findingKey(d)] = true
	}
	var out diag.Diagnostics
	for _, d := range gen {
		if !seen[findingKey(d)] {
			out = append(out, d)
		}
	}
	return out
}

func findingKey(d diag.Diagnostic) string {
	msg := strings.TrimPrefix(d.Message, "both pools: ")
	for _, role := range spec.Roles {
		msg = strings.TrimPrefix(msg, role+" pool: ")
	}
	return string(d.Code) + "\x00" + d.Path + "\x00" + msg
}
