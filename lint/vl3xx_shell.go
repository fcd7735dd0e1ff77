package lint

import (
	"bytes"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"mvdan.cc/sh/v3/syntax"
)

// eachCall visits every simple command of every parsed script.
func (p *pass) eachCall(fn func(sc *launch.Script, st *syntax.Stmt, c *syntax.CallExpr)) {
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			if st, ok := n.(*syntax.Stmt); ok {
				if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
					fn(sc, st, c)
				}
			}
			return true
		})
	}
}

// checkCommentContinuation reports a comment ending in a backslash inside a
// command: the shell ends the command at the comment (VL301).
func checkCommentContinuation(p *pass) {
	escapedHashComment(p)
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Comment)
			if !ok {
				return true
			}
			txt := strings.TrimRight(c.Text, " \t\r\n")
			if strings.HasSuffix(txt, "\\") && nextLineIsFlag(sc.Data(), int(c.Hash.Offset())) {
				p.Report(sc.Name(), sc.Pos(c.Hash), "move the comment above the command; a comment cannot sit inside a continued command", "comment inside a continued command: the backslash is part of the comment, so the next line runs as a separate command")
			}
			return true
		})
	}
}

// escapedHashComment finds `\ # comment` after a would-be continuation: the
// shell reads an escaped space, then " #", "comment"... as arguments, and
// the command ends at the end of the line.
func escapedHashComment(p *pass) {
	p.eachCall(func(sc *launch.Script, st *syntax.Stmt, c *syntax.CallExpr) {
		for _, w := range c.Args {
			l, ok := w.Parts[0].(*syntax.Lit)
			if ok && (strings.HasPrefix(l.Value, "\\ #") || strings.HasPrefix(l.Value, "\\\t#")) {
				p.Report(sc.Name(), sc.Pos(w.Pos()), "put the comment on its own line above the command", "comment after a line-continuation backslash: `\\ ` escapes the space, the comment words become arguments and the next line runs as a separate command")
			}
		}
	})
}

// nextLineIsFlag reports whether the line after offset starts with a dash.
func nextLineIsFlag(data []byte, off int) bool {
	rest := data[off:]
	i := strings.IndexByte(string(rest), '\n')
	if i < 0 {
		return false
	}
	next := strings.TrimLeft(string(rest[i+1:]), " \t")
	return strings.HasPrefix(next, "-")
}

// checkTrailingSpace reports `\ ` at the end of a line: an escaped space,
// not a line continuation (VL302).
func checkTrailingSpace(p *pass) {
	p.eachCall(func(sc *launch.Script, st *syntax.Stmt, c *syntax.CallExpr) {
		for i, w := range c.Args {
			last, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit)
			if !ok || !(strings.HasSuffix(last.Value, "\\ ") || strings.HasSuffix(last.Value, "\\\t")) {
				continue
			}
			if i+1 < len(c.Args) && c.Args[i+1].Pos().Line() == w.End().Line() {
				continue
			}
			end := sc.Pos(w.End())
			end.Col -= 2
			p.Report(sc.Name(), end, "delete the whitespace after the backslash", "whitespace after a line-continuation backslash: the command ends here and the next line runs on its own")
		}
	})
}

// checkLeadingFlag reports a command that starts with a flag: the previous
// line lost its continuation backslash (VL303).
func checkLeadingFlag(p *pass) {
	p.eachCall(func(sc *launch.Script, st *syntax.Stmt, c *syntax.CallExpr) {
		w := c.Args[0]
		if len(c.Assigns) > 0 || !strings.HasPrefix(w.Lit(), "-") {
			return
		}
		if launch.BacktickLine(sc.Data()) > 0 {
			return // PowerShell continuations: VL309 says why the lines fall apart
		}
		if !codeBefore(sc.Data(), int(w.Pos().Offset())) {
			return // a fragment that starts with flags ("add these options"), not a broken command
		}
		p.Report(sc.Name(), sc.Pos(w.Pos()), "end the previous line with `\\` (and nothing after it)", "line starts with %s: the previous line has no continuation, so these options never reach %s", w.Lit(), commandBefore(sc.File, w.Pos()))
	})
}

