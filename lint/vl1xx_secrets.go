package lint

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
	"mvdan.cc/sh/v3/syntax"
)

// checkSecrets reports credentials written into launch files as literal
// text (VL129), by the rule validate and generate apply to specs
// (vllm.SecretEnv, SecretFlag, FindSecrets: a token or a URL's password
// anywhere in a word), wherever the linter reads
// them: the environment and arguments of every command it recognised
// (vllm serve, ray start, containers), and every assignment and word of
// every script it parsed — an `export HF_TOKEN=hf_...` for a later command
// leaks as surely as one for vllm serve. A value taken from a variable the
// file does not set is not known, and not reported: it comes from the
// environment, which is where credentials belong. A credential is
// reported once, where it is written.
func checkSecrets(p *pass) {
	seen := map[string]bool{}
	once := func(file string, line int, what string) bool {
		k := fmt.Sprintf("%s:%d:%s", file, line, what)
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	for _, inv := range p.allInvocations() {
		secretEnv(p, inv, once)
		for _, a := range inv.Args {
			if literal(a) && vllm.SecretValue(a.Text) && once(inv.File, a.Pos.Line, a.Text) {
				reportToken(p, inv.File, a.Pos, a.Text)
			}
		}
	}
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if env, ok := vllm.SecretFlag(f.At.Text); ok && f.Value != nil && literal(*f.Value) {
				name, _, _ := strings.Cut(f.At.Text, "=")
				p.ReportAt(s.Inv, f.Value.Pos, "drop the option and export "+env+" where the script starts (vLLM reads it from there)",
					"%s is given a literal credential in the launch file", name)
			}
		}
	}
	for _, sc := range p.Scripts {
		scriptSecrets(p, sc, once)
	}
}

// secretEnv reports an invocation's variables that hold a literal credential.
func secretEnv(p *pass, inv *launch.Invocation, once func(string, int, string) bool) {
	for _, e := range inv.Env {
		if literal(e.Value) && (vllm.SecretEnv(e.Name) || vllm.SecretValue(e.Value.Text)) && once(inv.File, e.Value.Pos.Line, e.Name) {
			reportSecretVar(p, inv.File, e.Value.Pos, e.Name)
		}
	}
}

// scriptSecrets reports assignments of literal credentials and literal
// tokens anywhere in a script, whether or not a recognised command uses them.
func scriptSecrets(p *pass, sc *launch.Script, once func(string, int, string) bool) {
	syntax.Walk(sc.File, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Value == nil {
				return true
			}
			v, ok := literalWord(n.Value)
			at := sc.Pos(n.Value.Pos())
			// once by name and by text: a command that uses the variable
			// had its resolved value reported at this line already.
			if ok && strings.TrimSpace(v) != "" && (vllm.SecretEnv(n.Name.Value) || vllm.SecretValue(v)) &&
				once(sc.Name(), at.Line, n.Name.Value) && once(sc.Name(), at.Line, v) {
				reportSecretVar(p, sc.Name(), at, n.Name.Value)
			}
			return false // the value is this assignment's, not a word of its own
		case *syntax.Word:
			if v, ok := literalWord(n); ok && vllm.SecretValue(v) {
				if at := sc.Pos(n.Pos()); once(sc.Name(), at.Line, v) {
					reportToken(p, sc.Name(), at, v)
				}
			}
		}
		return true
	})
}

func reportSecretVar(p *pass, file string, at launch.Pos, name string) {
	p.Report(file, at, "export "+name+" where the script starts (or mount it from a Secret) instead of writing it here",
		"%s is set to a literal credential in the launch file", name)
}

// reportToken reports a credential inside a word (vllm.FindSecrets), the
// word shown masked.
func reportToken(p *pass, file string, at launch.Pos, word string) {
	p.Report(file, at, "take it from the environment (HF_TOKEN; AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; `docker login` for a registry) instead of writing it here",
		"%s is written into the launch file (%s)", vllm.SecretKinds(word), vllm.MaskSecrets(word))
}

// literalWord returns a shell word's text when it is written out (plain,
// quoted, no expansion).
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// literal reports a value written out in the file (fully resolved, not
// empty). A manifest's `value: $HF_TOKEN` is no credential but a template
// for envsubst (Kubernetes itself expands only $(NAME)).
func literal(v launch.Value) bool {
	return v.Known && strings.TrimSpace(v.Text) != "" && varName(v.Text) == "" && !noCredential[strings.ToLower(strings.TrimSpace(v.Text))]
}

// noCredential are words a script writes to say "no token" (AIConfigurator's
// generated run.sh: export HF_TOKEN=${HF_TOKEN:-"None"}): not a credential.
var noCredential = map[string]bool{"none": true, "null": true, "nil": true}
