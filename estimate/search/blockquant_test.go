package search

import (
	"github.com/vlaunch/vlaunch/estimate/layouts"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestServableKeepsWholeBlocks: the layouts `parallelism: auto` searches
// (Servable over Layouts) never split a block-FP8 checkpoint's weights into
// partial blocks (catalog.Model.BlockSplitProblem), still offer the ones
// vLLM starts, and keep every layout for a converted copy (no blocks).
func TestServableKeepsWholeBlocks(t *testing.T) {
	type key struct {
		tp, dp int
		ep     bool
	}
	for _, tt := range []struct {
		model          string
		nodes, perNode int
		want, refused  []key
	}{
		// 1536 expert columns: 192 per rank over 8 without EP (issue #17569).
		{"qwen3-235b-a22b-fp8", 1, 8,
			[]key{{8, 1, true}, {4, 2, true}, {1, 8, true}},
			[]key{{8, 1, false}, {4, 2, false}, {2, 4, false}, {1, 8, false}}},
		// 2048 expert columns: 64 per rank over 32 without EP.
		{"deepseek-v3", 4, 8,
			[]key{{8, 4, true}, {8, 1, false}},
			[]key{{8, 4, false}}},
	} {
		m, err := catalog.LookupModel(tt.model)
		if err != nil {
			t.Fatal(err)
		}
		all := len(layouts.All(tt.nodes, tt.perNode, m))
		if n := len(layouts.Servable(layouts.All(tt.nodes, tt.perNode, m), m, false)); n != all {
			t.Errorf("%s: a converted copy keeps %d of %d layouts, want all", tt.model, n, all)
		}
		seen := map[key]bool{}
		for _, l := range layouts.Servable(layouts.All(tt.nodes, tt.perNode, m), m, true) {
			if p := m.BlockSplitProblem(l.TP, l.ExpertSplit()); p != "" {
				t.Errorf("%s: layout %+v offered, but vLLM refuses it: %s", tt.model, l, p)
			}
			seen[key{l.TP, l.DP, l.EP}] = true
		}
		for _, k := range tt.want {
			if !seen[k] {
				t.Errorf("%s on %d×%d: TP %d DP %d EP %t missing", tt.model, tt.nodes, tt.perNode, k.tp, k.dp, k.ep)
			}
		}
		for _, k := range tt.refused {
			if seen[k] {
				t.Errorf("%s on %d×%d: TP %d DP %d EP %t offered", tt.model, tt.nodes, tt.perNode, k.tp, k.dp, k.ep)
			}
		}
	}
}

// TestCandidatesKeepWholeBlocks: the search of `parallelism: auto`
// evaluates only layouts vLLM starts for the checkpoint's blocks
// (candidateLayouts through Servable): Qwen3-235B-A22B-FP8 on 2 × 8 H200
// (12 blocks of 128 per expert) loses every layout that splits its experts
// over 8 or 16 ranks without expert parallelism, keeps those that split
// them over at most 4 (replicas smaller than a node: two TP 4 replicas per
// node, issue #27), and keeps them all from a converted copy.
func TestCandidatesKeepWholeBlocks(t *testing.T) {
	m, err := catalog.LookupModel("qwen3-235b-a22b-fp8")
	if err != nil {
		t.Fatal(err)
	}
	in := autoDeepSeek(t)
	in.Model, in.WeightsFromCheckpoint = m, true
	got := candidateLayouts(&in)
	if len(got) == 0 {
		t.Fatal("no candidates")
	}
	twoTP4 := false
	for _, l := range got {
		if p := l.BlockSplitProblem(m, true); p != "" || (!l.EP && l.ExpertSplit() > 4) {
			t.Errorf("%+v: splits the experts over %d ranks without expert parallelism: vLLM refuses it (%s)", l, l.ExpertSplit(), p)
		}
		twoTP4 = twoTP4 || (l.TP == 4 && l.DP == 1 && !l.EP && l.Replicas == 4)
	}
	if !twoTP4 {
		t.Errorf("two TP 4 replicas per node missing from %+v", got)
	}
	in.WeightsFromCheckpoint = false
	if n := len(candidateLayouts(&in)); n <= len(got) {
		t.Errorf("a converted copy keeps %d layouts, the FP8 checkpoint %d: the copy has no blocks to refuse", n, len(got))
	}
}
