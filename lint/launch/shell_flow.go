package launch

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ifClause walks the branch the condition selects when it can be decided
// statically, otherwise every branch, merging what they assign. A branch
// skipped only because of the default of a variable the caller may set
// (`[ "${NODE_RANK:-0}" -eq 0 ]`) still runs where the caller sets it: it is
// walked too, as an alternative (alternatives).
func (w *walker) ifClause(c *syntax.IfClause) {
	var branches, alts [][]*syntax.Stmt
	var soft []string
	for cl := c; cl != nil; cl = cl.Else {
		if len(cl.Cond) == 0 { // else
			branches = append(branches, cl.Then)
			break
		}
		res, defaults := w.condition(cl.Cond)
		switch res {
		case condTrue:
			if len(defaults) > 0 {
				soft = appendUnique(soft, defaults...)
				for rest := cl.Else; rest != nil; rest = rest.Else {
					alts = append(alts, rest.Then)
				}
			}
			before := w.snapshot(soft)
			var id int
			if len(branches) == 0 {
				id = w.fe.nextClause()
				w.inArm(id, 0, len(alts) > 0, func() { w.stmts(cl.Then) })
			} else {
				branches = append(branches, cl.Then)
				id = w.walkBranches(branches, true, len(alts) > 0)
			}
			w.alternatives(before, alts, soft, id)
			return
		case condFalse:
			if len(defaults) > 0 {
				soft = appendUnique(soft, defaults...)
				alts = append(alts, cl.Then)
			}
		case condUnknown:
			branches = append(branches, cl.Then)
		}
	}
	hasElse := false
	for cl := c; cl != nil; cl = cl.Else {
		hasElse = len(cl.Cond) == 0
	}
	before := w.snapshot(soft)
	id := w.walkBranches(branches, hasElse, len(alts) > 0)
	w.alternatives(before, alts, soft, id)
}

// snapshot copies the scope before a branch is walked when alternatives
// will need it (soft names variables whose defaults decided a condition).
func (w *walker) snapshot(soft []string) *scope {
	if len(soft) == 0 {
		return nil
	}
	return w.sc.clone()
}

// alternatives walks branches a default skipped, each in a copy of the
// scope before the if or case in which the deciding variables, and every
// variable computed from their defaults, are unknown: on the nodes that
// take such a branch they hold other values (a rank, a role). The
// branches' launches are kept; their assignments are dropped, as the walk
// goes on with the branch the defaults selected.
// They are arms of statement id after the branches already walked.
func (w *walker) alternatives(before *scope, alts [][]*syntax.Stmt, soft []string, id int) {
	if before == nil || len(alts) == 0 {
		return
	}
	before.forgetDefaults(soft)
	for i, b := range alts {
		nw := w.nested(before.clone())
		nw.ctx.arms = withArm(w.ctx.arms, Arm{id, 1000 + i})
		nw.stmts(b)
	}
}

// forgetDefaults makes the named caller variables, and the variables
// computed from their defaults, unknown (still inherited from the caller,
// so that ${X:-d} no longer falls back to d).
func (sc *scope) forgetDefaults(names []string) {
	for n, v := range sc.vars {
		if !slices.Contains(names, n) && !slices.ContainsFunc(v.defaults, func(d string) bool { return slices.Contains(names, d) }) {
			continue
		}
		if v.isArr {
			continue // an array keeps its elements: their count is the argv's shape
		}
		v.val = unknownValue("$"+n, v.setAt, n)
		v.defaults = nil
	}
	for _, n := range names {
		if _, ok := sc.vars[n]; !ok && !isPositional(n) {
			sc.vars[n] = &shVar{val: unknownValue("$"+n, Pos{}, n), inherited: true}
		}
	}
}

