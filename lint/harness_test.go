package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// loadSpec validates a fixture's spec as `vlaunch lint --spec` does and
// returns it with its resolved deployment, which answers VL125's capacity
// question on the spec's own hardware.
func loadSpec(t *testing.T, path string) (*spec.Deployment, *resolve.Deployment) {
	t.Helper()
	r, ds, err := validate.File(path)
	if err != nil || r == nil || ds.HasErrors() {
		t.Fatalf("%s: %v %v", path, err, ds)
	}
	return r.Spec, r
}

// wantRE reads expectations written in fixtures: `# want VL101 VL102`
// expects findings on the comment's line; `# want+2 VL105` two lines
// below, `# want-3 ...` three lines above, `# want:12 ...` on line 12 (for
// lines inside a continued command, where a comment would break the command).
var wantRE = regexp.MustCompile(`#\s*want(?:([+-]\d+)|:(\d+))?((?:\s+VL\d{3})+)`)

// wantCLIRE reads `# want-cli VL006`: a finding about the command line
// (--vllm-version), with no file position.
var wantCLIRE = regexp.MustCompile(`#\s*want-cli((?:\s+VL\d{3})+)`)

// specRE reads `# lint-spec: PATH` (relative to the fixture file).
var specRE = regexp.MustCompile(`#\s*lint-spec:\s*(\S+)`)

// versionRE reads `# lint-version: 0.10.1` to lint a fixture for a release.
var versionRE = regexp.MustCompile(`#\s*lint-version:\s*(\S+)`)

type want struct {
	file string
	line int
	code string
}

// fixture is one test case: a file, or a directory whose files are the
// nodes of one deployment.
type fixture struct {
	name    string
	inputs  []Input
	version string
	spec    *spec.Deployment
	// capacity is the capacity function cmd/vlaunch would pass.
	capacity CapacityFunc
}

func loadFixture(t *testing.T, path string) fixture {
	t.Helper()
	fx := fixture{name: path, capacity: testCapacity}
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		ents, _ := os.ReadDir(path)
		files = nil
		for _, e := range ents {
			files = append(files, filepath.Join(path, e.Name()))
		}
		sort.Strings(files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fx.inputs = append(fx.inputs, Input{Name: f, Data: data})
		if m := versionRE.FindSubmatch(data); m != nil {
			fx.version = string(m[1])
		}
		if m := specRE.FindSubmatch(data); m != nil {
			var r *resolve.Deployment
			fx.spec, r = loadSpec(t, filepath.Join(filepath.Dir(f), string(m[1])))
			fx.capacity = specCapacity(r)
		}
	}
	return fx
}

func (fx fixture) wants() []want {
	var out []want
	for _, in := range fx.inputs {
		for i, l := range strings.Split(string(in.Data), "\n") {
			if m := wantCLIRE.FindStringSubmatch(l); m != nil {
				for _, c := range strings.Fields(m[1]) {
					out = append(out, want{"", 0, c})
				}
				continue
			}
			m := wantRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			line := i + 1
			if m[1] != "" {
				d, _ := strconv.Atoi(m[1])
				line += d
			}
			if m[2] != "" {
				line, _ = strconv.Atoi(m[2])
			}
			for _, c := range strings.Fields(m[3]) {
				out = append(out, want{in.Name, line, c})
			}
		}
	}
	return out
}

// checkFixture lints a fixture and reports every mismatch with its wants.
func checkFixture(t *testing.T, fx fixture, focus string) {
	t.Helper()
	for _, msg := range fixtureProblems(t, fx, focus) {
		t.Error(msg)
	}
}

// fixtureProblems lints a fixture and compares findings with its wants.
// Info findings only count for codes the fixture mentions or focuses on.
func fixtureProblems(t *testing.T, fx fixture, focus string) []string {
	t.Helper()
	ds, err := Lint(fx.inputs, Options{Version: fx.version, Spec: fx.spec, Capacity: fx.capacity})
	if err != nil {
		t.Fatalf("%s: %v", fx.name, err)
	}
	wants := fx.wants()
	mentioned := map[string]bool{focus: true}
	for _, w := range wants {
		mentioned[w.code] = true
	}
	return diffFindings(ds, wants, mentioned)
}

// diffFindings lists findings no want matches and wants no finding matches.
// Info findings only count for codes in mentioned.
func diffFindings(ds diag.Diagnostics, wants []want, mentioned map[string]bool) []string {
	var problems []string
	matched := make([]bool, len(wants))
	for _, d := range ds {
		if d.Severity == diag.Info && !mentioned[string(d.Code)] {
			continue
		}
		if !matchWant(wants, matched, d) {
			problems = append(problems, "unexpected: "+d.String())
		}
	}
	for i, w := range wants {
		if !matched[i] {
			problems = append(problems, fmt.Sprintf("missing: %s:%d: %s", w.file, w.line, w.code))
		}
	}
	return problems
}

// matchWant marks the first unmatched want for d's file, line and code.
func matchWant(wants []want, matched []bool, d diag.Diagnostic) bool {
	for i, w := range wants {
		if !matched[i] && w.file == d.File && w.line == d.Line && w.code == string(d.Code) {
			matched[i] = true
			return true
		}
	}
	return false
}

// TestHarnessCanFail: a wrong expectation and an unexpected finding are both caught.
func TestHarnessCanFail(t *testing.T) {
	fx := fixture{name: "self", inputs: []Input{{Name: "x.sh", Data: []byte(
		"vllm serve m --enable-expert-parallel true -dp 8 # want VL114\n")}}}
	got := fixtureProblems(t, fx, "")
	if len(got) != 2 || !strings.HasPrefix(got[0], "unexpected:") || !strings.HasPrefix(got[1], "missing:") {
		t.Errorf("want one unexpected VL105 and one missing VL114, got %q", got)
	}
}

// fixtures lists the entries of a directory as fixture paths.
func fixtures(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// TestRuleFixtures runs every fixture under testdata/rules/<CODE>/.
func TestRuleFixtures(t *testing.T) {
	for _, dir := range fixtures(t, "testdata/rules") {
		code := filepath.Base(dir)
		for _, path := range fixtures(t, dir) {
			t.Run(fmt.Sprintf("%s/%s", code, filepath.Base(path)), func(t *testing.T) {
				checkFixture(t, loadFixture(t, path), code)
			})
		}
	}
}
