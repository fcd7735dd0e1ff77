package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// TestTPSplitProblem: query heads must divide by TP; GQA KV heads are
// partitioned (TP divides them) or replicated (they divide TP); MLA only
// has the query-head rule.
func TestTPSplitProblem(t *testing.T) {
	gqa := func(heads, kv int) *Model { return &Model{NumHeads: heads, NumKVHeads: kv} }
	mla := &Model{NumHeads: 128, NumKVHeads: 128, KVLoraRank: 512}
	for _, tt := range []struct {
		name string
		m    *Model
		tp   int
		want string // substring, "" = accepted
	}{
		{"tp 1", gqa(7, 1), 1, ""},
		{"llama 70B tp 8", gqa(64, 8), 8, ""},
		{"llama 70B tp 16: 8 KV heads replicated twice", gqa(64, 8), 16, ""},
		{"query heads not divisible", gqa(64, 8), 6, "Total number of attention heads (64) must be divisible by tensor parallel size (6)"},
		{"KV partitioned unevenly", gqa(48, 12), 8, "12 KV heads are partitioned"},
		{"KV replicated unevenly", gqa(48, 6), 16, "6 KV heads are replicated"},
		{"heads divide, 4 KV heads do not divide tp 6", gqa(24, 4), 6, "4 KV heads are replicated"},
		{"qwen3-235b: 4 KV heads at tp 8", gqa(64, 4), 8, ""},
		{"glm-4.5 tp 32: 96 heads, 8 KV replicated 4×", gqa(96, 8), 32, ""},
		{"MLA has no KV split", mla, 8, ""},
		{"MLA query heads", mla, 6, "(128) must be divisible"},
		{"nil model", nil, 8, ""},
	} {
		got := tt.m.TPSplitProblem(tt.tp)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: TPSplitProblem(%d) = %q, want %q", tt.name, tt.tp, got, tt.want)
		}
	}
	if got := fmt.Sprint(gqa(48, 12).TPDivisors(16)); got != "[1 2 3 4 6 12]" {
		t.Errorf("TPDivisors(48 heads, 12 KV) = %s, want [1 2 3 4 6 12] (8 and 16 split the query heads but not the KV heads)", got)
	}
}
