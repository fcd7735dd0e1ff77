package launch

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// param expands $NAME, ${NAME}, ${NAME:-default}, ${ARR[i]} and ${#NAME}.
func (ev *evaluator) param(p *syntax.ParamExp) Value {
	txt := ev.src.text(p.Pos(), p.End())
	at := ev.src.pos(p.Pos())
	if p.Param == nil || p.Excl || p.Width || p.IsSet || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return unknownValue(txt, at, txt)
	}
	name := p.Param.Value
	v, defined := ev.lookupAs(name, p.Index, at, !guardsUnset(p.Exp))
	if p.Length {
		if !v.Known {
			return unknownValue(txt, at, name)
		}
		return knownValue(strconv.Itoa(len(v.Text)), at)
	}
	if p.Exp != nil {
		return ev.paramOp(p, name, v, defined, txt, at)
	}
	return v
}

// lookup returns the value of a variable (or array element) and whether the
// script defines it. Undefined names come back unresolved, named by name.
func (ev *evaluator) lookup(name string, index syntax.ArithmExpr, at Pos) (Value, bool) {
	return ev.lookupAs(name, index, at, true)
}

// lookupAs is lookup; note says whether a reference to an undefined name
// is recorded (scope.noteUndefined): not when the expansion itself
// provides for the unset case (guardsUnset).
func (ev *evaluator) lookupAs(name string, index syntax.ArithmExpr, at Pos, note bool) (Value, bool) {
	if n, err := strconv.Atoi(name); err == nil {
		return ev.positional(n, at)
	}
	if v, ok := ev.special(name, at); ok {
		return v, ev.sc.argsKnown
	}
	ref := "$" + name
	sv, ok := ev.sc.vars[name]
	if !ok {
		if note {
			ev.sc.noteUndefined(name, at)
		}
		if h, hidden := ev.sc.hidden[name]; hidden && note && ev.hits != nil {
			*ev.hits = append(*ev.hits, ParentOnlyRef{Name: name, Ref: unknownValue(ref, at, name), SetAt: h.setAt, Array: h.array})
		}
		return unknownValue(ref, at, name), false
	}
	ev.defaults = appendUnique(ev.defaults, sv.defaults...)
	if index == nil {
		if sv.isArr && len(sv.arr) > 0 {
			return withDefaults(sv.arr[0], sv.defaults), true
		}
		return withDefaults(sv.val, sv.defaults), true
	}
	i, known, _ := ev.arith(index)
	if !known || !sv.isArr || i < 0 || int(i) >= len(sv.arr) {
		return unknownValue(ref+"[...]", at, name), true
	}
	return sv.arr[i], true
}

func (ev *evaluator) positional(n int, at Pos) (Value, bool) {
	name := strconv.Itoa(n)
	if n == 0 || !ev.sc.argsKnown {
		return unknownValue("$"+name, at, "$"+name), false
	}
	if n > len(ev.sc.args) {
		return knownValue("", at), false
	}
	return ev.sc.args[n-1], true
}

// special expands the positional parameters as a whole: $@ and $* (as
// one string; arrayAll gives "$@" its separate words) and $#. Where the
// arguments are unknown (a script linted alone) the value is named "$@",
// as the user wrote it, not taken for a variable called "@" (QA41 D5).
func (ev *evaluator) special(name string, at Pos) (Value, bool) {
	switch name {
	case "@", "*":
		if !ev.sc.argsKnown {
			return unknownValue("$"+name, at, "$"+name), true
		}
		if len(ev.sc.args) == 0 {
			return knownValue("", at), true
		}
		return joinValues(ev.sc.args), true
	case "#":
		if !ev.sc.argsKnown {
			return unknownValue("$#", at, "$#"), true
		}
		return knownValue(strconv.Itoa(len(ev.sc.args)), at), true
	}
	return Value{}, false
}

