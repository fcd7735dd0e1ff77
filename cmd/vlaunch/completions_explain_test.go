package main

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestExplainCompletionIsLookup: explain's completion offers exactly what
// explain accepts (codes.Lookup): every code and every name, and each
// candidate finds its entry.
func TestExplainCompletionIsLookup(t *testing.T) {
	c := newExplainCmd(&streams{})
	got, _ := completeCodes(c, nil, "")
	offered := map[string]bool{}
	for _, cand := range got {
		word, _, _ := strings.Cut(cand, "\t")
		offered[word] = true
		if _, ok := codes.Lookup(word); !ok {
			t.Errorf("completion offers %q, which explain refuses", word)
		}
	}
	for _, e := range codes.All() {
		if !offered[string(e.Code)] || !offered[e.Name] {
			t.Errorf("%s (%s) is accepted by explain but not offered", e.Code, e.Name)
		}
	}
}
