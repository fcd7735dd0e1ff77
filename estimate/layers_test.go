package estimate

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers is the import graph of the estimator, bottom up: a subpackage may
// import only the estimate packages listed for it (the compiler forbids
// cycles; this forbids upward arrows, such as perf reaching for memory, and
// any subpackage reaching for the facade or for package report).
var layers = map[string][]string{
	"input":              nil,
	"band":               nil,
	"perf":               {"input"},
	"sim":                {"perf"},
	"memory":             {"input"},
	"layouts":            {"input"},
	"slo":                {"band", "input", "layouts", "memory", "perf", "sim"},
	"replay":             {"band", "input", "memory", "perf", "sim"},
	"search":             {"input", "layouts", "memory", "slo"},
	"pd":                 {"band", "input", "memory", "perf", "sim", "slo"},
	"internal/testinput": {"input"},
	".":                  {"input", "layouts", "memory", "pd", "search", "slo"},
}

const module = "github.com/vlaunch/vlaunch/"

func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() == "testdata" {
			return err
		}
		seen[path] = true
		allowed, ok := layers[path]
		imports := estimateImports(t, path)
		if !ok && len(imports) > 0 {
			t.Errorf("estimate/%s is not in the layer table", path)
		}
		for _, imp := range imports {
			if !slices.Contains(allowed, imp) {
				t.Errorf("estimate/%s imports %s: not below it (allowed: %v)", path, imp, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range layers {
		if !seen[p] {
			t.Errorf("layer %s has no directory", p)
		}
	}
}

// estimateImports lists what the non-test files of dir import from the
// estimator ("." for the facade, "report" for the renderers).
func estimateImports(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == module+"estimate":
				out = append(out, ".")
			case p == module+"report" || strings.HasPrefix(p, module+"report/"):
				out = append(out, "report")
			case strings.HasPrefix(p, module+"estimate/"):
				out = append(out, strings.TrimPrefix(p, module+"estimate/"))
			}
		}
	}
	return out
}
