package launch

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"mvdan.cc/sh/v3/syntax"
)

// Markdown reports a Markdown document by its extension.
func Markdown(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// fence is one fenced code block of a Markdown document: its language and
// its content lines (1-based line numbers of the document).
type fence struct {
	lang  string
	lines []mdLine
}

// mdLine is one content line of a fence with its line number and the
// indentation it shares with the fence (stripped so that here-documents and
// YAML keep their own indentation).
type mdLine struct {
	no     int
	indent int
	text   string
}

// maxFences bounds the blocks read from one document: each YAML block is
// parsed on its own, so a document of tiny blocks would cost quadratic time.
const maxFences = 256

// fences returns a document's fenced code blocks (``` or ~~~, opened at
// any indentation as in lists and admonitions, closed by a fence of the same
// character at least as long). An unclosed block runs to the end.
func fences(data []byte) []fence {
	var out []fence
	var cur *fence
	var char byte
	var size, indent int
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		body := strings.TrimLeft(line, " \t")
		ind := len(line) - len(body)
		if cur == nil {
			c, n := fenceRun(body)
			if n >= 3 && !(c == '`' && strings.ContainsRune(body[n:], '`')) {
				out = append(out, fence{lang: fenceLang(body[n:])})
				cur, char, size, indent = &out[len(out)-1], c, n, ind
			}
			continue
		}
		if c, n := fenceRun(body); c == char && n >= size && strings.TrimSpace(body[n:]) == "" {
			cur = nil
			if len(out) >= maxFences {
				break
			}
			continue
		}
		strip := min(indent, ind)
		cur.lines = append(cur.lines, mdLine{no: i + 1, indent: strip, text: line[strip:]})
	}
	return out
}

// MarkdownCodeLines returns the 1-based numbers of a Markdown document's
// code-block lines: inside fenced blocks (``` or ~~~, as fences reads them,
// every block however many) and indented blocks (CommonMark: lines indented
// by four spaces or a tab, after a blank line or another such line, outside
// a fence). The fence lines themselves are not code. A list item's indented
// continuation reads as code here too: erring towards reading a directive.
func MarkdownCodeLines(data []byte) map[int]bool {
	code := map[int]bool{}
	var char byte
	var size int
	inFence, prevBlank, inIndented := false, true, false
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		body := strings.TrimLeft(line, " \t")
		if inFence {
			if c, n := fenceRun(body); c == char && n >= size && strings.TrimSpace(body[n:]) == "" {
				inFence, prevBlank = false, false
				continue
			}
			code[i+1] = true
			continue
		}
		blank := body == ""
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		switch {
		case blank:
			// A blank line inside an indented block belongs to it; it ends
			// nothing until a non-indented line does.
		case indented && (prevBlank || inIndented):
			inIndented = true
			code[i+1] = true
		default:
			inIndented = false
			if c, n := fenceRun(body); n >= 3 && !(c == '`' && strings.ContainsRune(body[n:], '`')) {
				inFence, char, size = true, c, n
			}
		}
		prevBlank = blank
	}
	return code
}

