package launch

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdCtx is one simple command being recognised.
type cmdCtx struct {
	stmt   *syntax.Stmt
	fields []Value
	env    []EnvVar // prefix assignments and `env NAME=value`
}

// ignoredCommands print or search for vLLM rather than start it.
var ignoredCommands = map[string]bool{
	"echo": true, "printf": true, "pkill": true, "pgrep": true, "kill": true, "killall": true,
	"grep": true, "ps": true, "which": true, "type": true, "command": true, "pip": true,
	"pip3": true, "logger": true, "alias": true, "read": true,
	"curl": true, "wget": true, "git": true, "huggingface-cli": true, "hf": true,
}

// vllmClients are vllm subcommands that do not start a server.
var vllmClients = map[string]bool{
	"bench": true, "chat": true, "complete": true, "run-batch": true, "collect-env": true,
	"--version": true, "-v": true, "--help": true, "-h": true, "": true,
}

// shells run their -c argument or their standard input as a script.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

func (w *walker) call(s *syntax.Stmt, c *syntax.CallExpr) {
	var fields []Value
	var hits []ParentOnlyRef
	prevHits, prevHidden := w.fe.hits, w.fe.cmdHidden
	w.fe.hits = &hits
	for _, a := range c.Args {
		fields = append(fields, w.ev().fields(a)...)
	}
	if len(fields) == 0 {
		w.fe.hits = prevHits
		for _, a := range c.Assigns {
			w.assign(a, false)
		}
		return
	}
	cc := &cmdCtx{stmt: s, fields: fields}
	for _, a := range c.Assigns {
		if a.Name != nil {
			cc.env = append(cc.env, EnvVar{Name: a.Name.Value, Value: w.ev().str(a.Value), Pos: w.src.pos(a.Pos()), Source: "prefix"})
		}
	}
	w.fe.hits, w.fe.cmdHidden = prevHits, hits
	defer func() { w.fe.cmdHidden = prevHidden }()
	if fields[0].Text == "source" || fields[0].Text == "." {
		if !w.followSource(fields[1:]) {
			w.fe.sourced = true
		}
		return
	}
	if fields[0].Text == "set" {
		w.setOptions(fields[1:])
		return
	}
	if fields[0].Text == "shift" {
		w.shift(fields[1:])
		return
	}
	if fn, ok := w.fe.funcs[fields[0].Text]; ok && fields[0].Known {
		w.callFunc(fn, fields[1:])
		return
	}
	w.command(cc, 0)
}

// shift drops known positional parameters (`shift`, `shift 2`); a count
// that is not a known number leaves them unknown.
func (w *walker) shift(args []Value) {
	if !w.sc.argsKnown {
		return
	}
	n := 1
	if len(args) > 0 {
		k, err := strconv.Atoi(args[0].Text)
		if !args[0].Known || err != nil || k < 0 {
			w.sc.args, w.sc.argsKnown = nil, false
			return
		}
		n = k
	}
	if n > len(w.sc.args) {
		return // bash: shift fails and leaves them as they are
	}
	w.sc.args = w.sc.args[n:]
}

func (w *walker) setOptions(args []Value) {
	for i, a := range args {
		switch {
		case a.Text == "--":
			w.setPositional(args[i+1:])
			return
		case i == 0 && !strings.HasPrefix(a.Text, "-") && !strings.HasPrefix(a.Text, "+"):
			w.setPositional(args)
			return
		case a.Text == "-a" || (a.Text == "-o" && i+1 < len(args) && args[i+1].Text == "allexport"):
			w.allExport = true
		case a.Text == "+a" || (a.Text == "+o" && i+1 < len(args) && args[i+1].Text == "allexport"):
			w.allExport = false
		}
	}
}

// setPositional reads `set -- a b` (or `set a b`): the words become the
// positional parameters. POSIX sh has no arrays, so a script builds its
// argv this way (`set -- vllm serve m --port 8000`, `set -- "$@"
// --headless`) and runs it with `exec "$@"` (qa45a F3: a ModelArts
// launcher, read_file id 55972379089).
func (w *walker) setPositional(words []Value) {
	w.sc.args, w.sc.argsKnown = append([]Value(nil), words...), true
}

