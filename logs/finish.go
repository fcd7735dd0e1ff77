package logs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// failures lists the recognised failures, then the generic ones for
// engines nothing specific explains, then a hang when nothing failed but
// the start-up did not finish.
func (a *analyzer) failures(groups []*group, engineOf map[*proc]*group, serving bool) []Failure {
	out := []Failure{}
	anyError := false
	primary, relays := relayedFailures(a.fails.list, engineOf)
	for _, f := range primary {
		r := a.failureOf(f, engineOf)
		for _, g := range relays[f] {
			r.Relayed = append(r.Relayed, Relay{Rank: g.p.label, File: a.files[g.at.file].name, Line: g.at.no, Text: g.text, Count: g.count})
		}
		out = append(out, r)
		anyError = anyError || f.severity == "error" && !consequence[f.code]
	}
	if anyError {
		out = append(out, a.alsoFailed(groups, primary, engineOf)...)
	}
	// One engine's failure usually takes the others down with it (broken
	// pipes, shutdown signals): generic exceptions are reported only when
	// nothing specific was recognised anywhere.
	if !anyError {
		var gen []Failure
		for _, g := range groups {
			if f, ok := a.generic(g.members, engineOf, serving); ok {
				gen = append(gen, f)
			}
		}
		out = append(out, rootCauses(gen)...)
		for _, f := range gen {
			anyError = anyError || f.Severity == "error"
		}
	}
	if !anyError {
		// The front-ends are the processes of no engine group. A lone API
		// server is mapped to a group for its name (groups) without being
		// a member: its exception must still be read here.
		members := map[*proc]bool{}
		for _, g := range groups {
			for _, m := range g.members {
				members[m] = true
			}
		}
		var fronts []*proc
		for _, p := range a.order {
			if !members[p] {
				fronts = append(fronts, p)
			}
		}
		if f, ok := a.generic(fronts, engineOf, serving); ok {
			out = append(out, f)
			anyError = f.Severity == "error"
		}
	}
	out = append(out, a.hangs(groups, engineOf, out, anyError, serving)...)
	followsFrom(out)
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Severity == "error") != (out[j].Severity == "error") {
			return out[i].Severity == "error"
		}
		// The earliest cause first: a consequence after what it follows from.
		if (out[i].FollowsFrom == "") != (out[j].FollowsFrom == "") {
			return out[i].FollowsFrom == ""
		}
		return false
	})
	return out
}

// downstream are the failures that are most often another one's
// consequence when a different error comes before them in the same file:
// a collective's watchdog aborting (LOG121: the HCCL/NCCL watchdog stops on
// the collective a failed kernel or a dead peer left hanging,
// vllm-project/vllm-ascend#5493), a worker dying after its executor's error
// (LOG194) and an engine step timing out behind a stuck worker (LOG195).
var downstream = map[diag.Code]bool{CodeNCCL: true, CodeWorkerDied: true, CodeIterTimeout: true}

// followsFrom marks the downstream errors that an earlier error of another
// kind in the same file precedes: the earliest failure is the root cause,
// and the later one says it follows from it, with the earlier one's
// location, and leaves its own fix second.
func followsFrom(out []Failure) {
	for i := range out {
		f := &out[i]
		if !downstream[f.Code] || f.Severity != "error" {
			continue
		}
		var first *Failure
		for j := range out {
			g := &out[j]
			if j == i || g.Severity != "error" || downstream[g.Code] || g.File != f.File || g.Line >= f.Line {
				continue
			}
			if first == nil || g.Line < first.Line {
				first = g
			}
		}
		if first == nil {
			continue
		}
		f.FollowsFrom = fmt.Sprintf("%s at %s:%d", first.Code, first.File, first.Line)
		if !strings.Contains(f.Message, fmt.Sprintf("%s:%d", first.File, first.Line)) {
			// A dead worker's message may quote the error already (deadCause).
			f.Message += "; this follows from the earlier " + f.FollowsFrom + " (" + clip(first.Message, 120) + ")"
		}
		f.Fix = "Fix the earlier failure first (" + f.FollowsFrom + "): this one is its consequence. " + f.Fix
	}
}

