package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestLayoutBlockSplit: routed experts split over TP × DP without expert
// parallelism and stay whole with it (vLLM's FusedMoEParallelConfig), and
// only the checkpoint's own weights carry blocks to refuse.
func TestLayoutBlockSplit(t *testing.T) {
	m, err := catalog.LookupModel("qwen3-235b-a22b-fp8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		l      Layout
		split  int
		ckpt   bool
		refuse bool
	}{
		{Layout{TP: 8, DP: 1}, 8, true, true},
		{Layout{TP: 8, DP: 1, EP: true}, 1, true, false},
		{Layout{TP: 4, DP: 2}, 8, true, true},
		{Layout{TP: 4, DP: 1, PP: 2}, 4, true, false},
		{Layout{TP: 1, DP: 8, EP: true}, 1, true, false},
		{Layout{TP: 8, DP: 1}, 8, false, false}, // a converted copy: no blocks
	} {
		if got := tt.l.ExpertSplit(); got != tt.split {
			t.Errorf("%+v: ExpertSplit %d, want %d", tt.l, got, tt.split)
		}
		if got := tt.l.BlockSplitProblem(m, tt.ckpt); (got != "") != tt.refuse {
			t.Errorf("%+v (checkpoint weights %t): BlockSplitProblem %q, want refused %t", tt.l, tt.ckpt, got, tt.refuse)
		}
	}
}
