package launch

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker interprets a script just enough to follow variables, loops,
// branches and functions to the commands that start vLLM.
type walker struct {
	fe        *frontEnd
	src       *source
	sc        *scope
	ctx       walkCtx
	allExport bool
}

func (w *walker) ev() *evaluator { return &evaluator{src: w.src, sc: w.sc, hits: w.fe.hits} }

func (w *walker) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		w.stmt(s)
	}
}

func (w *walker) stmt(s *syntax.Stmt) {
	if w.fe.steps++; w.fe.steps > maxSteps {
		return
	}
	if _, call := s.Cmd.(*syntax.CallExpr); s.Background && !call && !w.ctx.background {
		bg := w.nested(w.sc)
		bg.ctx.background = true
		bg.stmt(&syntax.Stmt{Cmd: s.Cmd, Position: s.Position, Negated: s.Negated, Redirs: s.Redirs, Comments: s.Comments})
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(s, c)
	case *syntax.DeclClause:
		w.decl(c)
	case *syntax.IfClause:
		w.ifClause(c)
	case *syntax.CaseClause:
		w.caseClause(c)
	case *syntax.ForClause:
		w.forClause(c)
	case *syntax.WhileClause:
		if w.sc.argsKnown && shifts(c) {
			// an option loop (`while [ $# -gt 0 ]; do case $1 ...;
			// shift; done`) runs once per argument, and is walked
			// once: its arguments are taken as unknown, so that every
			// branch is read
			w.sc.args, w.sc.argsKnown = nil, false
		}
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.nested(w.sc.clone()).stmts(c.Stmts)
	case *syntax.BinaryCmd:
		w.stmt(c.X)
		w.stmt(c.Y)
	case *syntax.FuncDecl:
		if c.Name != nil {
			w.fe.funcs[c.Name.Value] = c
			// The body's words are this source's text wherever the function
			// is called from: a sourced input, or another code block of a
			// Markdown document.
			if w.fe.funcSrc == nil {
				w.fe.funcSrc = map[*syntax.FuncDecl]*source{}
			}
			w.fe.funcSrc[c] = w.src
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt)
		}
	}
}

// nested returns a walker over the same source with another scope.
func (w *walker) nested(sc *scope) *walker {
	return &walker{fe: w.fe, src: w.src, sc: sc, ctx: w.ctx, allExport: w.allExport}
}

// maxArrayElems caps an array a script grows (ARR+=("${ARR[@]}") doubles it).
const maxArrayElems = 4096

// assign records NAME=value (or NAME=(a b c)) in the scope.
func (w *walker) assign(a *syntax.Assign, export bool) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	old, had := w.sc.vars[name]
	v := &shVar{setAt: w.src.pos(a.Pos()), exported: export || w.allExport || (had && old.exported)}
	switch {
	case a.Array != nil:
		v.isArr = true
		if a.Append && had { // ARR+=(...) extends the array (or a scalar's value)
			v.arr = append(v.arr, old.arr...)
			if !old.isArr {
				v.arr = append(v.arr, old.val)
			}
		}
		ev := w.ev()
		for _, el := range a.Array.Elems {
			if el.Value != nil && len(v.arr) < maxArrayElems {
				v.arr = append(v.arr, ev.fields(el.Value)...)
			}
		}
		v.defaults = ev.defaults
	case a.Naked:
		if had {
			old.exported = old.exported || export
			return
		}
		v.val = unknownValue("$"+name, v.setAt, name)
		v.inherited = true
	default:
		ev := w.ev()
		v.val = namedSubst(name, ev.str(a.Value))
		v.defaults = ev.defaults
		if a.Append && had {
			v.val = concatValues(old.val, v.val)
			v.defaults = appendUnique(v.defaults, old.defaults...)
		}
	}
	w.sc.vars[name] = v
}

// namedSubst names the command substitutions a variable's value could
// not resolve after the variable: VL004 then says "HF_OVERRIDES=$(printf
// ...)", not a bare multi-line $(...) the reader must find (qa45a F11: a
// GLM-5.2 script's HF_OVERRIDES="$(printf '{...}' "$PATTERN")", read_file
// id 60452307051). The value's own slice is not changed: it may be shared.
func namedSubst(name string, v Value) Value {
	var names []string
	changed := false
	for _, n := range v.Unresolved {
		if strings.HasPrefix(n, "$(") || strings.HasPrefix(n, "`") {
			n, changed = name+"="+n, true
		}
		names = append(names, n)
	}
	if changed {
		v.Unresolved = names
	}
	return v
}

// decl handles export / declare / local / readonly.
func (w *walker) decl(d *syntax.DeclClause) {
	export := d.Variant != nil && d.Variant.Value == "export"
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil && d.Variant != nil && d.Variant.Value == "declare" {
			continue // options such as -x
		}
		w.assign(a, export)
	}
}

// exported returns the exported variables, in the order the script set them.
func (w *walker) exported() []EnvVar {
	var out []EnvVar
	for name, v := range w.sc.vars {
		if v.exported && !v.isArr {
			out = append(out, EnvVar{Name: name, Value: v.val, Pos: v.setAt, Source: "export"})
		}
	}
	sortEnv(out)
	return out
}

// unexported returns variables assigned but not exported, in order.
func (w *walker) unexported() []EnvVar {
	var out []EnvVar
	for name, v := range w.sc.vars {
		if !v.exported && !v.isArr && !v.inherited && v.setAt.Line > 0 {
			out = append(out, EnvVar{Name: name, Value: v.val, Pos: v.setAt, Source: "assignment"})
		}
	}
	sortEnv(out)
	return out
}

func sortEnv(env []EnvVar) {
	sort.SliceStable(env, func(i, j int) bool {
		a, b := env[i].Pos, env[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return env[i].Name < env[j].Name
	})
}

func concatValues(a, b Value) Value {
	var bl builder
	bl.addValue(a)
	bl.addValue(b)
	return bl.value(a.Pos)
}

// shifts reports a loop that runs `shift`.
func shifts(loop *syntax.WhileClause) bool {
	found := false
	syntax.Walk(loop, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == "shift" {
			found = true
		}
		return !found
	})
	return found
}
