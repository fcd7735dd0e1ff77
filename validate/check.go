package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// checker carries one deployment through the semantic rules.
type checker struct {
	d       *spec.Deployment
	tainted []string
	ds      diag.Diagnostics
	// model and gpu are resolved once; nil when unknown (already reported).
	model *catalog.Model
	gpu   *catalog.GPU
}

// rule is one semantic check; each area lives in its own rules_*.go file.
type rule func(*checker)

// rules run in this order; model and GPU resolution come first because
// later rules read c.model and c.gpu.
var rules = []rule{
	checkModelRef, checkGPURef,
	checkNodes, checkNodeNetwork,
	checkLayout, checkExpert,
	checkContext, checkTTFT, checkFP8,
	checkPorts, checkVersion, checkBackend, checkEnv,
	checkNames, checkRuntimeNames,
}

func semantic(d *spec.Deployment, tainted []string) diag.Diagnostics {
	c := &checker{d: d, tainted: tainted}
	for _, r := range rules {
		r(c)
	}
	return c.ds
}

// p builds a path from keys and indexes: p("hardware", "nodes", 1, "name").
func p(parts ...interface{}) []string {
	out := make([]string, len(parts))
	for i, x := range parts {
		switch v := x.(type) {
		case int:
			out[i] = strconv.Itoa(v)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

// ok reports whether none of the paths (or anything under or above them)
// already has a schema error.
func (c *checker) ok(paths ...[]string) bool {
	for _, path := range paths {
		ps := spec.PathString(path)
		for _, t := range c.tainted {
			if related(ps, t) {
				return false
			}
		}
	}
	return true
}

func related(a, b string) bool {
	return a == b || under(a, b) || under(b, a)
}

// under reports whether path a lies inside path b.
func under(a, b string) bool {
	if b == "" {
		return true
	}
	return strings.HasPrefix(a, b) && (a[len(b)] == '.' || a[len(b)] == '[')
}

func (c *checker) add(sev diag.Severity, code string, path []string, hint, format string, args ...interface{}) {
	c.addAt(false, sev, code, path, hint, format, args...)
}

// addAt reports at the value of path, or at its key when key is true (for
// findings about the key itself, such as an invalid env variable name).
func (c *checker) addAt(key bool, sev diag.Severity, code string, path []string, hint, format string, args ...interface{}) {
	if !c.ok(path) {
		return
	}
	n, _ := spec.NodeAt(c.d.Root, path, key)
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	c.ds = append(c.ds, diag.Diagnostic{Code: code, Severity: sev, File: c.d.File, Line: line, Col: col,
		Path: spec.PathString(path), Message: fmt.Sprintf(format, args...), Hint: hint})
}

func (c *checker) errorf(code string, path []string, hint, format string, args ...interface{}) {
	c.add(diag.Error, code, path, hint, format, args...)
}

func (c *checker) warnf(code string, path []string, hint, format string, args ...interface{}) {
	c.add(diag.Warning, code, path, hint, format, args...)
}
