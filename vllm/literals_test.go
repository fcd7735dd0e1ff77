package vllm

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// literalAllowed lists string literals outside vllm/ that may name an
// all-to-all backend, with why. Keep it short: a backend name in code is a
// vLLM fact, and vLLM facts live in this package (use the Backend*
// constants, BackendKernels or TrafficOf instead).
var literalAllowed = map[string]string{}

// TestNoBackendLiteralsOutsideVLLM fails on a Go string literal outside
// vllm/ (tests and testdata excepted) that contains an all-to-all backend
// name as a word: comparisons against backend names, lists of them and
// messages that spell one out all belong here or go through the constants.
func TestNoBackendLiteralsOutsideVLLM(t *testing.T) {
	var alts []string
	for _, n := range BackendNames() {
		alts = append(alts, regexp.QuoteMeta(n))
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])(` + strings.Join(alts, "|") + `)($|[^A-Za-z0-9_])`)
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || name == "vllm" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		checkLiterals(t, path, re)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkLiterals(t *testing.T, path string, re *regexp.Regexp) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		key := filepath.ToSlash(strings.TrimPrefix(path, "../")) + ": " + s
		if m := re.FindStringSubmatch(s); m != nil && literalAllowed[key] == "" {
			t.Errorf("%s: string literal names the all-to-all backend %q; use the vllm package's constants or tables", fset.Position(lit.Pos()), m[2])
		}
		return true
	})
}
