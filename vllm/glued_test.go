package vllm

import "testing"

// TestGluedFlag: a known flag glued to the end of a positional word, or of
// another known flag, is found; an unknown option that merely contains
// "--flag" is argparse's one unknown option, not two words.
func TestGluedFlag(t *testing.T) {
	r, _, err := ResolveString("0.22.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		word string
		flag string
		at   int
	}{
		{"/models/dsv3--host", "host", 12},
		{"${MODEL}--tensor-parallel-size", "tensor-parallel-size", 8},
		{"--enable-prefix-caching--host", "host", 23},
		{"-00--dtype", "", 0},          // one unknown option
		{"--not-a-flag--host", "", 0},  // one unknown option
		{"model--no-such-flag", "", 0}, // the tail is no flag
		{"--host", "", 0},              // nothing before it
		{"a=b--host", "host", 3},       // a positional word
		{"-1--host", "", 0},            // starts with "-", no number: one unknown option
	} {
		f, at, ok := r.GluedFlag(c.word)
		switch {
		case c.flag == "" && ok:
			t.Errorf("%q: glued %s at %d, want nothing glued", c.word, f.Name, at)
		case c.flag != "" && (!ok || f.Name != c.flag || at != c.at):
			t.Errorf("%q: got (%v, %d, %v), want --%s at %d", c.word, f, at, ok, c.flag, c.at)
		}
	}
}
