package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/plan"
)

// TestPlanShortListSaysWhy: a list shorter than --top asked, with more
// candidates simulated than listed (qa39's Gemma-4 spec: 7 simulated, one
// group, one listed of 5), says that the list shows each group once; a
// full list, or one as long as what was simulated, says nothing.
func TestPlanShortListSaysWhy(t *testing.T) {
	one := plan.Candidate{Rank: 1, Fits: true, GPUs: 1, Settings: plan.Settings{TP: 1, PP: 1, DP: 1, Weights: "auto", KVCacheDType: "fp8", All2All: "auto"}}
	r := &plan.Result{Top: []plan.Candidate{one}, Requested: 5, Stats: plan.Stats{Simulated: 7, Groups: 1}}
	var text bytes.Buffer
	WritePlanText(&text, r)
	want := "1 listed of the 5 asked for: the 7 simulated candidates are 1 group"
	if !strings.Contains(strings.Join(strings.Fields(text.String()), " "), want) {
		t.Errorf("no %q in\n%s", want, text.String())
	}
	r.Stats.Simulated = 1
	if l := shortListNote(r); l != "" {
		t.Errorf("one simulated, one listed: %q", l)
	}
}

// TestFewestLinesAllNodes: when every node is needed, the fewest-gpus
// section says so rather than that --apply keeps "only" all of them.
func TestFewestLinesAllNodes(t *testing.T) {
	r := &plan.Result{Fewest: &plan.FewestGPUs{Nodes: 2, GPUs: 16, OfNodes: 2, OfGPUs: 16, Tried: []plan.NodeSubset{
		{Nodes: []string{"node0"}, GPUs: 8, Listed: 2},
		{Nodes: []string{"node0", "node1"}, GPUs: 16, Listed: 2, Passing: 2}}}}
	l := fewestLines(r)
	if len(l) != 3 || l[2] != "→ it takes all 2 nodes (16 GPUs): the list is the candidates on them that meet every SLO, fewest GPUs first" {
		t.Errorf("%q", l)
	}
}
