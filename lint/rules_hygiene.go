package lint

import (
	"bytes"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// eachCall visits every simple command of every parsed script.
func (p *Pass) eachCall(fn func(sc *Script, st *syntax.Stmt, c *syntax.CallExpr)) {
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
func checkCommentContinuation(p *Pass) {
	escapedHashComment(p)
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Comment)
			if !ok {
				return true
			}
			txt := strings.TrimRight(c.Text, " \t\r\n")
			if strings.HasSuffix(txt, "\\") && nextLineIsFlag(sc.src, int(c.Hash.Offset())) {
				p.Report(sc.src.file, sc.src.pos(c.Hash), "move the comment above the command; a comment cannot sit inside a continued command", "comment inside a continued command: the backslash is part of the comment, so the next line runs as a separate command")
			}
			return true
		})
	}
}

// escapedHashComment finds `\ # comment` after a would-be continuation: the
// shell reads an escaped space, then " #", "comment"... as arguments, and
// the command ends at the end of the line.
func escapedHashComment(p *Pass) {
	p.eachCall(func(sc *Script, st *syntax.Stmt, c *syntax.CallExpr) {
		for _, w := range c.Args {
			l, ok := w.Parts[0].(*syntax.Lit)
			if ok && (strings.HasPrefix(l.Value, "\\ #") || strings.HasPrefix(l.Value, "\\\t#")) {
				p.Report(sc.src.file, sc.src.pos(w.Pos()), "put the comment on its own line above the command", "comment after a line-continuation backslash: `\\ ` escapes the space, the comment words become arguments and the next line runs as a separate command")
			}
		}
	})
}

// nextLineIsFlag reports whether the line after offset starts with a dash.
func nextLineIsFlag(src *source, off int) bool {
	rest := src.data[off:]
	i := strings.IndexByte(string(rest), '\n')
	if i < 0 {
		return false
	}
	next := strings.TrimLeft(string(rest[i+1:]), " \t")
	return strings.HasPrefix(next, "-")
}

// checkTrailingSpace reports `\ ` at the end of a line: an escaped space,
// not a line continuation (VL302).
func checkTrailingSpace(p *Pass) {
	p.eachCall(func(sc *Script, st *syntax.Stmt, c *syntax.CallExpr) {
		for i, w := range c.Args {
			last, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit)
			if !ok || !(strings.HasSuffix(last.Value, "\\ ") || strings.HasSuffix(last.Value, "\\\t")) {
				continue
			}
			if i+1 < len(c.Args) && c.Args[i+1].Pos().Line() == w.End().Line() {
				continue
			}
			end := sc.src.pos(w.End())
			end.Col -= 2
			p.Report(sc.src.file, end, "delete the whitespace after the backslash", "whitespace after a line-continuation backslash: the command ends here and the next line runs on its own")
		}
	})
}

// checkLeadingFlag reports a command that starts with a flag: the previous
// line lost its continuation backslash (VL303).
func checkLeadingFlag(p *Pass) {
	p.eachCall(func(sc *Script, st *syntax.Stmt, c *syntax.CallExpr) {
		w := c.Args[0]
		if len(c.Assigns) > 0 || !strings.HasPrefix(w.Lit(), "-") {
			return
		}
		p.Report(sc.src.file, sc.src.pos(w.Pos()), "end the previous line with `\\` (and nothing after it)", "line starts with %s: the previous line has no continuation, so these options never reach vLLM", w.Lit())
	})
}

// checkRepeatedEntrypoint reports `vllm serve` after a vllm/vllm-openai
// image, whose entrypoint already is `vllm serve` (VL304).
func checkRepeatedEntrypoint(p *Pass) {
	for _, s := range p.Servers {
		c := s.Inv.Container
		if c == nil || c.RepeatedEntrypoint == nil {
			continue
		}
		p.ReportAt(s.Inv, c.RepeatedEntrypoint.Pos, "pass only the serve arguments after the image (or set --entrypoint)", "the image's entrypoint already runs `vllm serve`; repeating it makes %q the model argument", c.RepeatedEntrypoint.Text)
	}
}

// checkDockerShm reports a container without host IPC or a shared-memory
// size: PyTorch and NCCL need more than Docker's 64 MiB /dev/shm (VL305).
func checkDockerShm(p *Pass) {
	for _, s := range p.Servers {
		c := s.Inv.Container
		if c == nil || c.Runtime != "docker" || c.HostIPC || c.HasShm {
			continue
		}
		p.ReportAt(s.Inv, c.Pos, "add --ipc=host or --shm-size=16g (compose: ipc: host or shm_size)", "container without host IPC or a larger /dev/shm: the 64 MiB default breaks NCCL and tensor-parallel workers")
	}
}

