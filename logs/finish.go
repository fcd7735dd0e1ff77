package logs

import (
	"fmt"
	"sort"
)

// failures lists the recognised failures, then the generic ones for
// engines nothing specific explains, then a hang when nothing failed but
// the start-up did not finish.
func (a *analyzer) failures(groups []*group, engineOf map[*proc]*group, serving bool) []Failure {
	out := []Failure{}
	anyError := false
	for _, f := range a.fails.list {
		out = append(out, a.failureOf(f, engineOf))
		anyError = anyError || f.severity == "error"
	}
	// One engine's failure usually takes the others down with it (broken
	// pipes, shutdown signals): generic exceptions are reported only when
	// nothing specific was recognised anywhere.
	if !anyError {
		var gen []Failure
		for _, g := range groups {
			if f, ok := a.generic(g.members, engineOf); ok {
				gen = append(gen, f)
			}
		}
		out = append(out, rootCauses(gen)...)
		anyError = len(gen) > 0
	}
	if !anyError {
		var fronts []*proc
		for _, p := range a.order {
			if engineOf[p] == nil {
				fronts = append(fronts, p)
			}
		}
		if f, ok := a.generic(fronts, engineOf); ok {
			out = append(out, f)
			anyError = true
		}
	}
	if !anyError && !serving {
		if f, ok := a.hang(groups, engineOf); ok {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Severity == "error") != (out[j].Severity == "error") {
			return out[i].Severity == "error"
		}
		return false
	})
	return out
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

func (a *analyzer) failureOf(f *failure, engineOf map[*proc]*group) Failure {
	d := defOf(f.code)
	return Failure{Code: f.code, Kind: d.Kind, Severity: f.severity, Engine: engineName(f.p, engineOf),
		Rank: f.p.label, File: a.files[f.at.file].name, Line: f.at.no, Message: f.message, Fix: f.fix,
		Text: f.text, Count: f.count}
}

func engineName(p *proc, engineOf map[*proc]*group) string {
	if g := engineOf[p]; g != nil {
		return g.id()
	}
	return "front-end"
}

// generic reports the first root exception among the processes, or, when
// the log has only "failed to start" wrappers, that the cause is missing.
func (a *analyzer) generic(ps []*proc, engineOf map[*proc]*group) (Failure, bool) {
	var exc, wrap *excNote
	var excP, wrapP *proc
	for _, p := range ps {
		if p.exc != nil && (exc == nil || before(p.exc.at, exc.at)) {
			exc, excP = p.exc, p
		}
		if p.wrapper != nil && (wrap == nil || before(p.wrapper.at, wrap.at)) {
			wrap, wrapP = p.wrapper, p
		}
	}
	code, note, p := CodeOther, exc, excP
	switch {
	case exc != nil && excP.phase == phCUDAGraphs:
		code = CodeCUDAGraph
	case exc == nil && wrap != nil:
		code, note, p = CodeEngineDiedSilent, wrap, wrapP
	case exc == nil:
		return Failure{}, false
	}
	d := defOf(code)
	return Failure{Code: code, Kind: d.Kind, Severity: "error", Engine: engineName(p, engineOf), Rank: p.label,
		File: a.files[note.at.file].name, Line: note.at.no, Message: note.text, Fix: d.Fix, Text: note.text, Count: 1}, true
}

func before(x, y lineRef) bool {
	if x.file != y.file {
		return x.file < y.file
	}
	return x.no < y.no
}

// hang explains a start-up that stopped without an error: the process that
// got least far (the likely culprit: everyone else waits for it) and the
// one that logged last.
func (a *analyzer) hang(groups []*group, engineOf map[*proc]*group) (Failure, bool) {
	var ps []*proc
	for _, g := range groups {
		ps = append(ps, g.members...)
	}
	if len(ps) == 0 {
		ps = a.order
	}
	var lag, last *proc
	for _, p := range ps {
		if p.phase == phNone {
			continue
		}
		if lag == nil || p.phase < lag.phase || p.phase == lag.phase && a.later(lag, p) {
			lag = p
		}
		if last == nil || a.later(p, last) {
			last = p
		}
	}
	if lag == nil {
		return Failure{}, false
	}
	msg := fmt.Sprintf("the start-up stops: %s (%s) got least far, %s (phase %s); its last line is %s:%d",
		lag.label, engineName(lag, engineOf), phaseDoing[lag.phase], lag.phase, a.files[lag.file].name, lag.last.no)
	if last != lag {
		msg += fmt.Sprintf("; the last line of the log is %s's, %s:%d (phase %s)", last.label, a.files[last.file].name, last.last.no, last.phase)
	}
	d := defOf(CodeStopped)
	return Failure{Code: CodeStopped, Kind: hangKind(lag.phase), Severity: "error", Engine: engineName(lag, engineOf),
		Rank: lag.label, File: a.files[lag.file].name, Line: lag.last.no, Message: msg, Fix: d.Fix,
		Text: string(lag.lastText), Count: 1}, true
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
