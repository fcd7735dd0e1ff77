package logs

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// failure is one recognised problem of one process.
type failure struct {
	code     diag.Code
	severity string
	p        *proc
	at       lineRef
	text     string
	message  string
	fix      string
	count    int
	// fromSource marks evidence from a traceback's source line
	// ("    raise ValueError(\"No available memory ...\")"); the exception
	// line itself, when the log has it, replaces it.
	fromSource bool
	// dead names the worker a LOG194 reports, bind the endpoint a LOG154
	// could not bind: the report completes both once the whole log is read.
	dead *deadWorker
	bind *zmqBind
	// oom is an out-of-memory's own message and the phase it was logged
	// in, for settle's runtime decision.
	oom *oomNote
	// npu gathers an Ascend device error's lines (LOG198).
	npu *npuNote
}

// oomNote is what settle needs of an out-of-memory failure.
type oomNote struct {
	msg string
	ph  phase
}

// failureSet keeps one failure per code and process, in order of first appearance.
type failureSet struct {
	byKey   map[string]*failure
	list    []*failure
	dropped int
}

// fail records a failure of the line's process. message may be empty (the
// log line is the message); fixExtra is appended to the code's fix.
func (c *ctx) fail(code diag.Code, message, fixExtra string) *failure {
	return c.failSev(code, defOf(code).Severity, message, fixExtra)
}

// failSev records a failure at a severity of the caller's choosing and
// returns it (nil once maxFailures were recorded).
func (c *ctx) failSev(code diag.Code, sev, message, fixExtra string) *failure {
	c.failed = true
	fs := &c.a.fails
	if fs.byKey == nil {
		fs.byKey = map[string]*failure{}
	}
	key := string(code) + "|" + strconv.Itoa(c.p.seq)
	text := clip(string(c.l.msg), 400)
	if message == "" {
		message = text
	}
	fix := defOf(code).Fix
	if fixExtra != "" {
		fix = fixExtra + " " + fix
	}
	if f, ok := fs.byKey[key]; ok {
		f.count++
		switch {
		case f.fromSource && !c.l.indent:
			f.at, f.text, f.message, f.fix, f.fromSource = lineRef{c.p.file, c.l.no}, text, message, fix, false
		case fixExtra != "" && !strings.Contains(f.fix, fixExtra):
			// A later line of the same error adds a figure ("the estimated
			// maximum model length is N").
			f.fix = fixExtra + " " + f.fix
		case message != text && len(message) > len(f.message):
			// A wrapped error: the later part says more.
			f.message = message
		}
		return f
	}
	if len(fs.list) >= maxFailures {
		fs.dropped++
		return nil
	}
	f := &failure{code: code, severity: sev, p: c.p, at: lineRef{c.p.file, c.l.no}, text: text,
		message: message, fix: fix, count: 1, fromSource: c.l.indent}
	fs.byKey[key] = f
	fs.list = append(fs.list, f)
	return f
}

// effectivePhase is how far the start-up had got when a process failed:
// its own phase, or the file's when the failing process logged nothing
// else (a Ray worker that only prints its traceback).
func (c *ctx) effectivePhase() phase {
	if c.p.phase > phStart {
		return c.p.phase
	}
	return c.r.maxPhase
}