// walkBranches walks alternatives each in its own scope, then merges. It
// returns the number it gave the statement's walk (Arm.Clause); others
// says the statement has arms walked apart (alternatives).
func (w *walker) walkBranches(branches [][]*syntax.Stmt, exhaustive, others bool) int {
	id := w.fe.nextClause()
	if len(branches) == 1 && exhaustive {
		w.inArm(id, 0, others, func() { w.stmts(branches[0]) })
		return id
	}
	var scopes, exited []*scope
	for i, b := range branches {
		nw := w.nested(w.sc.clone())
		nw.ctx.arms = withArm(w.ctx.arms, Arm{id, i})
		nw.stmts(b)
		if endsInExit(b) {
			exited = append(exited, nw.sc)
			continue
		}
		scopes = append(scopes, nw.sc)
	}
	if !exhaustive {
		scopes = append(scopes, w.sc.clone())
	}
	if len(scopes) == 0 {
		scopes = exited // every arm exits: nothing after runs; keep the merge
	}
	w.merge(scopes)
	return id
}

// nextClause numbers a walk of an if or case statement.
func (fe *frontEnd) nextClause() int {
	fe.clauses++
	return fe.clauses
}

// withArm returns arms extended by a, without sharing arms' array.
func withArm(arms []Arm, a Arm) []Arm {
	return append(append(make([]Arm, 0, len(arms)+1), arms...), a)
}

// inArm runs f with the walker in arm index of statement id, when the
// statement has other arms (some) that are walked too.
func (w *walker) inArm(id, index int, some bool, f func()) {
	if !some {
		f()
		return
	}
	saved := w.ctx.arms
	w.ctx.arms = withArm(saved, Arm{id, index})
	defer func() { w.ctx.arms = saved }()
	f()
}

// merge keeps variables all alternatives agree on and marks the rest unknown.
func (w *walker) merge(scopes []*scope) {
	w.sc.args, w.sc.argsKnown = mergeArgs(scopes)
	names := map[string]bool{}
	for _, s := range scopes {
		for n := range s.vars {
			names[n] = true
		}
	}
	for n := range names {
		first, ok := scopes[0].vars[n]
		same := ok
		for _, s := range scopes[1:] {
			v, ok := s.vars[n]
			if !ok || !same || v.val.Text != first.val.Text || v.val.Known != first.val.Known || v.isArr != first.isArr {
				same = false
			}
		}
		if same {
			w.sc.vars[n] = first
			continue
		}
		exp, at := false, Pos{}
		for _, s := range scopes {
			if v, ok := s.vars[n]; ok {
				exp, at = exp || v.exported, v.setAt
			}
		}
		val := unknownValue("$"+n, at, n)
		if v, ok := sharedWords(n, at, scopes); ok {
			val = v
		}
		w.sc.vars[n] = &shVar{val: val, exported: exp, setAt: at}
	}
}

// mergeArgs merges the positional parameters of alternatives (`set --
// "$@" --headless` in one arm of an if): kept when they agree; when they
// agree on leading words and then differ, those words and one unresolved
// "$@" for the rest, as sharedWords does for a string (qa45a F3); unknown
// when an arm left them unknown.
func mergeArgs(scopes []*scope) ([]Value, bool) {
	first := scopes[0]
	n, same := len(first.args), true
	for _, s := range scopes {
		if !s.argsKnown {
			return nil, false
		}
		if len(s.args) != len(first.args) {
			same = false
		}
		n = min(n, len(s.args))
		for i := 0; i < n; i++ {
			if s.args[i].Text != first.args[i].Text || s.args[i].Known != first.args[i].Known {
				n, same = i, false
				break
			}
		}
	}
	if same {
		return first.args, true
	}
	out := append([]Value(nil), first.args[:n]...)
	at := Pos{}
	for _, s := range scopes {
		if n < len(s.args) {
			at = s.args[n].Pos
			break
		}
	}
	return append(out, unknownValue("$@", at, "$@")), true
}