// alsoFailed reports the engines whose worker logged that its own
// start-up failed ("WorkerProc failed to start", multiproc_executor.py
// worker_main, before the worker's traceback) and no exception, while
// another engine's failure was recognised: each DP engine starts on its
// own, so each failed start is a finding (LOG192, its cause not in the
// log) rather than hidden behind the other engine's. An engine core's
// wrapper ("EngineCore failed to start", "EngineCore hit an exception")
// relays its workers' or peers' failure, and an engine with an exception
// of its own is most often the other's consequence (broken pipes,
// shutdown signals): neither is reported here, as before.
func (a *analyzer) alsoFailed(groups []*group, primary []*failure, engineOf map[*proc]*group) []Failure {
	failed := map[*group]bool{}
	for _, f := range primary {
		failed[engineOf[f.p]] = true
	}
	var out []Failure
	for _, g := range groups {
		if failed[g] {
			continue
		}
		var w *proc
		for _, p := range g.members {
			if p.exc != nil || p.errLine != nil {
				w = nil
				break
			}
			if p.role == roleWorker && p.wrapper != nil && (w == nil || before(p.wrapper.at, w.wrapper.at)) {
				w = p
			}
		}
		if w == nil {
			continue
		}
		f, ok := a.generic(g.members, engineOf, false)
		if !ok || f.Code != CodeEngineDiedSilent {
			continue
		}
		f.Message = "this engine failed to start too (" + f.Message + "); its own cause is not in the log"
		if w.tracebacks > 0 {
			f.Message += ": its traceback is cut before the exception"
			if w.frame != "" {
				f.Message += " (last frame " + w.frame + ")"
			}
		}
		out = append(out, f)
	}
	return out
}

// relayWindow is how many lines apart a failure's lines from two layers
// may be: a native library prints its check before (or while) Python
// raises, a traceback apart at most.
const relayWindow = 100

// relayedFailures folds one failure logged by two layers into one. A
// native library (DeepEP's C++ "DeepEP timeout check failed: rank = 7, …",
// NCCL's, NIXL's) writes to the process's file descriptor directly, past
// vLLM's "(Worker_DP7_EP7 pid=…)" prefix, so its line is attributed to the
// unprefixed main output of the same file, pod or host; the worker's Python
// exception ("RuntimeError: DeepEP error: timeout (dispatch CPU)", vllm#46509)
// says the same. A failure of an unprefixed process that has the same code,
// file, attempt, host and engine as a prefixed process's, within relayWindow
// lines of it, is that failure's relay: it is listed as its evidence, not
// as a failure of its own. Two prefixed processes failing alike (two ranks)
// stay two failures.
func relayedFailures(list []*failure, engineOf map[*proc]*group) ([]*failure, map[*failure][]*failure) {
	relays := map[*failure][]*failure{}
	folded := map[*failure]bool{}
	for _, g := range list {
		if g.p.role != roleMain || g.p.label != "main" {
			continue
		}
		var best *failure
		bestDist := relayWindow + 1
		for _, f := range list {
			if f == g || f.p.role == roleMain || f.code != g.code || f.p.file != g.p.file ||
				f.p.attempt != g.p.attempt || f.p.host != g.p.host || f.p.origin != g.p.origin || (engineOf[g.p] != nil && engineOf[f.p] != engineOf[g.p]) || f.at.file != g.at.file {
				continue
			}
			d := f.at.no - g.at.no
			if d < 0 {
				d = -d
			}
			if d < bestDist {
				best, bestDist = f, d
			}
		}
		if best != nil {
			relays[best] = append(relays[best], g)
			folded[g] = true
		}
	}
	if len(folded) == 0 {
		return list, relays
	}
	var out []*failure
	for _, f := range list {
		if !folded[f] {
			out = append(out, f)
		}
	}
	return out, relays
}

// rootCauses keeps the engines' exceptions and drops "failed to start"
// wrappers when some engine has a real exception.
func rootCauses(gen []Failure) []Failure {
	var exc []Failure
	for _, f := range gen {
		if f.Code != CodeEngineDiedSilent {
			exc = append(exc, f)
		}
	}
	if len(exc) > 0 {
		return exc
	}
	return gen
}

// consequence marks failures that follow from another process's failure:
// they do not hide the generic cause (an exception vlaunch does not
// recognise), which is reported next to them.
var consequence = map[diag.Code]bool{CodeWorkerDied: true}

