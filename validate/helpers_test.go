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

func render(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %d:%d %s %s %s: %s (hint: %s)\n", d.Line, d.Col, d.Severity, d.Code, d.Path, d.Message, d.Hint)
	}
	return b.String()
}

func mustBytes(t *testing.T, name, src string) diag.Diagnostics {
	t.Helper()
	_, ds, err := Bytes(name, []byte(src))
	if err != nil {
		t.Fatalf("unexpected unusable-input error: %v\n%s", err, render(ds))
	}
	return ds
}