// callFunc walks a shell function's body with its positional arguments.
func (w *walker) callFunc(fn *syntax.FuncDecl, args []Value) {
	if w.fe.depth >= maxDepth {
		return
	}
	w.fe.depth++
	defer func() { w.fe.depth-- }()
	saved, savedKnown := w.sc.args, w.sc.argsKnown
	w.sc.args, w.sc.argsKnown = args, true
	if src := w.fe.funcSrc[fn]; src != nil && src != w.src {
		// defined in a sourced input or another Markdown block: its
		// words are that source's text
		inner := *w
		inner.src = src
		inner.stmt(fn.Body)
		w.allExport = inner.allExport
	} else {
		w.stmt(fn.Body)
	}
	w.sc.args, w.sc.argsKnown = saved, savedKnown
}

// command finds what fields[i:] starts, looking through wrappers such as
// nohup, env, srun, numactl, sudo, timeout, ssh and `bash -c`.
func (w *walker) command(cc *cmdCtx, i int) {
	f := cc.fields
	if i == 0 && f[0].Text == "read" {
		w.readBuiltin(cc)
		return
	}
	if i == 0 && ignoredCommands[base(f[0].Text)] {
		return
	}
	for ; i < len(f); i++ {
		name := base(f[i].Text)
		next := ""
		if i+1 < len(f) {
			next = f[i+1].Text
		}
		switch {
		case name == "env":
			i = w.envCommand(cc, i+1) - 1
		case name == "vllm" && next == "serve":
			w.serve(cc, f[i], "vllm serve", f[i+2:])
			return
		case name == "vllm" && vllmClients[next]:
			return // other vllm subcommands (bench, chat...) do not start a server
		case name == "vllm":
			// an option value of a wrapper (`conda run -n vllm`, `uv run
			// --with vllm`): keep looking for the command
		case strings.HasPrefix(name, "python"):
			w.python(cc, i)
			return
		case (name == "docker" || name == "podman" || name == "nvidia-docker") && next == "run":
			w.docker(cc, i+2)
			return
		case (name == "docker" || name == "podman") && next == "exec":
			w.dockerExec(cc, i+2)
			return
		case name == onlineDPScript:
			w.launchOnlineDP(cc, f[i], f[i+1:])
			return
		case name == runClusterScript:
			w.runCluster(cc, i)
			return
		case (name == "apptainer" || name == "singularity") && (next == "exec" || next == "run"):
			w.apptainer(cc, i+2)
			return
		case name == "ray" && next == "start":
			w.ray(cc, f[i], f[i+2:])
			return
		case rayHelpers[name] && (next == "leader" || next == "worker"):
			w.rayHelper(cc, f[i], name, next == "leader", f[i+2:])
			return
		case shells[name]:
			w.shellCommand(cc, i)
			return
		case name == "ssh":
			w.ssh(cc, i+1)
			return
		case name == "sbatch":
			if w.sbatchWrap(cc, i+1) {
				return
			}
		case looksLikeScript(f[i]) && i > 0:
			w.subScript(f[i], w.sc.clone(), w.ctx)
			return
		case isScriptPath(name) && f[i].Known && w.passThrough(cc, f[i], f[i+1:]):
			return
		case isScriptPath(name) && f[i].Known:
			// ./start.sh, or a wrapper that runs its arguments
			// (`sbatch_base.sh bash -lc "$cmd"`): keep looking.
			w.scriptRun(cc, f[i], f[i+1:])
		}
	}
	if heredocMayBeScript(cc) {
		w.heredocs(cc, "")
	}
}

// dataFileExt are redirection targets that hold data, not a script.
var dataFileExt = map[string]bool{".json": true, ".yaml": true, ".yml": true, ".txt": true, ".py": true,
	".conf": true, ".toml": true, ".ini": true, ".csv": true, ".jsonl": true, ".md": true}

// heredocMayBeScript reports whether the here-document of a command the
// walker does not know (`cat > start.sh <<EOF`, `srun ... <<EOF`) may be a
// script that starts vLLM: not when it is written to a data file
// (`cat > request.json`), fed to kubectl, or mentions no launch at all — a
// JSON request body is no shell script.
func heredocMayBeScript(cc *cmdCtx) bool {
	if len(cc.fields) > 0 && base(cc.fields[0].Text) == "kubectl" {
		return false
	}
	for _, r := range cc.stmt.Redirs {
		if (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) && r.Word != nil && dataFileExt[path.Ext(r.Word.Lit())] {
			return false
		}
	}
	for _, r := range cc.stmt.Redirs {
		if r.Hdoc == nil {
			continue
		}
		var b strings.Builder
		syntax.NewPrinter().Print(&b, r.Hdoc)
		t := b.String()
		if strings.Contains(t, "vllm") || strings.Contains(t, "ray start") || strings.Contains(t, "dynamo") || strings.Contains(t, "export ") {
			return true
		}
	}
	return false
}

