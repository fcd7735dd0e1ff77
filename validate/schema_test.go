package validate

import (
	"fmt"
	"strings"
	"testing"
)

// The findings of each rule and schema check, with their positions, are
// pinned by the fixtures in testdata/specs (fixtures_test.go); these tests
// cover what a fixture cannot say: hints, unusable input.

func TestBaseIsClean(t *testing.T) {
	if ds := mustBytes(t, "base.yaml", readBase(t)); len(ds) > 0 {
		t.Errorf("the base spec must be clean:\n%s", render(ds))
	}
}

// TestTypeHints: the hint fits the field, not only the JSON types.
func TestTypeHints(t *testing.T) {
	base := readBase(t)
	cases := []struct{ old, new, hint string }{
		{"parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 16\n  expert: true", "parallelism: 8", "parallelism: auto"},
		{`version: "0.11.0"`, "version: 0.11", "quote the value"},
		{"concurrency: 64", "concurrency: 64 sessions", "plain number"},
		{"gpu: h20-96g", "gpu: 5", "catalog id"},
	}
	for _, c := range cases {
		ds := mustBytes(t, "s.yaml", edit(t, base, c.old, c.new))
		if len(ds) == 0 || !strings.Contains(ds[0].Hint, c.hint) {
			t.Errorf("%s: want hint containing %q, got:\n%s", c.new, c.hint, render(ds))
		}
	}
}

func TestUnknownKeySuggestion(t *testing.T) {
	ds := mustBytes(t, "s.yaml", edit(t, readBase(t), "  tensor: 1", "  tensr: 1"))
	if len(ds) != 1 || ds[0].Code != CodeUnknownKey || ds[0].Hint != `did you mean "tensor"?` || ds[0].Path != "parallelism.tensr" {
		t.Errorf("hint %q path %q", ds[0].Hint, ds[0].Path)
	}
}

func TestAliasBombIsUnusable(t *testing.T) {
	src := "apiVersion: vlaunch/v1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		src += fmt.Sprintf("%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	_, ds, err := Bytes("bomb.yaml", []byte(src))
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeSyntax {
		t.Fatalf("want one unusable SPEC001, got err=%v\n%s", err, render(ds))
	}
}

func TestTooBigIsUnusable(t *testing.T) {
	big := []byte("a: \"" + strings.Repeat("x", 5<<20) + "\"\n")
	_, ds, err := Bytes("big.yaml", big)
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeUnreadable {
		t.Fatalf("want unusable SPEC000, got err=%v\n%s", err, render(ds))
	}
}

func TestDeepNestingIsUnusable(t *testing.T) {
	deep := "a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n"
	_, ds, err := Bytes("deep.yaml", []byte(deep))
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeSyntax {
		t.Fatalf("want unusable SPEC001, got err=%v\n%s", err, render(ds))
	}
}
