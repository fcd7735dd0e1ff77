package lint

import (
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"mvdan.cc/sh/v3/syntax"
)

// shShebang matches a first line that runs the script with sh (or dash):
// on Debian and Ubuntu /bin/sh is dash, which has no bash extensions.
var shShebang = regexp.MustCompile(`^#!\s*(/usr)?/bin/(env\s+)?(sh|dash)(\s|$)`)

// checkShBashism reports the bash-only tests that decide whether a launch
// branch runs, in a script whose shebang names sh (VL311): under dash
// `[ $X == 0 ]` fails with "unexpected operator" and `[[ ... ]]` with
// "[[: not found"; either way the condition is false and the branch's
// vllm serve never starts. Only a condition whose branch holds a launch is
// reported: other bashisms are out of scope for a launch linter.
func checkShBashism(p *pass) {
	for _, sc := range p.Scripts {
		if sc.Derived() || !shShebang.Match(firstLine(sc.Data())) {
			continue
		}
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			if ic, ok := n.(*syntax.IfClause); ok && ic.ThenPos.IsValid() {
				reportBashismCond(p, sc, ic)
			}
			return true
		})
	}
}

// reportBashismCond reports the first bash-only test of an if/elif whose
// branch starts a server.
func reportBashismCond(p *pass, sc *launch.Script, ic *syntax.IfClause) {
	what, at, ok := bashTest(ic.Cond)
	if !ok || !launchBetween(p, sc, sc.Pos(ic.ThenPos).Line, branchEnd(sc, ic)) {
		return
	}
	p.Report(sc.Name(), sc.Pos(at), "use `=` (or -eq for numbers) and [ ], or make the shebang #!/bin/bash",
		"%s in a #!/bin/sh script: where sh is dash (Debian, Ubuntu) it fails with %s, the test is false and the vllm serve in this branch never runs; where sh is bash it works", what, dashError(what))
}

// bashTest finds `==` in a [ ] / test command, or a [[ ]] test, among
// the condition's commands.
func bashTest(cond []*syntax.Stmt) (what string, at syntax.Pos, ok bool) {
	for _, st := range cond {
		syntax.Walk(st, func(n syntax.Node) bool {
			if ok {
				return false
			}
			switch x := n.(type) {
			case *syntax.TestClause:
				what, at, ok = "`[[ ... ]]`", x.Pos(), true
			case *syntax.CallExpr:
				if w, found := doubleEquals(x); found {
					what, at, ok = "`==` in `[ ]`", w.Pos(), true
				}
			}
			return !ok
		})
		if ok {
			return what, at, ok
		}
	}
	return "", syntax.Pos{}, false
}

// doubleEquals returns the `==` word of a `[ ... ]` or `test ...` command.
func doubleEquals(c *syntax.CallExpr) (*syntax.Word, bool) {
	if len(c.Args) < 3 {
		return nil, false
	}
	if name := c.Args[0].Lit(); name != "[" && name != "test" {
		return nil, false
	}
	for _, w := range c.Args[1:] {
		if w.Lit() == "==" {
			return w, true
		}
	}
	return nil, false
}

// dashError is dash's message for the construct.
func dashError(what string) string {
	if strings.Contains(what, "[[") {
		return `"[[: not found"`
	}
	return `"unexpected operator"`
}

// branchEnd is the last line of an if/elif branch: the line before the
// next elif/else, or the fi.
func branchEnd(sc *launch.Script, ic *syntax.IfClause) int {
	if ic.Else != nil {
		return sc.Pos(ic.Else.Position).Line - 1
	}
	return sc.Pos(ic.FiPos).Line
}

// launchBetween reports a server of this script starting on lines [from, to].
func launchBetween(p *pass, sc *launch.Script, from, to int) bool {
	for _, s := range p.Servers {
		at := s.Inv.Pos
		file := s.Inv.File
		if at.File != "" {
			file = at.File
		}
		if file == sc.Name() && at.Line >= from && at.Line <= to {
			return true
		}
	}
	return false
}

// firstLine is the script's first line.
func firstLine(data []byte) []byte {
	if i := strings.IndexByte(string(data), '\n'); i >= 0 {
		return data[:i]
	}
	return data
}
