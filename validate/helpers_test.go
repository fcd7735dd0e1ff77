package validate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

func readBase(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit applies old->new replacements to the base spec; each old must occur.
func edit(t testing.TB, base string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(base, pairs[i]) {
			t.Fatalf("base spec has no %q", pairs[i])
		}
		base = strings.Replace(base, pairs[i], pairs[i+1], 1)
	}
	return base
}

// want is one expected diagnostic: code, severity and "line:col" ("" = any).
type want struct {
	code diag.Code
	sev  diag.Severity
	pos  string
}

func render(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %d:%d %s %s %s: %s (hint: %s)\n", d.Line, d.Col, d.Severity, d.Code, d.Path, d.Message, d.Hint)
	}
	return b.String()
}

// expect checks that ds holds exactly the wanted diagnostics (warnings and
// errors alike), in any order.
func expect(t *testing.T, ds diag.Diagnostics, wants ...want) {
	t.Helper()
	left := append(diag.Diagnostics(nil), ds...)
	for _, w := range wants {
		found := -1
		for i, d := range left {
			pos := fmt.Sprintf("%d:%d", d.Line, d.Col)
			if d.Code == w.code && d.Severity == w.sev && (w.pos == "" || w.pos == pos) {
				found = i
				break
			}
		}
		if found < 0 {
			t.Errorf("missing %s %s at %q; got:\n%s", w.sev, w.code, w.pos, render(ds))
			continue
		}
		left = append(left[:found], left[found+1:]...)
	}
	if len(left) > 0 {
		t.Errorf("unexpected diagnostics:\n%s", render(left))
	}
}

func errAt(code diag.Code, pos string) want  { return want{code, diag.Error, pos} }
func warnAt(code diag.Code, pos string) want { return want{code, diag.Warning, pos} }

func mustBytes(t *testing.T, name, src string) diag.Diagnostics {
	t.Helper()
	_, ds, err := Bytes(name, []byte(src))
	if err != nil {
		t.Fatalf("unexpected unusable-input error: %v\n%s", err, render(ds))
	}
	return ds
}
