package spec

import (
	"strings"
	"testing"
)

// TestSyntaxPositions: every YAML error points at the line (and where it
// can be found, the column) of the problem, never a default line 1.
func TestSyntaxPositions(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"unknown alias", "apiVersion: v\nkind: *nope\n", 2, 7, "unknown anchor 'nope'"},
		{"control character", "apiVersion: v\nkind: De\x07ploy\n", 2, 9, "control characters"},
		{"tab indentation", "a:\n  b: 1\n\tc: 2\n", 3, 1, "tab character"},
		{"tab at the start", "apiVersion: v1\nmodel:\n\tname: x\n", 3, 1, "cannot start any token"},
		{"tab after a scalar", "a: x\nb: y\n\tc: z\n", 3, 1, "tab character"},
		{"parser error, second line", "x: 1\n- y\n", 2, 0, "did not find expected key"},
		{"parser error, third line", "a:\n  b: 1\n c: 2\n", 3, 0, "did not find expected key"},
		{"unclosed flow", "a: 1\nmodel: {name: x\n", 2, 8, "did not find expected ',' or '}'"},
		// qa44b F16: reported at line 4 (past the end) with no column.
		{"unclosed bracket at the end", "apiVersion: v\nkind: D\nmodel: [\n", 3, 8, "did not find expected node content"},
		{"unclosed bracket, lines after", "a: [1, 2\nb: 3\n", 1, 4, "did not find expected ',' or ']'"},
		{"brackets in quotes and plain scalars", "a: \"[x\"\nb: c[0]\nd: [\n", 3, 4, "did not find expected node content"},
		{"first line", "a: b: c\n", 1, 0, "mapping values are not allowed"},
		{"missing indicator", "- a\nb: 1\n", 2, 0, "did not find expected '-' indicator"},
		{"duplicate key", "a: 1\nkind: x\nkind: y\n", 3, 1, `key "kind" is written twice in this mapping (first at line 2)`},
		{"duplicate nested", "a:\n  b: 1\n  c: 2\n  b: 3\n", 4, 3, `key "b" is written twice`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := ParseNode("t.yaml", []byte(tt.src))
			if len(ds) != 1 {
				t.Fatalf("want one diagnostic, got %v", ds)
			}
			d := ds[0]
			if d.Line != tt.line || d.Col != tt.col || !strings.Contains(d.Message, tt.msg) {
				t.Errorf("got %d:%d %q, want %d:%d containing %q", d.Line, d.Col, d.Message, tt.line, tt.col, tt.msg)
			}
		})
	}
}

// TestMergeKeysAreNotDuplicates: an explicit key beside a merge overrides
// the merged one; that is not a duplicate.
func TestMergeKeysAreNotDuplicates(t *testing.T) {
	if _, ds := ParseNode("t.yaml", []byte("base: &b {x: 1}\nuse: {<<: *b, x: 2}\nmore: {<<: *b, <<: *b}\n")); len(ds) > 0 {
		t.Fatal(ds)
	}
}

// TestTooManyTokens: a file that is mostly values is refused before it is
// parsed (parsing two million list items costs seconds and hundreds of
// MiB), while a spec of the largest size the schema allows is not.
func TestTooManyTokens(t *testing.T) {
	huge := "a: [" + strings.Repeat("1,", maxTokens) + "1]\n"
	_, ds := ParseNode("t.yaml", []byte(huge))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "YAML values and keys, more than") {
		t.Fatalf("got %v", ds)
	}
	var b strings.Builder
	b.WriteString("# a comment, with: many - indicators, [ ] { }\nnodes:\n")
	for i := 0; i < 10000; i++ {
		b.WriteString("  - {name: node1, address: 10.0.0.1, gpus: 8, interface: eth0, rdma_devices: [mlx5_0, mlx5_1, mlx5_2, mlx5_3, mlx5_4, mlx5_5, mlx5_6, mlx5_7]}  # rack 1, slot: 2\n")
	}
	if n := countTokens([]byte(b.String())); n > maxTokens {
		t.Fatalf("the largest spec counts %d tokens, over %d", n, maxTokens)
	}
	if got := countTokens([]byte("a: [x, 'y z']  # c: d\n- - b\n")); got < 8 {
		t.Errorf("countTokens = %d, want at least the 8 nodes and keys", got)
	}
}
