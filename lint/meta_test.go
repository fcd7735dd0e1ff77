package lint

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from the registry")

var codeRE = regexp.MustCompile(`^VL\d{3}$`)

// TestRulesWellFormed keeps the registry honest: unique codes, a summary,
// a documented example, and fixtures with a finding and a clean case.
func TestRulesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if !codeRE.MatchString(r.Code) || seen[r.Code] {
			t.Errorf("%s: code must be unique and match VL###", r.Code)
		}
		seen[r.Code] = true
		if r.Summary == "" || strings.HasSuffix(r.Summary, ".") || r.Name == "" || r.Severity == 0 {
			t.Errorf("%s: needs a name, a severity and a summary without a trailing period", r.Code)
		}
		doc, err := docFS.ReadFile("docs/" + r.Code + ".md")
		if err != nil || !strings.Contains(string(doc), "### Example") {
			t.Errorf("%s: docs/%s.md must exist and contain an Example", r.Code, r.Code)
		}
		checkFixtureSet(t, r.Code)
	}
}

// checkFixtureSet requires a fixture expecting the code and a clean one.
func checkFixtureSet(t *testing.T, code string) {
	dir := filepath.Join("testdata/rules", code)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("%s: no fixtures in %s", code, dir)
		return
	}
	positive, clean := false, false
	for _, e := range ents {
		fx := loadFixture(t, filepath.Join(dir, e.Name()))
		wanted := false
		for _, w := range fx.wants() {
			wanted = wanted || w.code == code
		}
		positive = positive || wanted
		clean = clean || (!wanted && strings.HasPrefix(e.Name(), "clean"))
	}
	if !positive || !clean {
		t.Errorf("%s: fixtures need a `# want %s` case and a clean* counter-example", code, code)
	}
}

// TestDocsUpToDate fails when docs/rules.md differs from the registry;
// regenerate with `go test ./lint -run TestDocsUpToDate -update`.
func TestDocsUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	want := RulesMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("docs/rules.md is stale; run `go test ./lint -run TestDocsUpToDate -update`")
	}
}