// sharedWords is the merged value of a variable whose alternatives agree
// on leading words and differ after them -- the arguments string one arm
// extends (ARGS+=" --data-parallel-start-rank $R" under an if the linter
// cannot decide): those words, resolved, then one unresolved part for the
// rest, so that an unquoted $ARGS still yields the flags every arm passes.
// Unresolved parts the arms share stay unresolved. false when the
// alternatives share no whole word, or one is an array, unset or
// unresolved throughout.
func sharedWords(name string, at Pos, scopes []*scope) (Value, bool) {
	var first Value
	n := -1
	for _, s := range scopes {
		v, ok := s.vars[name]
		if !ok || v.isArr {
			return Value{}, false
		}
		if n < 0 {
			first, n = v.val, len(v.val.Text)
		}
		n = min(n, len(v.val.Text))
		for i := 0; i < n; i++ {
			if v.val.Text[i] != first.Text[i] {
				n = i
				break
			}
		}
		if !v.val.Known && !v.val.partial {
			return Value{}, false
		}
		for i := 0; i < n; i++ { // the same bytes resolved in every arm
			if v.val.knownIn(i, i+1) != first.knownIn(i, i+1) {
				n = i
				break
			}
		}
	}
	// cut back to the last blank, so that no word is split: the shared
	// bytes end a word only where every arm's text ends or has a blank
	whole := true
	for _, s := range scopes {
		if t := s.vars[name].val.Text; n < len(t) && !isFieldBlank(t[n]) {
			whole = false
		}
	}
	for !whole && n > 0 && !isFieldBlank(first.Text[n-1]) {
		n--
	}
	if strings.TrimSpace(first.Text[:n]) == "" {
		return Value{}, false
	}
	var b builder
	shared := first.Slice(0, n)
	if first.knownIn(0, n) {
		shared.Known, shared.Unresolved, shared.holes, shared.partial = true, nil, nil, false
	}
	b.addValue(shared)
	if !isFieldBlank(first.Text[n-1]) {
		b.addByte(' ', at) // the rest starts a word of its own
	}
	b.addValue(unknownValue("$"+name, at, name))
	return b.value(first.Pos), true
}

// isFieldBlank is a byte the shell splits unquoted expansions on (IFS).
func isFieldBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// caseClause walks the item the word selects when it is known, otherwise
// every item. An item skipped only because the word is a caller
// variable's default (`case "${ROLE:-head}"`) is walked as an alternative.
func (w *walker) caseClause(c *syntax.CaseClause) {
	ev := w.ev()
	word := ev.str(c.Word)
	if !word.Known {
		var branches [][]*syntax.Stmt
		for _, item := range c.Items {
			branches = append(branches, item.Stmts)
		}
		w.walkBranches(branches, false, false)
		return
	}
	before := w.snapshot(ev.defaults)
	id := w.fe.nextClause()
	var alts [][]*syntax.Stmt
	matched := false
	for _, item := range c.Items {
		if !matched && w.caseMatch(word.Text, item.Patterns) {
			matched = true
			w.inArm(id, 0, before != nil, func() { w.stmts(item.Stmts) })
			continue
		}
		alts = append(alts, item.Stmts)
	}
	w.alternatives(before, alts, ev.defaults, id)
}

func (w *walker) caseMatch(s string, pats []*syntax.Word) bool {
	for _, p := range pats {
		pv := w.ev().str(p)
		if !pv.Known {
			continue
		}
		if ok, err := path.Match(pv.Text, s); err == nil && ok {
			return true
		}
	}
	return false
}

var braceRange = regexp.MustCompile(`^\{(-?\d+)\.\.(-?\d+)\}$`)

// forClause unrolls loops whose items are known (at most maxLoop times);
// otherwise it walks the body once with the loop variable unknown.
func (w *walker) forClause(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		items, ok := w.loopItems(l)
		name := l.Name.Value
		if !ok {
			w.setVar(name, unknownValue("$"+name, w.src.pos(l.Pos()), name))
			w.stmts(c.Do)
			return
		}
		for _, it := range items {
			w.setVar(name, it)
			w.stmts(c.Do)
		}
	case *syntax.CStyleLoop:
		w.cLoop(l, c.Do)
	}
}

func (w *walker) setVar(name string, v Value) {
	old, had := w.sc.vars[name]
	w.sc.vars[name] = &shVar{val: v, setAt: v.Pos, exported: had && old.exported}
}

