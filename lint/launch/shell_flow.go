package launch

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ifClause walks the branch the condition selects when it can be decided
// statically, otherwise every branch, merging what they assign.
func (w *walker) ifClause(c *syntax.IfClause) {
	var branches [][]*syntax.Stmt
	for cl := c; cl != nil; cl = cl.Else {
		if len(cl.Cond) == 0 { // else
			branches = append(branches, cl.Then)
			break
		}
		switch w.condition(cl.Cond) {
		case condTrue:
			if len(branches) == 0 {
				w.stmts(cl.Then)
				return
			}
			branches = append(branches, cl.Then)
			w.walkBranches(branches, true)
			return
		case condUnknown:
			branches = append(branches, cl.Then)
		}
	}
	hasElse := false
	for cl := c; cl != nil; cl = cl.Else {
		hasElse = len(cl.Cond) == 0
	}
	w.walkBranches(branches, hasElse)
}

// walkBranches walks alternatives each in its own scope, then merges.
func (w *walker) walkBranches(branches [][]*syntax.Stmt, exhaustive bool) {
	if len(branches) == 1 && exhaustive {
		w.stmts(branches[0])
		return
	}
	var scopes []*scope
	for _, b := range branches {
		nw := w.nested(w.sc.clone())
		nw.stmts(b)
		scopes = append(scopes, nw.sc)
	}
	if !exhaustive {
		scopes = append(scopes, w.sc.clone())
	}
	w.merge(scopes)
}

// merge keeps variables all alternatives agree on and marks the rest unknown.
func (w *walker) merge(scopes []*scope) {
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
		w.sc.vars[n] = &shVar{val: unknownValue("$"+n, at, n), exported: exp, setAt: at}
	}
}

func (w *walker) caseClause(c *syntax.CaseClause) {
	word := w.ev().str(c.Word)
	var branches [][]*syntax.Stmt
	for _, item := range c.Items {
		if word.Known {
			if w.caseMatch(word.Text, item.Patterns) {
				w.stmts(item.Stmts)
				return
			}
			continue
		}
		branches = append(branches, item.Stmts)
	}
	if !word.Known {
		w.walkBranches(branches, false)
	}
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
