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
		{`version: "0.11.0"`, "version: 0.11", "quote the version"},
		{"apiVersion: vlaunch/v1", "apiVersion: 1", "write one of: vlaunch/v1"},
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

// TestLimitMessages: a value past a bound says the value, the bound and,
// as the hint, why the bound is what it is (the schema's "Limit:" text).
func TestLimitMessages(t *testing.T) {
	base := readBase(t)
	cases := []struct{ old, new, msg, hint string }{
		{"concurrency: 64", "concurrency: 2000000", "`workload.concurrency` is 2,000,000, above the limit of 1,000,000", "vlaunch's limit: 1,000,000, a thousand per GPU"},
		{"  input_tokens: 1024", "  input_tokens: 20000000", "above the limit of 16,777,216", "above the longest context"},
		{`extra_args: ["--enable-chunked-prefill"]`, `extra_args: ["` + strings.Repeat("x", 5000) + `"]`, "has 5,000 characters, more than the limit of 4,096", ""},
		{"gpu: h20-96g", "gpu: " + strings.Repeat("g", 300), "has 300 characters, more than the limit of 256", "256 characters"},
		{"bandwidth_gbit_per_s: 100", "bandwidth_gbit_per_s: 0.001", "is 0.001, below the minimum of 0.1", "Fast Ethernet"},
	}
	for _, c := range cases {
		ds := mustBytes(t, "s.yaml", edit(t, base, c.old, c.new))
		if len(ds) == 0 || !strings.Contains(ds[0].Message, c.msg) || !strings.Contains(ds[0].Hint, c.hint) {
			t.Errorf("%.40s: want %q (hint %q), got:\n%s", c.new, c.msg, c.hint, render(ds))
		}
	}
}