// looksLikeScript spots a whole command line passed as one argument
// (tmux new -d "vllm serve ...", srun ... "ray start ...").
func looksLikeScript(v Value) bool {
	t := v.Text
	// Three words at least: "vllm serve" alone is a label (a log message,
	// a process name to wait for), not a command that could start a server.
	if len(strings.Fields(t)) < 3 {
		return false
	}
	return strings.Contains(t, "vllm") || strings.Contains(t, "ray start") || strings.Contains(t, "dynamo.")
}

func base(s string) string { return path.Base(s) }

// envCommand reads `env [-i] [-u NAME] NAME=value...` and returns the index
// of the command that follows.
func (w *walker) envCommand(cc *cmdCtx, i int) int {
	f := cc.fields
	for ; i < len(f); i++ {
		t := f[i].Text
		switch {
		case t == "-u" || t == "--unset":
			i++
		case strings.HasPrefix(t, "-"):
		case strings.Contains(t, "=") && isName(t[:strings.Index(t, "=")]):
			eq := strings.Index(t, "=")
			cc.env = append(cc.env, EnvVar{Name: t[:eq], Value: f[i].Slice(eq+1, len(t)), Pos: f[i].Pos, Source: "env"})
		default:
			return i
		}
	}
	return i
}

// python recognises `python -m vllm.entrypoints.openai.api_server ...`, the
// older demo server module, `python -m vllm.entrypoints.cli.main serve ...`
// and front ends that take vLLM's engine arguments (wrappers).
func (w *walker) python(cc *cmdCtx, i int) {
	f := cc.fields
	for j := i + 1; j < len(f); j++ {
		t := f[j].Text
		if t == "-m" && j+1 < len(f) {
			mod := f[j+1].Text
			switch {
			case mod == "vllm.entrypoints.openai.api_server" || mod == "vllm.entrypoints.api_server":
				w.serve(cc, f[i], "python -m "+mod, f[j+2:])
			case wrappers[mod] != "":
				w.wrapped(cc, f[i], "python -m "+mod, wrappers[mod], f[j+2:])
			case mod == "vllm.entrypoints.cli.main" && j+2 < len(f) && f[j+2].Text == "serve":
				w.serve(cc, f[i], "python -m "+mod+" serve", f[j+3:])
			}
			return
		}
		if base(t) == onlineDPScript {
			w.launchOnlineDP(cc, f[i], f[j+1:])
			return
		}
		if !strings.HasPrefix(t, "-") {
			w.passThrough(cc, f[j], f[j+1:])
			return
		}
		if t == "-c" {
			return
		}
	}
}

// passThrough reads a wrapper script that hands the arguments after a
// literal `--` to `vllm serve` (`python scripts/launch_vllm.py MODEL
// --its-own-flags -- --tensor-parallel-size 8 --nnodes 2 …`, as
// vllm-project/speculators' launcher does: it execs `python -m
// vllm.entrypoints.cli.main serve MODEL … <the arguments after -->`) as
// that server: the arguments after `--` must be vLLM's (vllmArgsAfter:
// the first a flag some release has, most long flags vLLM's). The
// wrapper's first argument is taken as the model when it is one or a
// variable (modelWord, or unresolved), not a flag. It reports whether the
// command was such a wrapper.
func (w *walker) passThrough(cc *cmdCtx, script Value, args []Value) bool {
	for j, a := range args {
		if !a.Known || a.Text != "--" {
			continue
		}
		rest := args[j+1:]
		if !vllmArgsAfter(Value{}, rest) {
			return false
		}
		if j > 0 && !strings.HasPrefix(args[0].Text, "-") && (modelWord(args[0]) || !args[0].Known) {
			rest = append([]Value{args[0]}, rest...)
		}
		w.serve(cc, script, base(script.Text)+" -- (vllm serve arguments)", rest)
		return true
	}
	return false
}

