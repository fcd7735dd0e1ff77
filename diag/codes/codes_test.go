package codes

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/golden"
)

var codeRE = regexp.MustCompile(`^(SPEC|EST|GEN|VL|PF|LOG)\d{3}$`)

// TestEntriesWellFormed: every code has its family's prefix, ascends within
// its family, is unique, has a unique name, a valid severity, a summary
// without a trailing period and a documentation page; every page belongs
// to an entry.
func TestEntriesWellFormed(t *testing.T) {
	names := map[string]diag.Code{}
	seen := map[diag.Code]bool{}
	for _, f := range Families() {
		prev := ""
		for _, e := range f.Entries() {
			c := string(e.Code)
			if !codeRE.MatchString(c) || !strings.HasPrefix(c, f.Prefix) || c <= prev || seen[e.Code] {
				t.Errorf("%s: must match %s###, be unique and follow %s", c, f.Prefix, prev)
			}
			prev, seen[e.Code] = c, true
			if other, dup := names[strings.ToUpper(e.Name)]; dup || e.Name == "" || codeRE.MatchString(strings.ToUpper(e.Name)) {
				t.Errorf("%s: name %q empty, a code, or also used by %s", c, e.Name, other)
			}
			names[strings.ToUpper(e.Name)] = e.Code
			if e.Severity.String() == "invalid" || e.Summary == "" || strings.HasSuffix(e.Summary, ".") {
				t.Errorf("%s: needs a severity and a summary without a trailing period", c)
			}
			if body := e.Body(); body == "(no documentation)\n" || len(body) < 80 {
				t.Errorf("%s: docs/%s.md is missing or too short to say what, why and how to fix", c, c)
			}
		}
	}
	pages, _ := fs.Glob(docFS, "docs/*.md")
	for _, p := range pages {
		if !seen[diag.Code(strings.TrimSuffix(filepath.Base(p), ".md"))] {
			t.Errorf("%s documents a code the catalog does not have", p)
		}
	}
}

func TestLookupByCodeOrName(t *testing.T) {
	for _, key := range []string{"VL101", "vl101", "unknown-flag", " gpu.count ", "SPEC002", "PF101"} {
		if _, ok := Lookup(key); !ok {
			t.Errorf("Lookup(%q) found nothing", key)
		}
	}
	if e, _ := Lookup("gpu.count"); e.Code != PFGPUCount {
		t.Errorf("gpu.count is %s, want %s", e.Code, PFGPUCount)
	}
	if _, ok := Lookup("VL999"); ok {
		t.Error("Lookup found a code the catalog does not have")
	}
	if e, _ := Lookup("GEN001"); e.Retired() == "" || !strings.Contains(e.Page(), "**Retired:**") {
		t.Error("a retired code keeps its page and says it is retired")
	}
	if Severity(SpecFP8) != diag.Warning || Severity("NOPE") != diag.Error {
		t.Error("Severity must return the catalog's default, Error for an unknown code")
	}
}

func TestRuleInfosPerFamily(t *testing.T) {
	rs := RuleInfos("VL")
	if len(rs) != len(lintEntries) || rs[0].Code != string(VLSyntax) || !strings.HasSuffix(rs[0].HelpURI, "#vl001") {
		t.Errorf("RuleInfos(VL) = %d rules starting %+v", len(rs), rs[0])
	}
}

// TestDocsPageCurrent fails when docs/codes.md differs from the catalog;
// regenerate with `go test ./diag/codes -update`.
func TestDocsPageCurrent(t *testing.T) {
	golden.Check(t, filepath.Join("..", "..", "docs", "codes.md"), []byte(Markdown()))
}

// TestEveryCodeUsed scans the module's non-test Go source: a code written
// as a string literal outside this package is an error (use the constant,
// so the catalog knows it), and so is a catalog entry no package reports.
func TestEveryCodeUsed(t *testing.T) {
	u := scanModule(t, filepath.Join("..", ".."))
	for _, lit := range u.literals {
		t.Errorf("%s: code literal; use the diag/codes constant", lit)
	}
	for name, code := range catalogConstants(t) {
		e, _ := Lookup(code)
		switch used := u.used(name); {
		case !used && e.Retired() == "":
			t.Errorf("%s (%s) is in the catalog but no package reports it; use it, or retire it (codes are never reused)", code, name)
		case used && e.Retired() != "":
			t.Errorf("%s (%s) is retired but still reported; report the code that replaced it", code, name)
		}
	}
}

// catalogConstants maps each constant declared in this package to its code.
func catalogConstants(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, e := range All() {
		out[string(e.Code)] = ""
	}
	consts := map[string]string{}
	for _, f := range parseDir(t, ".") {
		for name, lit := range constStrings(f) {
			if _, ok := out[lit]; ok {
				consts[name] = lit
			}
		}
	}
	if len(consts) != len(out) {
		t.Fatalf("%d entries but %d code constants", len(out), len(consts))
	}
	return consts
}

func TestCodeRENotStale(t *testing.T) {
	// A new family must be added to the scan's pattern too.
	for _, f := range Families() {
		if !codeRE.MatchString(f.Prefix + "000") {
			t.Errorf("family %s is not covered by codeRE", f.Prefix)
		}
	}
}

// TestDocsNameOnlyCatalogCodes: a page that sends the reader to another
// code (LOG181's fix names lint's VL101, VL102 and VL005) names one the
// catalog has, so `vlaunch explain` finds it. Examples are left out: VL002's
// shows a suppression naming a code that does not exist.
func TestDocsNameOnlyCatalogCodes(t *testing.T) {
	named := regexp.MustCompile(`\b(?:SPEC|EST|GEN|VL|PF|LOG)\d{3}\b`)
	for _, e := range All() {
		prose, _, _ := strings.Cut(e.Body(), "### Example")
		for _, c := range named.FindAllString(prose, -1) {
			if _, ok := Lookup(c); !ok {
				t.Errorf("%s's page names %s, which the catalog lacks", e.Code, c)
			}
		}
	}
}
