package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// The rule and schema tests are spec files under testdata/specs/CODE/ that
// carry their expectations as comments:
//
//	max_model_len: 200000  # want SPEC107:warning@18
//
// expects a SPEC107 at warning severity on that line, column 18. The
// severity defaults to the code's (diag/codes) and the column is optional.
// `# want+2 CODE` expects it two lines below, `# want-1 CODE` one line
// above, `# want:12 CODE` on line 12. Every finding must be wanted and
// every want found. A file named clean-*.yaml wants no SPEC code: it
// guards a rule against firing too often (a GEN finding validate makes of
// the bundle, BundleRefusals and All2AllNotes, may be wanted there too).
var wantRE = regexp.MustCompile(`#\s*want(?:([+-]\d+)|:(\d+))?((?:\s+(?:SPEC|GEN)\d{3}(?::[a-z]+)?(?:@\d+)?)+)`)

var wantTokenRE = regexp.MustCompile(`^((?:SPEC|GEN)\d{3})(?::([a-z]+))?(?:@(\d+))?$`)

// fixtureWant is one expected finding.
type fixtureWant struct {
	line, col int // col 0 = any
	code      diag.Code
	sev       diag.Severity
}

func (w fixtureWant) String() string {
	return fmt.Sprintf("%d:%d %s %s", w.line, w.col, w.sev, w.code)
}

// parseWants reads the `# want` comments of a fixture.
func parseWants(t *testing.T, path string, src []byte) []fixtureWant {
	var out []fixtureWant
	for i, l := range strings.Split(string(src), "\n") {
		m := wantRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line := i + 1
		if m[1] != "" {
			off, _ := strconv.Atoi(m[1])
			line += off
		} else if m[2] != "" {
			line, _ = strconv.Atoi(m[2])
		}
		for _, tok := range strings.Fields(m[3]) {
			out = append(out, parseWantToken(t, fmt.Sprintf("%s:%d", path, i+1), line, tok))
		}
	}
	return out
}

func parseWantToken(t *testing.T, where string, line int, tok string) fixtureWant {
	m := wantTokenRE.FindStringSubmatch(tok)
	w := fixtureWant{line: line, code: diag.Code(m[1]), sev: codes.Severity(diag.Code(m[1]))}
	if _, ok := codes.Lookup(m[1]); !ok {
		t.Errorf("%s: want of %s, a code the catalog does not have", where, m[1])
	}
	if m[2] != "" {
		sev, err := diag.ParseSeverity(m[2])
		if err != nil {
			t.Errorf("%s: %v", where, err)
		}
		w.sev = sev
	}
	w.col, _ = strconv.Atoi(m[3])
	return w
}

// fixtureProblems validates a fixture and lists findings no want matches
// and wants no finding matches.
func fixtureProblems(t *testing.T, path string) []string {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, ds, err := File(path)
	if err != nil {
		return []string{fmt.Sprintf("unusable: %v", err)}
	}
	wants := parseWants(t, path, src)
	matched := make([]bool, len(wants))
	var problems []string
	for _, d := range ds {
		if !matchFixtureWant(wants, matched, d) {
			problems = append(problems, fmt.Sprintf("unexpected: %d:%d %s %s %s: %s", d.Line, d.Col, d.Severity, d.Code, d.Path, d.Message))
		}
	}
	for i, w := range wants {
		if !matched[i] {
			problems = append(problems, "missing: "+w.String())
		}
	}
	return problems
}

func matchFixtureWant(wants []fixtureWant, matched []bool, d diag.Diagnostic) bool {
	for i, w := range wants {
		if !matched[i] && w.line == d.Line && w.code == d.Code && w.sev == d.Severity && (w.col == 0 || w.col == d.Col) {
			matched[i] = true
			return true
		}
	}
	return false
}

// TestSpecFixtures runs every fixture under testdata/specs.
func TestSpecFixtures(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "specs", "*", "*.yaml"))
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, filepath.Join("testdata", "specs")+string(filepath.Separator)), func(t *testing.T) {
			for _, problem := range fixtureProblems(t, p) {
				t.Error(problem)
			}
		})
	}
}

// TestFixtureSets: every SPEC code validate reports on a readable spec has
// a directory with a fixture that wants it, the fixtures of a directory
// want its code, and a file named clean-* wants nothing. (SPEC000 and
// SPEC001 are unusable input, tested in Go: their files cannot carry
// comments.)
func TestFixtureSets(t *testing.T) {
	for _, f := range codes.Families() {
		if f.Prefix != "SPEC" {
			continue
		}
		for _, e := range f.Entries() {
			if e.Code == CodeUnreadable || e.Code == CodeSyntax || e.Retired() != "" {
				continue
			}
			checkFixtureDir(t, e.Code)
		}
	}
}

func checkFixtureDir(t *testing.T, code diag.Code) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "specs", string(code), "*.yaml"))
	positive := false
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		wants := parseWants(t, p, src)
		clean := strings.HasPrefix(filepath.Base(p), "clean-")
		for _, w := range wants {
			if clean && strings.HasPrefix(string(w.code), "SPEC") {
				t.Errorf("%s: a clean-* fixture must want no SPEC code", p)
			}
		}
		for _, w := range wants {
			positive = positive || w.code == code
		}
	}
	if !positive {
		t.Errorf("%s: testdata/specs/%s needs a fixture with `# want %s`", code, code, code)
	}
}

// TestHarnessCanFail: a fixture whose wants disagree with the findings is
// reported both ways, so a broken rule cannot pass silently.
func TestHarnessCanFail(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "specs", "SPEC101", "duplicate-name.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(src), "# want SPEC101@14", "# want SPEC110", 1)
	path := filepath.Join(t.TempDir(), "moved.yaml")
	if err := os.WriteFile(path, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(fixtureProblems(t, path), "\n")
	if !strings.Contains(got, "unexpected: 15:14 error SPEC101") || !strings.Contains(got, "missing: 15:0 error SPEC110") {
		t.Errorf("want one unexpected SPEC101 and one missing SPEC110, got:\n%s", got)
	}
}