// shellCommand follows `bash -c "script"` and `bash <<EOF`.
func (w *walker) shellCommand(cc *cmdCtx, i int) {
	f := cc.fields
	for j := i + 1; j < len(f); j++ {
		t := f[j].Text
		if b := base(t); rayHelpers[b] || b == runClusterScript {
			w.command(cc, j) // vLLM's helper scripts: their effect is known
			return
		}
		if !strings.HasPrefix(t, "-") {
			w.scriptRun(cc, f[j], f[j+1:]) // bash script.sh: joined to the file if it is linted too
			return
		}
		if strings.Contains(t, "c") && !strings.HasPrefix(t, "--") && j+1 < len(f) {
			k := j + 1
			if f[k].Text == "--" && k+1 < len(f) {
				k++ // `bash -c -- SCRIPT` (Kubernetes command: [bash, -c, --])
			}
			sc := w.childScope(cc, f[k])
			if k+2 < len(f) {
				// `bash -c SCRIPT NAME ARGS...`: the words after the
				// script are $0 and the positional parameters (bash(1));
				// a helper runs its arguments with exec "$@" (qa45a F8:
				// `setsid bash -c '...; exec "$@"' _ "$pidfile" "$@"`)
				sc.args, sc.argsKnown = append([]Value(nil), f[k+2:]...), true
			}
			w.subScript(f[k], sc, w.ctx)
			return
		}
	}
	w.heredocs(cc, "")
}

// childScope is what a child shell sees: exported variables plus the
// command's own environment. The variables the parent (or its own parent)
// assigned without exporting are kept apart as hidden, so that a
// reference to one in the child's script is known to expand to nothing
// (Invocation.ParentOnlyRefs) -- except the names the parent itself left
// unresolved in the script text (body.Unresolved: `bash -c "... $X ..."`
// and an unquoted here-document are expanded by the parent first).
func (w *walker) childScope(cc *cmdCtx, body Value) *scope {
	sc := newScope()
	sc.strict, sc.undef = w.sc.strict, w.sc.undef
	hidden := map[string]hiddenVar{}
	for name, h := range w.sc.hidden {
		hidden[name] = h
	}
	for name, v := range w.sc.vars {
		switch {
		case v.exported && !(v.isArr && !v.inherited):
			cp := *v
			sc.vars[name] = &cp
		case !v.inherited && v.setAt.Line > 0:
			// unexported, or an array `export` cannot pass on ("Array
			// variables may not (yet) be exported", bash(1))
			hidden[name] = hiddenVar{setAt: v.setAt, array: v.isArr}
		}
	}
	for _, e := range cc.env {
		sc.vars[e.Name] = &shVar{val: e.Value, exported: true, setAt: e.Pos}
	}
	for name := range sc.vars {
		delete(hidden, name)
	}
	for _, name := range body.Unresolved {
		delete(hidden, name)
	}
	if len(hidden) > 0 {
		sc.hidden = hidden
	}
	return sc
}

// subScript parses a string as a script of its own.
func (w *walker) subScript(v Value, sc *scope, ctx walkCtx) {
	w.fe.parseAndWalk(newSubSource(w.fe.file, v), sc, ctx)
}

// heredocs parses here-documents fed to a shell, ssh or cat as scripts.
func (w *walker) heredocs(cc *cmdCtx, host string) {
	for _, r := range cc.stmt.Redirs {
		if r.Hdoc == nil || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) {
			continue
		}
		body := w.ev().heredocBody(r)
		ctx := w.ctx
		sc := w.childScope(cc, body)
		if host != "" {
			ctx.host, sc = host, newScope()
		}
		w.subScript(body, sc, ctx)
	}
}

// sshValueOpts are ssh options that take a value.
const sshValueOpts = "BbcDEeFIiJLlmOopQRSWw"

// ssh follows `ssh [opts] host "command"` and `ssh host <<EOF`; the remote
// command runs with a fresh environment on that host.
func (w *walker) ssh(cc *cmdCtx, i int) {
	f := cc.fields
	for ; i < len(f); i++ {
		t := f[i].Text
		if len(t) == 2 && t[0] == '-' && strings.IndexByte(sshValueOpts, t[1]) >= 0 {
			i++
			continue
		}
		if strings.HasPrefix(t, "-") {
			continue
		}
		break
	}
	if i >= len(f) {
		return
	}
	host := f[i].Text
	if at := strings.LastIndex(host, "@"); at >= 0 {
		host = host[at+1:]
	}
	ctx := w.ctx
	ctx.host = host
	if i+1 < len(f) {
		w.subScript(joinValues(f[i+1:]), newScope(), ctx)
		return
	}
	w.heredocs(cc, host)
}