func (a *analyzer) failureOf(f *failure, engineOf map[*proc]*group) Failure {
	code, message, fix := a.settle(f)
	d := defOf(code)
	return Failure{Code: code, Kind: d.Kind, Severity: f.severity, Engine: engineName(f.p, engineOf),
		Rank: f.p.label, File: a.files[f.at.file].name, Line: f.at.no, Message: message, Fix: fix,
		Text: f.text, Count: f.count}
}

// settle completes what a line alone could not say, now that the whole
// log is read: whether a Gloo timeout or a ZMQ bind error concerns data
// parallelism, and what a dead worker logged before it died.
func (a *analyzer) settle(f *failure) (diag.Code, string, string) {
	switch {
	case f.code == CodeGlooTimeout && a.dpContext(f.p):
		return CodeDPGlooTimeout, f.message, defOf(CodeDPGlooTimeout).Fix
	case f.code == CodeMaxLenTooLong && a.runOfProc(f.p).hmaOff:
		return CodeHMAOff, f.message + ", with the hybrid KV cache manager turned off because a KV connector is configured", defOf(CodeHMAOff).Fix
	case f.code == CodeDPBind && f.bind != nil && (f.p.nixlFrames || a.runOfProc(f.p).nixlListener):
		return CodeNixlSideChannel, strings.Replace(f.message, "ZMQ cannot bind", "the NIXL side channel cannot bind", 1), a.nixlBindFix(f.p, f.bind) + " " + defOf(CodeNixlSideChannel).Fix
	case f.code == CodeDPBind && f.bind != nil && !a.dpEndpoint(f.p, f.bind) && a.nixlPort(f.p, f.bind.port):
		return CodeNixlSideChannel, strings.Replace(f.message, "ZMQ cannot bind", "the NIXL side channel cannot bind", 1), a.nixlBindFix(f.p, f.bind) + " " + defOf(CodeNixlSideChannel).Fix
	case f.code == CodeDPBind && f.bind != nil && !a.dpEndpoint(f.p, f.bind):
		return CodeOther, f.text, defOf(CodeOther).Fix
	case f.code == CodeOOMLoading && f.oom != nil:
		if ev := a.runtimeFor(f.p, f.at, f.oom.ph <= phStart); ev != nil {
			return CodeOOMRuntime, f.oom.msg + " after start-up, while serving: " + a.evidenceText(ev), defOf(CodeOOMRuntime).Fix
		}
		if ev := a.startupFor(f.p); ev != nil && f.oom.ph == phNone {
			return f.code, f.oom.msg + " during start-up: " + a.evidenceText(ev), f.fix
		}
		if f.oom.ph == phNone { // the code, hence the kind, says what the text says
			return CodeOOMUnknownPhase, f.oom.msg + "; when is unknown: the log shows no start-up phase before it and no line only a running server logs",
				defOf(CodeOOMUnknownPhase).Fix
		}
	case f.code == CodeAscendDevice && f.npu != nil:
		msg, fix := a.npuMessage(f)
		return f.code, msg, fix
	case f.code == CodeWorkerDied && f.dead != nil:
		return f.code, f.message + a.deadCause(f.p, f.dead, f.at), f.fix
	}
	return f.code, f.message, f.fix
}

// deadCause says what the dead worker logged before it died, when its
// output is in the same file. A worker whose error the executor relayed
// before ("RuntimeError: Worker failed with error '…'", the multiproc
// executor's get_response; vllm#40778) was shut down after that error:
// the death is its consequence, not a silent one.
func (a *analyzer) deadCause(exec *proc, d *deadWorker, at lineRef) string {
	for _, q := range a.order {
		if q.file != exec.file || q.attempt != exec.attempt || q == exec || !d.is(q) {
			continue
		}
		for _, n := range []*excNote{q.exc, q.errLine} {
			if n != nil {
				return fmt.Sprintf("; before it died it logged, at %s:%d: %s", a.files[n.at.file].name, n.at.no, n.text)
			}
		}
		if r := a.relayedWorkerError(exec, at); r != "" {
			return r
		}
		return fmt.Sprintf("; its output (%s) shows no error before it died", q.label)
	}
	if r := a.relayedWorkerError(exec, at); r != "" {
		return r
	}
	return "; its own output is not in this log"
}