// paramOp handles ${X-w}, ${X:-w}, ${X=w}, ${X:=w} and ${X+w}; other
// operators are left unresolved.
func (ev *evaluator) paramOp(p *syntax.ParamExp, name string, v Value, defined bool, txt string, at Pos) Value {
	def := func() Value { return ev.str(p.Exp.Word) }
	empty := v.Known && v.Text == ""
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		orNull := p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull
		if !defined && isPositional(name) && !ev.sc.argsKnown {
			// ${1:-0}: a script argument, which a multi-node script sets
			// per node (its rank, its role); the default is one case only.
			return unknownValue(txt, at, "$"+name)
		}
		if !defined || (orNull && empty) {
			d := def()
			// ${X:-} reads a variable the caller must provide (set -u
			// safe); its value is unknown, not the empty default.
			if !defined && d.Known && d.Text == "" && ev.sc.inheritsEnv(name) {
				d = unknownValue(txt, at, name)
			}
			var from []string
			if !defined && ev.sc.inheritsEnv(name) {
				from = []string{name}
				ev.defaults = appendUnique(ev.defaults, name)
			}
			if p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull {
				ev.sc.vars[name] = &shVar{val: d, setAt: at, defaults: from}
			}
			return withDefaults(d, from)
		}
		if !v.Known {
			return unknownValue(txt, at, v.Unresolved...)
		}
		return v
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if !defined || (p.Exp.Op == syntax.AlternateUnsetOrNull && empty) {
			return knownValue("", at)
		}
		if !v.Known {
			return unknownValue(txt, at, v.Unresolved...)
		}
		return def()
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		pat := def()
		if v.Known && pat.Known {
			return trimPattern(v, pat.Text, p.Exp.Op)
		}
		if defined && len(v.Unresolved)+len(pat.Unresolved) > 0 {
			// What leaves the result unknown is what left the variable
			// (or the pattern) unknown, not the variable's name: a
			// script's own `ip=${out%% *}` names what `out` came from.
			return unknownValue(txt, at, appendUnique(append([]string(nil), v.Unresolved...), pat.Unresolved...)...)
		}
	}
	return unknownValue(txt, at, name)
}

// trimPattern removes the shortest or longest prefix or suffix matching a
// glob pattern, as ${X#p}, ${X##p}, ${X%p} and ${X%%p} do.
func trimPattern(v Value, pat string, op syntax.ParExpOperator) Value {
	n := len(v.Text)
	match := func(s string) bool { ok, err := path.Match(pat, s); return err == nil && ok }
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		for k := 0; k <= n; k++ {
			i := k
			if op == syntax.RemLargePrefix {
				i = n - k
			}
			if match(v.Text[:i]) {
				return v.Slice(i, n)
			}
		}
	default:
		for k := 0; k <= n; k++ {
			i := n - k
			if op == syntax.RemLargeSuffix {
				i = k
			}
			if match(v.Text[i:]) {
				return v.Slice(0, i)
			}
		}
	}
	return v
}

// arrayAll expands "${ARR[@]}" / ${ARR[*]} into one value per element, and
// the `set -u` safe form ${ARR[@]+"${ARR[@]}"} (what vlaunch's own docker
// bundles pass gdrcopy's device with) into the same, or nothing when the
// script never sets ARR.
func (ev *evaluator) arrayAll(part syntax.WordPart) ([]Value, bool) {
	p, ok := part.(*syntax.ParamExp)
	if !ok {
		if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			return ev.arrayAll(dq.Parts[0])
		}
		return nil, false
	}
	if p.Param != nil && p.Param.Value == "@" && p.Index == nil && p.Exp == nil && !p.Length && ev.sc.argsKnown {
		return ev.sc.args, true // "$@": one word per argument
	}
	if !ev.isAllElements(p) {
		return nil, false
	}
	if p.Exp != nil {
		if !ev.alternateSelf(p) {
			return nil, false
		}
		if _, set := ev.sc.vars[p.Param.Value]; !set {
			return nil, true
		}
	}
	sv, ok := ev.sc.vars[p.Param.Value]
	if !ok || !sv.isArr {
		at := ev.src.pos(p.Pos())
		return []Value{unknownValue(ev.src.text(p.Pos(), p.End()), at, p.Param.Value)}, true
	}
	return sv.arr, true
}

// isAllElements reports whether p names every element of an array:
// ${ARR[@]} or ${ARR[*]}, with no length.
func (ev *evaluator) isAllElements(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Index == nil || p.Length || p.Excl || p.Slice != nil || p.Repl != nil {
		return false
	}
	idx := strings.TrimSpace(ev.src.text(p.Index.Pos(), p.Index.End()))
	return idx == "@" || idx == "*"
}

// alternateSelf reports whether p is ${ARR[@]+"${ARR[@]}"} (or with :+, or
// the inner expansion unquoted): the alternate word is the same array's
// every element, so the expansion is the array's elements.
func (ev *evaluator) alternateSelf(p *syntax.ParamExp) bool {
	if p.Exp == nil || p.Exp.Word == nil || len(p.Exp.Word.Parts) != 1 ||
		p.Exp.Op != syntax.AlternateUnset && p.Exp.Op != syntax.AlternateUnsetOrNull {
		return false
	}
	in := p.Exp.Word.Parts[0]
	if dq, ok := in.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		in = dq.Parts[0]
	}
	q, ok := in.(*syntax.ParamExp)
	return ok && q.Exp == nil && ev.isAllElements(q) && q.Param.Value == p.Param.Value
}

