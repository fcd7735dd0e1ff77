package lint

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Rule is one check. Codes are stable: never reused, kept across renames.
// A rule's name, severity, summary and documentation are its entry in the
// diag/codes catalog.
type Rule struct {
	// Code is "VL" + three digits: 0xx front end, 1xx per invocation,
	// 2xx across nodes, 3xx shell and container hygiene, 4xx against a spec.
	Code  diag.Code
	check func(p *pass)
	// needs are the flags the finding is about; the rule holds from the
	// first release that has them all (holdsFrom).
	needs []string
	// since is the first release of what the rule is about when no flag
	// says it (NixlConnector: 0.9.0); zero for none.
	since vllm.Version
	// perPool runs the rule once per pool of a disaggregated --spec, on
	// the pool's servers against the pool's colocated view
	// (spec.Deployment.RoleView): the 4xx rules that compare one engine's
	// layout with the spec (see runRules).
	perPool bool
}

// pass is what a rule sees: every input, parsed, and a way to report.
type pass struct {
	// Servers are the vLLM servers found in all inputs, in input order.
	Servers []*server
	// Rays are the `ray start` commands.
	Rays []*launch.Invocation
	// Scripts are all parsed shell text (files and embedded strings).
	Scripts []*launch.Script
	// Groups are the servers grouped into deployments (see groupServers).
	Groups [][]*server
	// Spec is the optional deployment spec (hardware facts).
	Spec *spec.Deployment
	// Release is the version used where an invocation names none.
	Release vllm.Release
	// Capacity estimates KV capacity for VL125; nil skips the rule.
	Capacity CapacityFunc

	// hosts are the files' host directives (hostDirective), by file name.
	hosts map[string]string
	// bundleHosts are the vlaunch bundles' `hosts` tables among the
	// inputs, by directory (parseBundleHosts).
	bundleHosts map[string][]bundleNode
	// outlines are the Markdown inputs' heading structures, by file name
	// (otherMDSection).
	outlines map[string]*launch.MarkdownOutline
	// pools are a disaggregated --spec's pools with the servers lint
	// assigned them (assignPools); pool is the one a per-pool pass checks
	// (nil: a colocated spec, or the pass over all servers).
	pools []*specPool
	pool  *specPool

	rule *Rule
	out  *diag.Diagnostics
}

// Report records a finding of the current rule at pos in file (in
// pos.File when the position is in another input: a runner's environment).
func (p *pass) Report(file string, pos launch.Pos, hint, format string, args ...interface{}) {
	if pos.File != "" {
		file = pos.File
	}
	*p.out = append(*p.out, diag.Diagnostic{
		Code: p.rule.Code, Severity: codes.Severity(p.rule.Code), File: file, Line: pos.Line, Col: pos.Col,
		Message: fmt.Sprintf(format, args...), Hint: hint,
	})
}

// ReportAt reports at a value's position in an invocation's file.
func (p *pass) ReportAt(inv *launch.Invocation, pos launch.Pos, hint, format string, args ...interface{}) {
	if pos.Line == 0 {
		pos = inv.Pos
	}
	p.Report(inv.File, pos, hint, format, args...)
}

// RuleByCode finds a rule in the registry.
func RuleByCode(code diag.Code) (*Rule, bool) {
	for _, r := range Rules {
		if r.Code == code {
			return r, true
		}
	}
	return nil, false
}

// ReportVersioned reports a finding that holds only for some vLLM releases.
// When nothing states the server's release it was linted for the newest
// one, so an error there is only a warning: the files may target a release
// where the construct is fine.
func (p *pass) ReportVersioned(s *server, pos launch.Pos, hint, format string, args ...interface{}) {
	p.ReportAt(s.Inv, pos, hint, format, args...)
	if d := &(*p.out)[len(*p.out)-1]; !s.Stated && d.Severity > diag.Warning {
		d.Severity = diag.Warning
		d.Message += unstatedSuffix(s)
	}
}

// ReportAtSeverity reports at a severity other than the rule's default:
// lower for a finding whose consequence is uncertain (an assumed GPU count,
// a release that only warns), higher for one the file shows is likely (an
// info rule whose risk the file makes concrete).
func (p *pass) ReportAtSeverity(inv *launch.Invocation, pos launch.Pos, sev diag.Severity, hint, format string, args ...interface{}) {
	p.ReportAt(inv, pos, hint, format, args...)
	(*p.out)[len(*p.out)-1].Severity = sev
}

// unstatedSuffix tells, in a message, that the release was not stated.
func unstatedSuffix(s *server) string {
	if s.Stated {
		return ""
	}
	return " (no vLLM version stated: linted for " + s.Rel.String() + ")"
}
