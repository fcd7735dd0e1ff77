package search

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
)

// A layout whose KV cache does not hold every session at once fits (EST103
// is a warning: vLLM queues the rest) and ranks by its verdicts like any
// other, as plan ranks it; its throughput is the steady decode of the
// sessions it holds at once (slo.HeldDecodeTokPerS), not of every session,
// which it never runs. Llama-3.1-8B on one H100 at 512 sessions of 8,192
// tokens holds about a hundred.
func TestQueueingLayoutRanksByTheSessionsItHolds(t *testing.T) {
	in, ds := input.Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100-sxm", TP: 1, GPUsPerNode: 1, Concurrency: 512, MaxModelLen: 8192})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	m := memory.Estimate(&in)
	if m.Capacity.Fits {
		t.Fatalf("512 sessions fit at once (%d per rank): the test needs a layout that queues", m.Capacity.MaxSeqsPerRank)
	}
	steady := slo.Optimistic(&in, &m).DecodeTokPerS
	held := slo.HeldDecodeTokPerS(&in, &m, steady)
	if !(held > 0 && held < steady) {
		t.Errorf("held decode %.0f tokens/s, every session's %.0f: want it below", held, steady)
	}
	e := bound(in)
	if !e.Queues || e.score.PerGPU != held {
		t.Errorf("queues %v, ranked at %.0f tokens/s per GPU; want the held decode %.0f", e.Queues, e.score.PerGPU, held)
	}
	// With every session held, the figure is the steady decode itself.
	in.Workload.Concurrency = 8
	m = memory.Estimate(&in)
	steady = slo.Optimistic(&in, &m).DecodeTokPerS
	if got := slo.HeldDecodeTokPerS(&in, &m, steady); got != steady {
		t.Errorf("8 sessions: %.0f, want the steady decode %.0f", got, steady)
	}
}
