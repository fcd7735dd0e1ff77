package launch

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// cond is a statically evaluated condition.
type cond int

const (
	condUnknown cond = iota
	condTrue
	condFalse
)

func condOf(b bool) cond {
	if b {
		return condTrue
	}
	return condFalse
}

// condition decides `[ a = b ]`, `[[ a -eq b ]]`, `test ...` and `(( ... ))`
// when every operand is known.
func (w *walker) condition(stmts []*syntax.Stmt) cond {
	if len(stmts) != 1 || stmts[0].Negated {
		return condUnknown
	}
	switch c := stmts[0].Cmd.(type) {
	case *syntax.TestClause:
		return w.testExpr(c.X)
	case *syntax.ArithmCmd:
		n, known, _ := w.ev().arith(c.X)
		if !known {
			return condUnknown
		}
		return condOf(n != 0)
	case *syntax.CallExpr:
		return w.testCall(c)
	}
	return condUnknown
}

// testCall evaluates `[ x OP y ]` and `test x OP y`.
func (w *walker) testCall(c *syntax.CallExpr) cond {
	var args []Value
	for _, a := range c.Args {
		args = append(args, w.ev().fields(a)...)
	}
	if len(args) == 0 {
		return condUnknown
	}
	switch args[0].Text {
	case "[":
		if args[len(args)-1].Text != "]" {
			return condUnknown
		}
		args = args[1 : len(args)-1]
	case "test":
		args = args[1:]
	default:
		return condUnknown
	}
	if len(args) == 3 {
		return compareValues(args[0], args[1].Text, args[2])
	}
	if len(args) == 2 && (args[0].Text == "-z" || args[0].Text == "-n") && args[1].Known {
		return condOf((args[1].Text == "") == (args[0].Text == "-z"))
	}
	return condUnknown
}

func (w *walker) testExpr(x syntax.TestExpr) cond {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		a, b := w.testWord(x.X), w.testWord(x.Y)
		if a == nil || b == nil {
			return condUnknown
		}
		return compareValues(*a, testOp(x.Op), *b)
	case *syntax.ParenTest:
		return w.testExpr(x.X)
	case *syntax.UnaryTest:
		v := w.testWord(x.X)
		if v == nil || !v.Known || (x.Op != syntax.TsEmpStr && x.Op != syntax.TsNempStr) {
			return condUnknown
		}
		return condOf((v.Text == "") == (x.Op == syntax.TsEmpStr))
	}
	return condUnknown
}

func (w *walker) testWord(x syntax.TestExpr) *Value {
	wd, ok := x.(*syntax.Word)
	if !ok {
		return nil
	}
	v := w.ev().str(wd)
	return &v
}

func testOp(op syntax.BinTestOperator) string {
	switch op {
	case syntax.TsEql:
		return "-eq"
	case syntax.TsNeq:
		return "-ne"
	case syntax.TsLss:
		return "-lt"
	case syntax.TsLeq:
		return "-le"
	case syntax.TsGtr:
		return "-gt"
	case syntax.TsGeq:
		return "-ge"
	case syntax.TsMatch, syntax.TsMatchShort:
		return "="
	case syntax.TsNoMatch:
		return "!="
	}
	return "?"
}

// compareValues applies a test operator to two known operands.
func compareValues(a Value, op string, b Value) cond {
	if !a.Known || !b.Known {
		return condUnknown
	}
	switch op {
	case "=", "==":
		return condOf(a.Text == b.Text)
	case "!=":
		return condOf(a.Text != b.Text)
	}
	x, err1 := strconv.Atoi(a.Text)
	y, err2 := strconv.Atoi(b.Text)
	if err1 != nil || err2 != nil {
		return condUnknown
	}
	switch op {
	case "-eq":
		return condOf(x == y)
	case "-ne":
		return condOf(x != y)
	case "-lt":
		return condOf(x < y)
	case "-le":
		return condOf(x <= y)
	case "-gt":
		return condOf(x > y)
	case "-ge":
		return condOf(x >= y)
	}
	return condUnknown
}
