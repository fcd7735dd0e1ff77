package search

import (
	"github.com/vlaunch/vlaunch/estimate/layouts"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestDCPFitKeepsSplittableTP: with decode_context_parallel_size set, the
// layouts `parallelism: auto` searches over two 8-GPU nodes keep only
// tensor sizes vLLM splits into DCP groups (vllm.DCPFits, SPEC135):
// the search's tensor sizes stay within a node (1 to 8), so DeepSeek-V3
// (MLA) at dcp 8 keeps TP 8 alone; Qwen3-235B-A22B (4 KV heads) at dcp 2
// keeps TP 8 alone (TP > 4 KV heads, 8 / 4 = 2); Llama-3.1-70B (8 KV heads)
// at dcp 2 keeps none (TP 8 does not exceed its KV heads); dcp 1 keeps all.
func TestDCPFitKeepsSplittableTP(t *testing.T) {
	for _, tt := range []struct {
		model string
		dcp   int
		want  map[int]bool
	}{
		{"deepseek-v3", 8, map[int]bool{8: true}},
		{"qwen3-235b-a22b", 2, map[int]bool{8: true}},
		{"llama-3.1-70b", 2, map[int]bool{}},
	} {
		m, err := catalog.LookupModel(tt.model)
		if err != nil {
			t.Fatal(err)
		}
		all := layouts.All(2, 8, m)
		n := len(all)
		kept := layouts.DCPFit(append(all[:0:0], all...), m, tt.dcp)
		seen := map[int]bool{}
		for _, l := range kept {
			if !tt.want[l.TP] {
				t.Errorf("%s dcp %d: kept TP %d", tt.model, tt.dcp, l.TP)
			}
			seen[l.TP] = true
		}
		for tp := range tt.want {
			if !seen[tp] {
				t.Errorf("%s dcp %d: TP %d left out", tt.model, tt.dcp, tp)
			}
		}
		if got := len(layouts.DCPFit(layouts.All(2, 8, m), m, 1)); got != n {
			t.Errorf("%s dcp 1: %d of %d layouts kept", tt.model, got, n)
		}
	}
}