// checkDockerNetwork reports multi-node containers without host networking (VL306).
func checkDockerNetwork(p *Pass) {
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		for _, s := range g {
			c := s.Inv.Container
			if c != nil && c.Runtime == "docker" && !c.HostNetwork {
				p.ReportAt(s.Inv, c.Pos, "add --network host", "multi-node container without --network host: the DP/NCCL ports and addresses are not reachable from other nodes")
			}
		}
	}
}

// checkUndefinedRefs reports manifest references to variables nothing defines (VL307).
func checkUndefinedRefs(p *Pass) {
	seen := map[string]bool{}
	for _, inv := range p.allInvocations() {
		for _, r := range inv.UndefinedRefs {
			key := fmt.Sprintf("%s:%d:%d:%s", inv.File, r.Pos.Line, r.Pos.Col, r.Text)
			if seen[key] {
				continue
			}
			seen[key] = true
			p.ReportAt(inv, r.Pos, "define it in the container's env (LeaderWorkerSet provides LWS_LEADER_ADDRESS, LWS_GROUP_SIZE, LWS_WORKER_INDEX)", "%s is not defined in the container's environment", r.Text)
		}
	}
}

// checkHostOnlyEnv reports launch variables the host sets that the
// container never receives (VL308).
func checkHostOnlyEnv(p *Pass) {
	for _, s := range p.Servers {
		for _, e := range s.Inv.HostOnlyEnv {
			hint := "pass it with -e " + e.Name + " (or --env-file)"
			if s.Inv.Container != nil && s.Inv.Container.Runtime == "apptainer" {
				hint = "pass it with --env " + e.Name + "=... (--cleanenv drops the host environment)"
			}
			p.ReportAt(s.Inv, e.Pos, hint, "%s is set on the host but not passed into the container", e.Name)
		}
	}
}

func (p *Pass) allInvocations() []*Invocation {
	out := append([]*Invocation{}, p.Rays...)
	for _, s := range p.Servers {
		out = append(out, s.Inv)
	}
	return out
}

// checkCRLF reports a shell file saved with Windows line endings or a
// byte-order mark (VL309):
// bash keeps the carriage return in the last word of every line, so a
// continuation backslash escapes the \r instead of the newline and values
// such as interface names end in \r. One finding per file, at the first CRLF.
func checkCRLF(p *Pass) {
	for _, sc := range p.Scripts {
		if sc.src.sub != nil {
			continue // text derived from a manifest or another script
		}
		if sc.src.bom {
			p.Report(sc.src.file, Pos{Line: 1, Col: 1}, "save the file as UTF-8 without BOM", "the file starts with a UTF-8 byte-order mark: the shell reads it as part of the first word (%s), so a shebang is not recognised and a first command is not found", firstWord(sc.src.data))
		}
		if l := backtickLine(sc.src.data); l > 0 {
			p.Report(sc.src.file, Pos{Line: l, Col: 1}, "this is PowerShell syntax: end continued lines with \\ in a shell script", "line ends in a backtick, PowerShell's line continuation: in bash a pair of backticks is a command substitution, so the command is cut up and run wrongly")
		}
		i := bytes.Index(sc.src.data, []byte("\r\n"))
		if i < 0 {
			continue
		}
		n := bytes.Count(sc.src.data, []byte("\r\n"))
		p.Report(sc.src.file, sc.src.at(i), "convert the file to Unix line endings (dos2unix, or `sed -i 's/\\r$//'`)", "the file has Windows (CRLF) line endings on %d line(s): bash keeps the \\r, so line continuations break and values end in \\r", n)
	}
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
func checkExportCommand(p *Pass) {
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
					p.Report(sc.src.file, sc.src.pos(a.Pos()), "drop `export` to set the variable for this command only (VAR=value "+w+" ...), or export on a line of its own", "`export` runs no command: %q and the words after it are exported as variable names, so nothing starts", w)
					break
				}
			}
			return true
		})
	}
}

// backtickLine is the first line ending in " `" (1-based), 0 if none.
func backtickLine(data []byte) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasSuffix(bytes.TrimRight(l, " \t\r"), []byte(" `")) {
			return i + 1
		}
	}
	return 0
}