// relayedWorkerError is the worker error the executor relayed before a
// worker's death at at, as deadCause words it, or "".
func (a *analyzer) relayedWorkerError(exec *proc, at lineRef) string {
	n := exec.exc
	if n == nil || n.at.file != at.file || n.at.no > at.no || !strings.Contains(n.text, "Worker failed with error") {
		return ""
	}
	return fmt.Sprintf("; the executor shut the workers down after a worker's error it relayed at %s:%d: %s", a.files[n.at.file].name, n.at.no, n.text)
}

// is reports whether q is the dead worker: by pid (V0), else by rank.
func (d *deadWorker) is(q *proc) bool {
	if d.pid > 0 {
		return q.pid == d.pid
	}
	if d.rank < 0 || q.role != roleWorker {
		return false
	}
	if q.grank >= 0 {
		return q.grank == d.rank
	}
	return q.tp == d.rank && q.pp <= 0
}

func engineName(p *proc, engineOf map[*proc]*group) string {
	if g := engineOf[p]; g != nil {
		return g.id()
	}
	return "front-end"
}

// generic reports the first root exception among the processes, else the
// first ERROR line no rule recognised, or, when the log has only "failed
// to start" wrappers, that the cause is missing. An ERROR line no rule
// recognised, with no exception, followed in its file by the start-up
// finishing (serving, a.servedAt) did not stop it: it is reported as a warning ("logged at error
// level, start-up continued"), not as the start-up's failure.
func (a *analyzer) generic(ps []*proc, engineOf map[*proc]*group, serving bool) (Failure, bool) {
	var exc, errl, wrap *excNote
	var excP, errP, wrapP *proc
	for _, p := range ps {
		exc, excP = earliest(exc, excP, p.exc, p)
		errl, errP = earliest(errl, errP, p.errLine, p)
		wrap, wrapP = earliest(wrap, wrapP, p.wrapper, p)
	}
	code, note, p := CodeOther, exc, excP
	switch {
	case exc != nil && excP.phase == phCUDAGraphs:
		code = CodeCUDAGraph
	case exc == nil && errl != nil:
		code, note, p = CodeErrorLine, errl, errP
	case exc == nil && wrap != nil:
		code, note, p = CodeEngineDiedSilent, wrap, wrapP
	case exc == nil:
		return Failure{}, false
	}
	msg := note.text
	if code == CodeOther || code == CodeEngineDiedSilent {
		unknown := p.phase <= phStart && a.runOfProc(p).maxPhase <= phStart
		if ev := a.runtimeFor(p, note.at, unknown); ev != nil {
			if code == CodeOther {
				msg = note.text + " — after start-up, while serving: " + a.evidenceText(ev)
			} else {
				msg = "the engine failed after start-up, while serving (" + a.evidenceText(ev) + "); the exception that ended it is not in the log: " + note.text
			}
			code = CodeRuntimeFailure
		}
	}
	d := defOf(code)
	sev, fix := "error", d.Fix
	if code == CodeErrorLine && serving && note.at.no < a.servedAt[note.at.file] {
		sev, msg = "warning", "logged at error level, start-up continued: "+note.text
		fix = "The server started after this line, so it did not stop the start-up; " + d.Fix
	}
	return Failure{Code: code, Kind: d.Kind, Severity: sev, Engine: engineName(p, engineOf), Rank: p.label,
		File: a.files[note.at.file].name, Line: note.at.no, Message: msg, Fix: fix, Text: note.text, Count: 1}, true
}

// earliest keeps the note logged first.
func earliest(best *excNote, bestP *proc, n *excNote, p *proc) (*excNote, *proc) {
	if n != nil && (best == nil || before(n.at, best.at)) {
		return n, p
	}
	return best, bestP
}

func before(x, y lineRef) bool {
	if x.file != y.file {
		return x.file < y.file
	}
	return x.no < y.no
}

