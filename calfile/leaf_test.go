package calfile

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// moduleImports lists the vlaunch packages the non-test files of dir import.
func moduleImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, "github.com/vlaunch/vlaunch/"); ok {
				out = append(out, rest)
			}
		}
	}
	return out
}

// TestCalibrationFileIsALeaf keeps the split of issue #27: resolve reads the
// calibration file through this package, so it must not reach up to the
// fitter or the `vlaunch calibrate` engine (which import the estimator), and
// resolve must read the file only through it.
func TestCalibrationFileIsALeaf(t *testing.T) {
	for _, imp := range moduleImports(t, ".") {
		if !strings.HasPrefix(imp, "internal/") {
			t.Errorf("calfile imports %s: the calibration file may use only internal helpers", imp)
		}
	}
	for _, imp := range moduleImports(t, "../resolve") {
		if imp == "calibrate" || imp == "fitter" {
			t.Errorf("resolve imports %s: read the calibration file through calfile", imp)
		}
	}
}
