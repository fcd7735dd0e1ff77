package spec

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	n, ds := ParseNode("t.yaml", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return n
}

func TestNodeAtFollowsAliasesAndMerges(t *testing.T) {
	root := parse(t, "base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 3}\nref: *b\nlist: [*b]\n")
	cases := []struct {
		path      []string
		key       bool
		line, col int
		reached   bool
	}{
		{[]string{"use", "x"}, false, 1, 14, true}, // merged: points where the value is written
		{[]string{"use", "y"}, false, 2, 18, true}, // explicit key wins over the merge
		{[]string{"use", "y"}, true, 2, 15, true},
		{[]string{"ref", "y"}, false, 1, 20, true},
		{[]string{"list", "0", "x"}, false, 1, 14, true},
		{[]string{"use", "z"}, false, 2, 6, false}, // nearest ancestor
	}
	for _, c := range cases {
		n, ok := NodeAt(root, c.path, c.key)
		if ok != c.reached || n.Line != c.line || n.Column != c.col {
			t.Errorf("%v key=%v: got %d:%d reached=%v, want %d:%d reached=%v", c.path, c.key, n.Line, n.Column, ok, c.line, c.col, c.reached)
		}
	}
}

// TestNodeAtSelfMerge: a mapping that merges itself many times must not
// make the lookup exponential.
func TestNodeAtSelfMerge(t *testing.T) {
	root := parse(t, "a: &a {<<: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], k: 1}\n")
	if _, ok := NodeAt(root, []string{"a", "missing"}, false); ok {
		t.Fatal("found a key that does not exist")
	}
}
