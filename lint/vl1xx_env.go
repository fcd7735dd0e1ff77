package lint

import (
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
	"mvdan.cc/sh/v3/syntax"
)

// envNames lists every variable name in the release's table.
func envNames(rel vllm.Release) []string {
	var out []string
	for _, e := range rel.EnvVars() {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}

// checkEnvNames reports removed, not-yet-existing and misspelled vLLM
// variables (VL107).
func checkEnvNames(p *pass) {
	for _, s := range p.Servers {
		for _, e := range s.Inv.Env {
			if !strings.HasPrefix(e.Name, "VLLM_") && !strings.HasPrefix(e.Name, "NCCL_") && !strings.HasPrefix(e.Name, "GLOO_") && !strings.HasPrefix(e.Name, "NVSHMEM_") {
				continue
			}
			if spec, ok := s.Rel.Env(e.Name); ok {
				reportUnverifiedEnv(p, s, e, spec)
				continue
			}
			envProblem(p, s, e)
		}
	}
}

func envProblem(p *pass, s *server, e launch.EnvVar) {
	if old, ok := vllm.KnownEnvEver(e.Name); ok {
		if !old.Removed.IsZero() && s.Rel.Version.AtLeast(old.Removed) {
			p.ReportAt(s.Inv, e.Pos, old.Doc, "%s was removed in vLLM %s and is ignored (linting for %s)", e.Name, old.Removed, s.Rel)
			return
		}
		if !old.Confirmed.IsZero() {
			// First release not pinned: Since is only the earliest the
			// evidence allows.
			p.ReportAt(s.Inv, e.Pos, old.Doc, "%s does not exist yet in vLLM %s (not before %s; first seen in %s)", e.Name, s.Rel, old.Since, old.Confirmed)
			return
		}
		p.ReportAt(s.Inv, e.Pos, old.Doc, "%s does not exist yet in vLLM %s (added in %s)", e.Name, s.Rel, old.Since)
		return
	}
	// NCCL, Gloo and NVSHMEM read hundreds of variables the table does not
	// list (NCCL_IB_TC is two edits from NCCL_IB_HCA), so only one-edit
	// slips count there; vLLM's own names allow two.
	limit := 1
	if strings.HasPrefix(e.Name, "VLLM_") {
		limit = 2
	}
	for _, c := range catalog.Suggest(e.Name, envNames(s.Rel)) {
		if catalog.Levenshtein(e.Name, c) <= limit {
			p.ReportAt(s.Inv, e.Pos, "did you mean "+c+"?", "unknown variable %s: nothing reads it", e.Name)
			return
		}
	}
}

// checkEnvValues reports values outside a variable's choices and a
// VLLM_PORT that looks like a URI (VL108).
func checkEnvValues(p *pass) {
	for _, r := range p.Rays {
		checkNetEnv(p, r)
	}
	for _, s := range p.Servers {
		checkNetEnv(p, s.Inv)
		for _, e := range s.Inv.Env {
			if !e.Value.Known {
				continue
			}
			if e.Name == "VLLM_PORT" && e.Source == "service link" {
				p.ReportAt(s.Inv, e.Value.Pos, "rename the Service, or set enableServiceLinks: false in the pod spec", "the Service named vllm makes Kubernetes set VLLM_PORT=%s in the pods of its namespace; vLLM refuses a URI there", e.Value.Text)
				continue
			}
			if e.Name == "VLLM_PORT" && strings.Contains(e.Value.Text, "://") {
				p.ReportAt(s.Inv, e.Value.Pos, "in Kubernetes, a Service named `vllm` injects VLLM_PORT=tcp://...; rename the Service", "VLLM_PORT=%q looks like a URI; vLLM refuses to start", e.Value.Text)
				continue
			}
			spec, ok := s.Rel.Env(e.Name)
			if !ok || len(spec.Choices) == 0 || contains(spec.Choices, e.Value.Text) {
				continue
			}
			p.ReportAt(s.Inv, e.Value.Pos, "allowed: "+strings.Join(spec.Choices, ", "), "%s=%q is not a valid value", e.Name, e.Value.Text)
		}
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// checkUnexported reports launch variables assigned without export (VL123).
func checkUnexported(p *pass) {
	seen := map[filePos]bool{}
	refs := map[string]map[string]bool{}
	for _, s := range p.Servers {
		for _, e := range s.Inv.Unexported {
			if !launch.IsLaunchEnv(e.Name) || seen[fileAt(s.Inv.File, e.Pos)] || s.Inv.EnvOpen {
				continue
			}
			if refs[s.Inv.File] == nil {
				refs[s.Inv.File] = scriptRefs(p, s.Inv.File)
			}
			if refs[s.Inv.File][e.Name] {
				continue
			}
			if _, set := s.Inv.LookupEnv(e.Name); set {
				continue
			}
			seen[fileAt(s.Inv.File, e.Pos)] = true
			p.ReportAt(s.Inv, e.Pos, "write `export "+e.Name+"=...`", "%s is assigned but not exported, so vLLM never sees it", e.Name)
		}
	}
}

// scriptRefs lists the variables a file's scripts expand outside echo and
// printf: a name the script itself reads ("--gloo-timeout-seconds
// $GLOO_TIMEOUT") is a script variable, whatever its prefix.
func scriptRefs(p *pass, file string) map[string]bool {
	refs := map[string]bool{}
	for _, sc := range p.Scripts {
		if sc.Name() != file {
			continue
		}
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					if w := n.Args[0].Lit(); w == "echo" || w == "printf" {
						return false
					}
				}
			case *syntax.ParamExp:
				if n.Param != nil {
					refs[n.Param.Value] = true
				}
			}
			return true
		})
	}
	return refs
}

// checkNetEnv reports network variables whose value cannot work: an
// interface list with stray characters or the wrong syntax, an address that
// is no IP address or host name.
func checkNetEnv(p *pass, inv *launch.Invocation) {
	for _, e := range inv.Env {
		if !e.Value.Known {
			continue
		}
		if msg := badNetEnv(e.Name, e.Value.Text); msg != "" {
			p.ReportAt(inv, e.Value.Pos, "check the quoting: the value must be exactly the interface name(s) or address", "%s=%q %s", e.Name, e.Value.Text, msg)
		}
	}
}

// reportUnverifiedEnv notes a vLLM variable the release may or may not
// read: its first release is not pinned and the release comes before the
// first one a source shows it in. Unknown is not "does not exist yet", so
// an info (issue #23).
func reportUnverifiedEnv(p *pass, s *server, e launch.EnvVar, spec *vllm.EnvVar) {
	if spec.Owner != "vllm" || spec.In(s.Rel.Version) != vllm.Maybe {
		return
	}
	p.ReportAtSeverity(s.Inv, e.Pos, diag.Info, spec.Doc, "cannot verify that vLLM %s reads %s; first seen in %s (its first release is not known)", s.Rel, e.Name, spec.FirstConfirmed())
}