// sbatchWrap follows `sbatch --wrap CMD` (or --wrap=CMD): Slurm runs CMD
// as the job's batch script (`#!/bin/sh` around it) with the submitting
// environment, which sbatch exports by default (--export=ALL), and the
// command's own prefix assignments. It reports whether the command had one.
func (w *walker) sbatchWrap(cc *cmdCtx, i int) bool {
	f := cc.fields
	for ; i < len(f); i++ {
		t := f[i].Text
		switch {
		case t == "--wrap" && i+1 < len(f):
			w.subScript(f[i+1], w.childScope(cc, f[i+1]), w.ctx)
			return true
		case strings.HasPrefix(t, "--wrap="):
			body := f[i].Slice(len("--wrap="), len(t))
			w.subScript(body, w.childScope(cc, body), w.ctx)
			return true
		}
	}
	return false
}

// joinValues joins words with spaces, as ssh does with its command words.
func joinValues(vs []Value) Value {
	var b builder
	for i, v := range vs {
		if i > 0 {
			b.addByte(' ', v.Pos)
		}
		b.addValue(v)
	}
	return b.value(vs[0].Pos)
}

// readBuiltin follows `read [-r] [-d DELIM] NAME <<EOF ... EOF` (or a
// here-string, <<<): a launch command or an argument string kept in a
// variable that is run later (`screen -dm bash -c "$CMD"`, `vllm serve m
// $ARGS`). With -d ” the whole document is read, else its first line;
// without -r a backslash-newline joins lines, as read does. Surrounding
// blanks are trimmed (default IFS). Any other shape of read leaves the
// names it sets unresolved.
func (w *walker) readBuiltin(cc *cmdCtx) {
	f := cc.fields
	raw, whole := false, false
	var names []string
	for i := 1; i < len(f); i++ {
		t := f[i].Text
		switch {
		case t == "-r":
			raw = true
		case t == "-d" && i+1 < len(f):
			whole = f[i+1].Text == ""
			i++
		case t == "-rd" && i+1 < len(f):
			raw, whole = true, f[i+1].Text == ""
			i++
		case t == "-p" || t == "-t" || t == "-n" || t == "-N" || t == "-u" || t == "-a" || t == "-i":
			i++ // options with a value; -a reads an array: left unresolved below
			if t == "-a" && i < len(f) {
				names = append(names, f[i].Text)
			}
		case strings.HasPrefix(t, "-"):
		default:
			names = append(names, t)
		}
	}
	var body Value
	found := false
	for _, r := range cc.stmt.Redirs {
		switch {
		case r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc):
			body, found = w.ev().heredocBody(r), true
		case r.Op == syntax.WordHdoc && r.Word != nil:
			body, found = w.ev().str(r.Word), true
		}
	}
	for _, name := range names {
		if !isName(name) {
			continue
		}
		val := unknownValue("$"+name, f[0].Pos, name)
		if found && len(names) == 1 {
			val = readValue(body, raw, whole)
		}
		w.setVar(name, val)
	}
}

// readValue is what read stores from text: the first line unless whole,
// backslash-newline pairs removed unless raw, blanks trimmed at both ends.
func readValue(v Value, raw, whole bool) Value {
	var b builder
	for i := 0; i < len(v.Text); i++ {
		c := v.Text[i]
		if !raw && c == '\\' && i+1 < len(v.Text) && v.Text[i+1] == '\n' {
			i++
			continue
		}
		if c == '\n' && !whole {
			break
		}
		b.addValue(v.Slice(i, i+1))
	}
	out := b.value(v.Pos)
	start, end := 0, len(out.Text)
	for start < end && isFieldBlank(out.Text[start]) {
		start++
	}
	for end > start && isFieldBlank(out.Text[end-1]) {
		end--
	}
	if start == 0 && end == len(out.Text) {
		return out
	}
	return out.Slice(start, end)
}