// commandBefore names, for a message, the command the statement ending
// last before pos starts: vLLM for a launch (vllm, python, docker and the
// other launcherWords, or a command word not known statically), else the
// program (`curl`): a curl that lost a backslash before its -H does not
// keep options from vLLM.
func commandBefore(f *syntax.File, pos syntax.Pos) string {
	var prev *syntax.Stmt
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if ok && st.End().Offset() <= pos.Offset() && (prev == nil || st.End().Offset() > prev.End().Offset()) {
			prev = st
		}
		return true
	})
	if prev == nil {
		return "vLLM"
	}
	c, ok := prev.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return "vLLM"
	}
	name := c.Args[0].Lit()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || launcherWords[name] || strings.HasPrefix(name, "python") || strings.Contains(name, "vllm") {
		return "vLLM"
	}
	return "`" + name + "`"
}

// checkCRLF reports a shell file saved with Windows line endings or a
// byte-order mark (VL309):
// bash keeps the carriage return in the last word of every line, so a
// continuation backslash escapes the \r instead of the newline and values
// such as interface names end in \r. One finding per file, at the first CRLF.
func checkCRLF(p *pass) {
	for _, sc := range p.Scripts {
		if sc.Derived() {
			continue // text derived from a manifest or another script
		}
		if sc.BOM() {
			p.Report(sc.Name(), launch.Pos{Line: 1, Col: 1}, "save the file as UTF-8 without BOM", "the file starts with a UTF-8 byte-order mark: the shell reads it as part of the first word (%s), so a shebang is not recognised and a first command is not found", firstWord(sc.Data()))
		}
		if l := launch.BacktickLine(sc.Data()); l > 0 {
			p.Report(sc.Name(), launch.Pos{Line: l, Col: 1}, "this is PowerShell syntax: end continued lines with \\ in a shell script", "line ends in a backtick, PowerShell's line continuation: in bash a pair of backticks is a command substitution, so the command is cut up and run wrongly")
		}
		i := bytes.Index(sc.Data(), []byte("\r\n"))
		if i < 0 {
			continue
		}
		n := bytes.Count(sc.Data(), []byte("\r\n"))
		p.Report(sc.Name(), sc.At(i), "convert the file to Unix line endings (dos2unix, or `sed -i 's/\\r$//'`)", "the file has Windows (CRLF) line endings on %d line(s): bash keeps the \\r, so line continuations break and values end in \\r", n)
	}
}

// codeBefore reports a non-blank, non-comment line before the line of
// byte offset off in a script's text. An offset, not the line the finding
// is reported at: a Markdown block's text starts at its own first line,
// wherever in the document the block is.
func codeBefore(data []byte, off int) bool {
	off = min(off, len(data))
	lines := strings.Split(string(data[:off]), "\n")
	for i := 0; i < len(lines)-1; i++ {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "#") {
			return true
		}
	}
	return false
}

// firstWord is the first word of a script, for messages.
func firstWord(data []byte) string {
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// launcherWords start a server when they are a command's first word.
var launcherWords = map[string]bool{"vllm": true, "ray": true, "docker": true, "podman": true, "nohup": true, "numactl": true, "uv": true, "srun": true}

// checkExportCommand reports `export VAR=value vllm serve ...` (VL310):
// export runs nothing, it exports "vllm", "serve"... as variable names.
// The intent is a per-command assignment (`VAR=value vllm serve ...`).
func checkExportCommand(p *pass) {
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			d, ok := n.(*syntax.DeclClause)
			if !ok || d.Variant == nil || d.Variant.Value != "export" {
				return true
			}
			for _, a := range d.Args {
				if !a.Naked || a.Name == nil {
					continue
				}
				if w := a.Name.Value; launcherWords[w] || strings.HasPrefix(w, "python") {
					p.Report(sc.Name(), sc.Pos(a.Pos()), "drop `export` to set the variable for this command only (VAR=value "+w+" ...), or export on a line of its own", "`export` runs no command: %q and the words after it are exported as variable names, so nothing starts", w)
					break
				}
			}
			return true
		})
	}
}
