package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestRulesWellFormed keeps the registry honest: unique VL codes that the
// catalog documents, and fixtures with a finding and a clean case for every
// code. Names, severities and pages are checked by the catalog's tests.
func TestRulesWellFormed(t *testing.T) {
	seen := map[diag.Code]bool{}
	for _, r := range Rules {
		_, ok := codes.Lookup(string(r.Code))
		if !ok || !strings.HasPrefix(string(r.Code), "VL") || seen[r.Code] {
			t.Errorf("%s: code must be unique, VL###, and in the diag/codes catalog", r.Code)
		}
		seen[r.Code] = true
		checkFixtureSet(t, string(r.Code))
	}
	for _, f := range codes.Families() {
		for _, e := range f.Entries() {
			if f.Prefix == "VL" && !seen[e.Code] {
				t.Errorf("%s is in the catalog but not in the registry", e.Code)
			}
		}
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
