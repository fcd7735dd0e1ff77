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
// when every operand is known. It also returns the caller's variables
// whose defaults decided it (evaluator.defaults): a script that tests
// `${NODE_RANK:-0}` runs on nodes that set NODE_RANK, so the branch the
// default selects is only one of the branches that run.
func (w *walker) condition(stmts []*syntax.Stmt) (cond, []string) {
	if len(stmts) != 1 || stmts[0].Negated {
		return condUnknown, nil
	}
	ev := w.ev()
	var c cond
	switch x := stmts[0].Cmd.(type) {
	case *syntax.TestClause:
		c = testExpr(ev, x.X)
	case *syntax.ArithmCmd:
		n, known, _ := ev.arith(x.X)
		c = condUnknown
		if known {
			c = condOf(n != 0)
		}
	case *syntax.CallExpr:
		c = testCall(ev, x)
	default:
		return condUnknown, nil
	}
	if c == condUnknown {
		return c, nil
	}
	return c, ev.defaults
}

// testCall evaluates `[ x OP y ]` and `test x OP y`.
func testCall(ev *evaluator, c *syntax.CallExpr) cond {
	var args []Value
	for _, a := range c.Args {
		args = append(args, ev.fields(a)...)
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

func testExpr(ev *evaluator, x syntax.TestExpr) cond {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		a, b := testWord(ev, x.X), testWord(ev, x.Y)
		if a == nil || b == nil {
			return condUnknown
		}
		return compareValues(*a, testOp(x.Op), *b)
	case *syntax.ParenTest:
		return testExpr(ev, x.X)
	case *syntax.UnaryTest:
		v := testWord(ev, x.X)
		if v == nil || !v.Known || (x.Op != syntax.TsEmpStr && x.Op != syntax.TsNempStr) {
			return condUnknown
		}
		return condOf((v.Text == "") == (x.Op == syntax.TsEmpStr))
	}
	return condUnknown
}

func testWord(ev *evaluator, x syntax.TestExpr) *Value {
	wd, ok := x.(*syntax.Word)
	if !ok {
		return nil
	}
	v := ev.str(wd)
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
