package sim

import (
	"math"
	"testing"
)

// The wave's cycle on a dense 8B engine: one prefill step holding the
// whole wave, then out − 1 decode steps of all its prompts, so each
// prompt's TPOT is that decode step and the cycle is the ingest, the
// prefill and the decodes; with two prefill steps under decode-first the
// first step's prompts decode through the second (their TPOT carries it)
// and finish a step earlier, while under prefill-first every prompt waits
// for the wave's last prefill step and all finish together. Bad input
// prices nothing.
func TestWaveCycleOf(t *testing.T) {
	sm := denseModel(t, 1)
	const in, out, ctx, ingest = 1024, 64, 1024 + 32, 0.01
	full := sm.PrefillIdle(4096, 4096).TTFTS
	d4, _ := sm.DecodeAt(4, ctx)
	c := WaveCycleOf(sm, 4, in, out, 4096, DecodeFirst, ingest)
	cycle := ingest + full + float64(out-1)*d4.TPOTS
	if math.Abs(c.CycleS/cycle-1) > 1e-9 || math.Abs(c.OutputTokPerS/(4*out/cycle)-1) > 1e-9 {
		t.Errorf("one-step wave: cycle %.2f ms, %.0f tok/s; want %.2f ms, %.0f", c.CycleS*1e3, c.OutputTokPerS, cycle*1e3, 4*out/cycle)
	}
	if math.Abs(c.TPOT.Mean/d4.TPOTS-1) > 1e-9 || math.Abs(c.TPOT.P99/d4.TPOTS-1) > 1e-9 {
		t.Errorf("one-step wave: TPOT %.3f ms (P99 %.3f), want the 4-sequence decode step %.3f", c.TPOT.Mean*1e3, c.TPOT.P99*1e3, d4.TPOTS*1e3)
	}

	// Two steps of four prompts each.
	d8, _ := sm.DecodeAt(8, ctx)
	df := WaveCycleOf(sm, 8, in, out, 4096, DecodeFirst, 0)
	// The first four decode through the second prefill step and out − 2
	// decode steps of eight; the last four through out − 2 steps of eight
	// and one of four (the first four have finished).
	early := (full + float64(out-2)*d8.TPOTS) / float64(out-1)
	late := (float64(out-2)*d8.TPOTS + d4.TPOTS) / float64(out-1)
	if want := (early + late) / 2; math.Abs(df.TPOT.Mean/want-1) > 1e-9 || math.Abs(df.TPOT.P99/early-1) > 1e-9 {
		t.Errorf("decode-first two-step wave: TPOT mean %.3f ms, P99 %.3f; want %.3f, %.3f", df.TPOT.Mean*1e3, df.TPOT.P99*1e3, want*1e3, early*1e3)
	}
	if want := 2*full + float64(out-2)*d8.TPOTS + d4.TPOTS; math.Abs(df.CycleS/want-1) > 1e-9 {
		t.Errorf("decode-first two-step wave: cycle %.2f ms, want %.2f", df.CycleS*1e3, want*1e3)
	}
	pf := WaveCycleOf(sm, 8, in, out, 4096, PrefillFirst, 0)
	if want := 2*full + float64(out-1)*d8.TPOTS; math.Abs(pf.CycleS/want-1) > 1e-9 {
		t.Errorf("prefill-first two-step wave: cycle %.2f ms, want %.2f (all finish together)", pf.CycleS*1e3, want*1e3)
	}
	if !(pf.TPOT.P99 > pf.TPOT.P50) || math.Abs(pf.TPOT.P50/d8.TPOTS-1) > 1e-9 {
		t.Errorf("prefill-first two-step wave: TPOT P50 %.3f, P99 %.3f ms; want the 8-sequence step %.3f below the stalled prompts'", pf.TPOT.P50*1e3, pf.TPOT.P99*1e3, d8.TPOTS*1e3)
	}

	// A valid output length of 16 Mi tokens prices at once (the decode
	// runs are summed between finishes, not step by step).
	long := WaveCycleOf(sm, 8, in, 1<<24, 4096, DecodeFirst, 0)
	dl, _ := sm.DecodeAt(8, float64(in)+float64(1<<23))
	dl4, _ := sm.DecodeAt(4, float64(in)+float64(1<<23))
	if want := 2*full + float64(1<<24-2)*dl.TPOTS + dl4.TPOTS; math.Abs(long.CycleS/want-1) > 1e-9 {
		t.Errorf("16 Mi output tokens: cycle %.0f s, want %.0f", long.CycleS, want)
	}

	if huge := WaveCycleOf(sm, 4, in, out, math.MaxInt, DecodeFirst, ingest); math.Abs(huge.CycleS/c.CycleS-1) > 0.05 {
		t.Errorf("a budget of MaxInt: cycle %.2f ms, want about the one-step wave's %.2f", huge.CycleS*1e3, c.CycleS*1e3)
	}

	for _, bad := range [][4]int{{0, in, out, 4096}, {4, 0, out, 4096}, {4, in, 1, 4096}, {4, in, out, 0}, {-1, -1, -1, -1}, {64, 4096, 8, 4096}, {1 << 30, 1 << 30, 1 << 30, 1}} {
		if c := WaveCycleOf(sm, bad[0], bad[1], bad[2], bad[3], DecodeFirst, ingest); c != (WaveCycle{}) {
			t.Errorf("%v: priced a cycle from bad input or no clean wave: %+v", bad, c)
		}
	}
}