// fenceRun returns the fence character a line starts with and how many.
func fenceRun(body string) (byte, int) {
	if body == "" || (body[0] != '`' && body[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(body) && body[n] == body[0] {
		n++
	}
	return body[0], n
}

// fenceLang is the first word of an info string, without the braces and
// dot of attribute syntax (```{.bash}) or a title after it.
func fenceLang(info string) string {
	f := strings.Fields(strings.NewReplacer("{", " ", "}", " ", ".", " ").Replace(info))
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(f[0])
}

// shellLangs and yamlLangs are the info strings whose blocks are linted;
// other blocks (Python, JSON, output, untagged) are prose to lint.
var (
	shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "zsh": true, "console": true, "shell-session": true, "shellsession": true}
	yamlLangs  = map[string]bool{"yaml": true, "yml": true}
)

// ParseMarkdown lints the shell and YAML code blocks of a Markdown document
// (a README, a recipe): the shell blocks are read in order, in the shell
// sessions mdSessions lays out (the blocks of one section are one session;
// a heading starts another, which only a setup section's variables carry
// into), each YAML block as a manifest of its own; every position is the
// document's.
func ParseMarkdown(file string, data []byte) ([]*Invocation, []*Script, diag.Diagnostics) {
	data = validUTF8(data)
	fe := &frontEnd{file: file, funcs: map[string]*syntax.FuncDecl{}}
	sessions := newMDSessions(Outline(data))
	var invs []*Invocation
	var scripts []*Script
	var ds diag.Diagnostics
	for _, f := range fences(data) {
		if yamlLangs[f.lang] {
			f.lang = shellInYAML(f)
		}
		switch {
		case shellLangs[f.lang] && (outputBlock(f) || flagFragment(f)):
			// program output tagged as shell, or options to add to a
			// command shown elsewhere: nothing runs from it
		case shellLangs[f.lang]:
			src := blockSource(file, f, f.lang == "console" || f.lang == "shell-session" || f.lang == "shellsession")
			if src == nil {
				continue
			}
			n := len(fe.scripts)
			sc, funcs := sessions.scopeFor(f.lines[0].no)
			fe.funcs = funcs
			inShell(sc, fe.shellEnv)
			fe.parseAndWalk(src, sc, walkCtx{})
			var file *syntax.File
			if len(fe.scripts) > n {
				file = fe.scripts[n].File
			}
			sessions.ran(file)
			fe.notePlaceholders(src, true)
		case yamlLangs[f.lang]:
			i, s, d := ParseManifest(file, yamlBlock(f))
			invs, scripts, ds = append(invs, i...), append(scripts, s...), append(ds, d...)
		}
	}
	return append(fe.invs, invs...), append(fe.scripts, scripts...), append(fe.diags, ds...)
}

// inShell gives a block the environment of the interactive container
// shells the document started before it (frontEnd.shellEnv): a reader
// types the commands that follow into that shell, on every machine the
// document started it on. A variable the block's session already has
// keeps its value.
func inShell(sc *scope, env []EnvVar) {
	for _, e := range env {
		if _, ok := sc.vars[e.Name]; !ok {
			sc.vars[e.Name] = &shVar{val: e.Value, exported: true, setAt: e.Pos}
		}
	}
}

// outputLine matches a line of program output: a vLLM or Python log line
// (with vLLM's process prefixes), a banner or rule of = or - (vllm bench
// serve's "==== Serving Benchmark Result ====" and its section rules), a
// table row or border (lm_eval's results, evalscope's "+----+" grid), a
// traceback, a "Name (unit):   value"
// line of a benchmark summary, a timestamped log line of another program,
// or a directory listing's line.
var outputLine = regexp.MustCompile(`^(?:` +
	`(?:\([A-Za-z][\w:]* pid=\d+(?:, ip=[\w.:-]+)?\) )*(?:INFO|WARNING|ERROR|DEBUG|CRITICAL)\b` +
	// a timestamped log line of another program (Python logging's
	// "03/29 03:20:03 - AISBench - INFO - …", vllm-ascend's Hunyuan-A13B
	// tutorial) and a directory listing ("." and "|-- config.json", its
	// Kimi-K2-Thinking tutorial)
	`|\d{2,4}[-/]\d{2}(?:[-/]\d{2,4})?[ T]\d{2}:\d{2}:\d{2}` +
	"|\\.$|(?:[|`]--|[├└]──|│)" +
	`|[=-]{3,}` +
	`|\|.*\|$|\+[-=+]{3,}\+$` +
	`|Traceback \(most recent call last\)|File "[^"]+", line \d+` +
	`|[A-Z][\w ()/.,-]*:\s{2,}\S+$` +
	`)`)

// pythonStart matches a Python module's first statement: an import.
var pythonStart = regexp.MustCompile(`^(?:from [\w.]+ import \S|import [\w.]+(?: as \w+)?(?:, [\w.]+)*$)`)

// outputBlock reports a shell-tagged block that is not commands: a
// program's output (recipes put benchmark results, lm_eval tables and
// server logs in ```bash blocks: at least half of its non-blank lines are
// output lines), or Python that starts with its imports (vllm-ascend's
// Qwen3-235B-A22B tutorial: an AISBench model config in ```bash). Read as
// commands such a block yields syntax errors and "line starts with -----"
// findings about no command at all.
func outputBlock(f fence) bool {
	out, n := 0, 0
	for _, l := range f.lines {
		t := strings.TrimSpace(l.text)
		if t == "" || n == 0 && strings.HasPrefix(t, "#") {
			continue // comments before the first line say nothing
		}
		if n == 0 && pythonStart.MatchString(t) {
			return true
		}
		n++
		if outputLine.MatchString(t) {
			out++
		}
	}
	return n > 0 && 2*out >= n
}

// flagFragment reports a shell block of options alone: every line that is
// not blank or a comment starts with a dash (vllm-ascend's MiniMax-M3
// tutorial: "# one video" / `--limit-mm-per-prompt '{"image":0,"video":1}'`,
// options to add to the serve command above; read as commands, each line
// was a VL303 "line starts with --" error).
func flagFragment(f fence) bool {
	n := 0
	for _, l := range f.lines {
		t := strings.TrimSpace(l.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if !strings.HasPrefix(t, "-") {
			return false
		}
		n++
	}
	return n > 0
}

// shellStart matches a line that starts a shell command: prefix
// assignments, a wrapper, then a command that starts or prepares a server.
var shellStart = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:(?:sudo|nohup|exec|env|numactl|taskset|setsid)\s+)*` +
	`(?:vllm|python[0-9.]*|docker|podman|ray|export|bash|sh|srun|sbatch|apptainer|singularity|kubectl|uv|pip[0-9]*|cd|source|\.)(?:\s|$)`)

// yamlKeyLine matches a top-level YAML mapping key, a document marker or a
// sequence item at column 1.
var yamlKeyLine = regexp.MustCompile(`^(?:[A-Za-z_"'][\w.\-"' ]*:(?:\s|$)|---|\.\.\.$|- )`)

// shellInYAML is the language of a block tagged yaml: "sh" when it holds
// shell commands, not a manifest, "console" when they follow a "$ "
// prompt, else "yaml". Commands: its first line that is not blank or a
// comment starts a command (`vllm serve ...`) or continues onto the next
// line with a backslash, and no line is a top-level YAML key, document
// marker or sequence item (qa45a F4: design notes with an LWS leader's and
// worker's `vllm serve` commands in a ```yaml fence, find_string id
// 59180118999, failed as "invalid YAML", an error). A YAML block scalar
// holding a command is indented under its key, so a real manifest is
// still read as one, and its errors stay errors.
func shellInYAML(f fence) string {
	lang := ""
	for _, l := range f.lines {
		t := strings.TrimSpace(l.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if l.indent == 0 && !strings.HasPrefix(l.text, " ") && yamlKeyLine.MatchString(l.text) {
			return "yaml"
		}
		if lang != "" {
			continue
		}
		switch {
		case strings.HasPrefix(t, "$ ") && shellStart.MatchString(strings.TrimSpace(t[2:])):
			lang = "console"
		case shellStart.MatchString(t) || strings.HasSuffix(t, " \\"):
			lang = "sh"
		default:
			return "yaml"
		}
	}
	if lang == "" {
		return "yaml"
	}
	return lang
}

// yamlBlock is the document with every line blank but the block's, so that
// the manifest parser's lines are the document's (the block's indentation
// is kept: YAML reads a uniformly indented document the same).
func yamlBlock(f fence) []byte {
	var b bytes.Buffer
	line := 1
	for _, l := range f.lines {
		for ; line < l.no; line++ {
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat(" ", l.indent))
		b.WriteString(l.text)
		b.WriteByte('\n')
		line++
	}
	return b.Bytes()
}

// blockSource is a shell block as derived text, every byte at its document
// position. In a console block only the commands are kept: lines after a
// "$ " prompt (the prompt itself dropped) and their continuation lines;
// the rest is the commands' output.
func blockSource(file string, f fence, console bool) *source {
	var text []byte
	var pos []Pos
	cont := false
	for _, l := range f.lines {
		t, col := l.text, l.indent+1
		if console {
			trimmed := strings.TrimLeft(t, " ")
			switch {
			case strings.HasPrefix(trimmed, "$ "):
				col += len(t) - len(trimmed) + 2
				t = trimmed[2:]
			case !cont:
				continue
			}
			cont = strings.HasSuffix(strings.TrimRight(t, " \t"), "\\")
		}
		for i := 0; i <= len(t); i++ {
			pos = append(pos, Pos{Line: l.no, Col: col + i})
		}
		text = append(append(text, t...), '\n')
	}
	if len(text) == 0 {
		return nil
	}
	// One more position past the end, as fillPos gives derived text.
	pos = append(pos, pos[len(pos)-1])
	s := &source{file: file, sub: pos}
	s.setText(text, false)
	return s
}