func (w *walker) loopItems(l *syntax.WordIter) ([]Value, bool) {
	var items []Value
	for _, word := range l.Items {
		for _, f := range w.ev().fields(word) {
			if !f.Known {
				return nil, false
			}
			items = append(items, expandBraces(f)...)
		}
	}
	var out []Value
	for _, it := range items { // a $(seq) result arrives as one value with newlines
		for _, r := range fieldsIndex(it.Text) {
			out = append(out, it.Slice(r[0], r[1]))
		}
	}
	return out, len(out) <= maxLoop
}

// expandBraces expands {0..3} and {a,b}; other words pass through.
func expandBraces(v Value) []Value {
	if m := braceRange.FindStringSubmatch(v.Text); m != nil {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		var out []Value
		for i := lo; i <= hi && len(out) <= maxLoop; i++ {
			out = append(out, knownValue(strconv.Itoa(i), v.Pos))
		}
		return out
	}
	if strings.HasPrefix(v.Text, "{") && strings.HasSuffix(v.Text, "}") && strings.Contains(v.Text, ",") {
		var out []Value
		for _, s := range strings.Split(v.Text[1:len(v.Text)-1], ",") {
			out = append(out, knownValue(s, v.Pos))
		}
		return out
	}
	return []Value{v}
}

// cLoop unrolls for ((i=a; i<b; i++)) when the bounds are known.
func (w *walker) cLoop(l *syntax.CStyleLoop, body []*syntax.Stmt) {
	name, start, ok := w.arithAssign(l.Init)
	if !ok {
		w.stmts(body)
		return
	}
	step, stepOK := arithStep(l.Post, name)
	for i, n := start, 0; stepOK && n <= maxLoop; i, n = i+step, n+1 {
		w.setVar(name, knownValue(strconv.FormatInt(i, 10), w.src.pos(l.Pos())))
		res, known, _ := w.ev().arith(l.Cond)
		if !known {
			break
		}
		if res == 0 {
			return
		}
		w.stmts(body)
	}
	w.setVar(name, unknownValue("$"+name, w.src.pos(l.Pos()), name))
	w.stmts(body)
}

func (w *walker) arithAssign(x syntax.ArithmExpr) (string, int64, bool) {
	b, ok := x.(*syntax.BinaryArithm)
	if !ok || b.Op != syntax.Assgn {
		return "", 0, false
	}
	lhs, ok := b.X.(*syntax.Word)
	if !ok || !isName(lhs.Lit()) {
		return "", 0, false
	}
	n, known, _ := w.ev().arith(b.Y)
	return lhs.Lit(), n, known
}

// arithStep reads i++, i--, i+=k and i-=k.
func arithStep(x syntax.ArithmExpr, name string) (int64, bool) {
	switch x := x.(type) {
	case *syntax.UnaryArithm:
		if wd, ok := x.X.(*syntax.Word); ok && wd.Lit() == name {
			if x.Op == syntax.Inc {
				return 1, true
			}
			if x.Op == syntax.Dec {
				return -1, true
			}
		}
	case *syntax.BinaryArithm:
		wd, ok := x.X.(*syntax.Word)
		k, ok2 := x.Y.(*syntax.Word)
		if !ok || !ok2 || wd.Lit() != name {
			return 0, false
		}
		n, err := strconv.ParseInt(k.Lit(), 10, 64)
		if err != nil || n == 0 {
			return 0, false
		}
		if x.Op == syntax.AddAssgn {
			return n, true
		}
		if x.Op == syntax.SubAssgn {
			return -n, true
		}
	}
	return 0, false
}

// endsInExit reports a branch whose last command is `exit`: the shell ends
// there, so what follows the if statement runs only after the other arms
// (`if [ -f "$f" ]; then source "$f"; else exit 1; fi` keeps the sourced
// variables; bash manual, Bourne Shell Builtins: "exit: Exit the shell").
func endsInExit(b []*syntax.Stmt) bool {
	if len(b) == 0 {
		return false
	}
	last := b[len(b)-1]
	call, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || last.Background {
		return false
	}
	return call.Args[0].Lit() == "exit"
}