// hangs explains the start-ups that ended without an error: the one of
// the log, or, when the files hold different servers (groups kept apart
// by file: fileServers, filesDiffer), each server's that neither failed
// nor started serving — a P/D deployment's prefill and decode servers
// each end on their own.
func (a *analyzer) hangs(groups []*group, engineOf map[*proc]*group, found []Failure, anyError, serving bool) []Failure {
	var files []int
	seen := map[int]bool{}
	for _, g := range groups {
		if g.file >= 0 && !seen[g.file] {
			seen[g.file] = true
			files = append(files, g.file)
		}
	}
	if len(files) == 0 {
		if anyError || serving {
			return nil
		}
		f, ok := a.hang(groups, engineOf, func(*proc) bool { return true })
		if !ok {
			return nil
		}
		return []Failure{f}
	}
	var out []Failure
	for _, fi := range files {
		if a.files[fi].anyServing() || failedIn(found, a.files[fi].name) {
			continue
		}
		var gs []*group
		for _, g := range groups {
			if g.file == fi {
				gs = append(gs, g)
			}
		}
		if f, ok := a.hang(gs, engineOf, func(p *proc) bool { return p.file == fi }); ok {
			out = append(out, f)
		}
	}
	return out
}

// failedIn reports whether an error was found in the named file.
func failedIn(fs []Failure, file string) bool {
	for _, f := range fs {
		if f.Severity == "error" && f.File == file {
			return true
		}
	}
	return false
}

// hang explains a start-up that ended without an error. The rank that
// logged last shows where the start-up stopped. When that is a front-end
// waiting for its engines, or when one of several engines got less far
// than the others, the engine that got least far is the likely culprit
// and its phase names the kind. Only a log that shows the start-up stuck
// (stuck) is a stop (LOG001, error); any other log simply ends in a phase
// (LOG002, info): excerpts pasted into issues end anywhere (issue 25).
func (a *analyzer) hang(groups []*group, engineOf map[*proc]*group, keep func(*proc) bool) (Failure, bool) {
	var last *proc
	for _, p := range a.order {
		if keep(p) && p.phase != phNone && (last == nil || a.later(p, last)) {
			last = p
		}
	}
	if last == nil {
		return a.cutTraceback(engineOf, keep)
	}
	at, ph := last, last.phase
	code := CodeStopped
	tail := a.notLastNote(last, keep)
	msg := fmt.Sprintf("the start-up stops: the last line is %s's (%s), %s:%d%s, %s (phase %s)",
		last.label, engineName(last, engineOf), a.files[last.file].name, last.last.no, tail, phaseDoing[last.phase], last.phase)
	if w := a.waitingLast(keep); w != nil && w != last {
		msg += fmt.Sprintf("; then %s waits, %s:%d: %s", w.label, a.files[w.file].name, w.last.no, clip(string(w.lastText), 160))
	}
	if !a.stuck(last, keep) {
		code = CodeEnds
		msg = fmt.Sprintf("the log ends in phase %s (%s) with no error and no wait as its last line, as an excerpt or an early capture ends: the last line is %s's (%s), %s:%d%s",
			last.phase, phaseDoing[last.phase], last.label, engineName(last, engineOf), a.files[last.file].name, last.last.no, tail)
	}
	lag, n := laggingEngine(groups)
	// A front-end past its engines' start-up ("Supported tasks", engine
	// ready) waits for none of them: no engine is behind it.
	frontDone := engineOf[last] == nil && last.phase >= phEngineReady
	if lag != nil && !frontDone && (engineOf[last] == nil && lag != last || n > 1 && lag.phase < last.phase) {
		at, ph = lag, lag.phase
		msg += fmt.Sprintf("; engine %s got least far: %s (phase %s), last heard from %s at %s:%d",
			engineName(lag, engineOf), phaseDoing[lag.phase], lag.phase, lag.label, a.files[lag.file].name, lag.last.no)
	}
	d := defOf(code)
	return Failure{Code: code, Kind: hangKind(ph), Severity: d.Severity, Engine: engineName(at, engineOf),
		Rank: at.label, File: a.files[at.file].name, Line: at.last.no, Message: msg, Fix: d.Fix,
		Text: string(at.lastText), Count: 1}, true
}