// arithmValue evaluates $((...)).
func (ev *evaluator) arithmValue(a *syntax.ArithmExp) Value {
	at := ev.src.pos(a.Pos())
	n, known, names := ev.arith(a.X)
	if !known {
		return unknownValue(ev.src.text(a.Pos(), a.End()), at, names...)
	}
	return knownValue(strconv.FormatInt(n, 10), at)
}

// arith evaluates an arithmetic expression; names lists what was unknown.
func (ev *evaluator) arith(x syntax.ArithmExpr) (n int64, known bool, names []string) {
	switch x := x.(type) {
	case *syntax.Word:
		return ev.arithWord(x)
	case *syntax.ParenArithm:
		return ev.arith(x.X)
	case *syntax.UnaryArithm:
		v, ok, nm := ev.arith(x.X)
		switch x.Op {
		case syntax.Minus:
			return -v, ok, nm
		case syntax.Plus:
			return v, ok, nm
		}
		return 0, false, nm
	case *syntax.BinaryArithm:
		a, okA, nA := ev.arith(x.X)
		b, okB, nB := ev.arith(x.Y)
		nm := append(nA, nB...)
		if !okA || !okB {
			return 0, false, nm
		}
		return binArith(x.Op, a, b)
	}
	return 0, false, nil
}

func (ev *evaluator) arithWord(w *syntax.Word) (int64, bool, []string) {
	if lit := w.Lit(); lit != "" && isName(lit) {
		v, _ := ev.lookup(lit, nil, ev.src.pos(w.Pos()))
		if !v.Known {
			return 0, false, v.Unresolved
		}
		if strings.TrimSpace(v.Text) == "" {
			return 0, true, nil
		}
		w2, err := strconv.ParseInt(strings.TrimSpace(v.Text), 0, 64)
		return w2, err == nil, nil
	}
	v := ev.str(w)
	if !v.Known {
		return 0, false, v.Unresolved
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v.Text), 0, 64)
	return n, err == nil, nil
}

func binArith(op syntax.BinAritOperator, a, b int64) (int64, bool, []string) {
	switch op {
	case syntax.Add:
		return a + b, true, nil
	case syntax.Sub:
		return a - b, true, nil
	case syntax.Mul:
		return a * b, true, nil
	case syntax.Quo, syntax.Rem:
		if b == 0 {
			return 0, false, nil
		}
		if op == syntax.Quo {
			return a / b, true, nil
		}
		return a % b, true, nil
	case syntax.Lss, syntax.Leq, syntax.Gtr, syntax.Geq, syntax.Eql, syntax.Neq:
		return boolInt(compareInts(op, a, b)), true, nil
	}
	return 0, false, nil
}

func compareInts(op syntax.BinAritOperator, a, b int64) bool {
	switch op {
	case syntax.Lss:
		return a < b
	case syntax.Leq:
		return a <= b
	case syntax.Gtr:
		return a > b
	case syntax.Geq:
		return a >= b
	case syntax.Eql:
		return a == b
	}
	return a != b
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// isName reports whether s is a valid shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// noteUndefined records a reference to an undefined name in strict scopes.
func (sc *scope) noteUndefined(name string, at Pos) {
	if !sc.strict || sc.undef == nil {
		return
	}
	for _, u := range *sc.undef {
		if u.Text == "$"+name {
			return
		}
	}
	*sc.undef = append(*sc.undef, unknownValue("$"+name, at, name))
}

// inheritsEnv reports whether an undefined name may still have a value
// the script does not show: a variable from the caller's environment, or a
// script argument. Container scripts (strict) see a fully known environment,
// and a function called with literal arguments has no others.
func (sc *scope) inheritsEnv(name string) bool {
	if _, err := strconv.Atoi(name); err == nil {
		return !sc.argsKnown
	}
	return !sc.strict
}

// isPositional reports a positional parameter name ($1, $2, ...).
func isPositional(name string) bool {
	n, err := strconv.Atoi(name)
	return err == nil && n > 0
}

// guardsUnset reports an expansion that says what an unset variable gives
// (${X-w}, ${X:-w}, ${X=w}, ${X:=w}, ${X+w}, ${X:+w}): the author expects
// the variable may be unset, so it is no undefined reference.
func guardsUnset(e *syntax.Expansion) bool {
	if e == nil {
		return false
	}
	switch e.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

// withDefaults returns v marked as (also) computed from the defaults of the
// caller's variables names (Value.FromDefaults).
func withDefaults(v Value, names []string) Value {
	if len(names) == 0 {
		return v
	}
	v.FromDefaults = appendUnique(slices.Clone(v.FromDefaults), names...)
	return v
}