// cutTraceback reports a log that shows no start-up phase at all but a
// traceback no exception line ends (an excerpt of an error cut on both
// sides, vllm#55914): a failure whose cause the log does not show, not a
// log without failures.
func (a *analyzer) cutTraceback(engineOf map[*proc]*group, keep func(*proc) bool) (Failure, bool) {
	var at *proc
	for _, p := range a.order {
		if keep(p) && p.tracebacks > 0 && p.exc == nil && (at == nil || a.later(p, at)) {
			at = p
		}
	}
	if at == nil {
		return Failure{}, false
	}
	d := defOf(CodeStopped)
	msg := fmt.Sprintf("the log stops inside a traceback that no exception line ends (cut): the last line is %s's, %s:%d; the error itself is not in the log",
		at.label, a.files[at.file].name, at.last.no)
	kind := KindOther
	if at.graphFrames {
		// The frames run through the capture (torch.cuda.graph,
		// capture_end; pytorch/pytorch#170433's vLLM CI log): the start-up
		// failed while capturing CUDA graphs, as a stop in that phase is.
		msg += "; its frames run through the CUDA graph capture"
		kind = KindCUDAGraph
	}
	return Failure{Code: CodeStopped, Kind: kind, Severity: d.Severity, Engine: engineName(at, engineOf),
		Rank: at.label, File: a.files[at.file].name, Line: at.last.no, Message: msg,
		Fix:  "Capture the whole traceback: its last line names the error. " + d.Fix,
		Text: string(at.lastText), Count: 1}, true
}

// waitingLast is the process that logged last, when that line says it
// waits: it can be one that logged no phase (an engine core's message
// queue waiting on its workers, shm_broadcast.py), whom hang's last rank
// (the last with a phase) is not.
func (a *analyzer) waitingLast(keep func(*proc) bool) *proc {
	var latest *proc
	for _, p := range a.order {
		if keep(p) && (latest == nil || a.later(p, latest)) {
			latest = p
		}
	}
	if latest != nil && latest.waiting {
		return latest
	}
	return nil
}

// stuck reports whether the log shows the start-up stuck rather than
// merely ending: the rank that logged last is waiting for another one
// (the front-end for its engines, Ray for its placement group), or a
// traceback began that no exception line ends (a failure cut short; one
// with its exception is reported as a failure before a hang is looked for).
func (a *analyzer) stuck(last *proc, keep func(*proc) bool) bool {
	if last.waiting {
		return true
	}
	if a.waitingLast(keep) != nil {
		return true
	}
	for _, p := range a.order {
		if keep(p) && p.tracebacks > 0 && p.exc == nil {
			return true
		}
	}
	return false
}

// laggingEngine returns the most advanced process of the engine that got
// least far, and how many engines logged a phase at all.
func laggingEngine(groups []*group) (*proc, int) {
	var lag *proc
	n := 0
	for _, g := range groups {
		var best *proc
		for _, p := range g.members {
			if best == nil || p.phase > best.phase {
				best = p
			}
		}
		if best == nil || best.phase == phNone {
			continue
		}
		n++
		if lag == nil || best.phase < lag.phase {
			lag = best
		}
	}
	return lag, n
}

// notLastNote says why the line hang names is not its file's last one
// ("" when it is): the lines after it come from processes that logged no
// start-up step, or are stamped earlier than it — Ray relays its workers'
// lines late, so a file's line order is not their time order
// (vllm-project/vllm-ascend#6678: :6 stamped 10:25:05 after :5 at 10:25:08).
func (a *analyzer) notLastNote(last *proc, keep func(*proc) bool) string {
	var tail *proc
	for _, p := range a.order {
		if keep(p) && p.file == last.file && p.last.no > last.last.no && (tail == nil || p.last.no > tail.last.no) {
			tail = p
		}
	}
	switch {
	case tail == nil:
		return ""
	case tail.phase == phNone:
		return fmt.Sprintf(" (the file's last line, :%d, is %s's, which shows no start-up step)", tail.last.no, tail.label)
	}
	return fmt.Sprintf(" (the latest by vLLM's timestamps: the file's last line, :%d, %s's, is stamped earlier, %s)",
		tail.last.no, tail.label, tail.lastStamp)
}

// later reports whether p logged after q: by timestamp when both lines
// carry one of the same form, else by position.
func (a *analyzer) later(p, q *proc) bool {
	ps, qs := string(p.lastStamp), string(q.lastStamp)
	if ps != "" && len(ps) == len(qs) && ps != qs {
		return ps > qs
	}
	if p.file != q.file {
		return p.file > q.file
	}
	return p.last.no > q.last.no
}

// runOfProc is the start-up state of the server a process belongs to (its
// origin in an interleaved capture).
func (a *analyzer) runOfProc(p *proc) *run {
	return a.files[p.file].runOf([]byte(p.origin))
}
