package replay

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// loneRandomRows are the rows of one session (a closed loop of one), of
// any engine that tokenizes on its API server, whose prompts are a random dataset's text of at least minIn tokens:
// a request that reaches an idle front end, so its tokenization adds to its
// TTFT once and waits behind nothing.
func loneRandomRows(t *testing.T, minIn int) []published.Row {
	t.Helper()
	var out []published.Row
	for _, r := range targetableRows(t) {
		in, _ := lengths(r.Workload)
		if r.Workload.Dataset == "random" && r.Load.Kind == published.LoadClosedLoop &&
			r.Load.Concurrency.Int() == 1 && in >= minIn {
			out = append(out, r)
		}
	}
	return out
}

// TestRandomTextPromptCostOnTokenizerThread replays lone long-prompt
// random-dataset rows with perf.UseRandomTextPromptCost off and on: the
// premium must reach each row's TTFT as the extra tokenizer time of one
// prompt, (RandomTextPromptTokenS − FrontendPromptTokenS) × prompt tokens
// over the API servers, and nothing else.
func TestRandomTextPromptCostOnTokenizerThread(t *testing.T) {
	rows := loneRandomRows(t, 4000)
	if len(rows) == 0 {
		t.Fatal("no closed-loop-of-one random-dataset row with a prompt of 4,000 tokens or more")
	}
	defer func(o bool) { perf.UseRandomTextPromptCost = o }(perf.UseRandomTextPromptCost)
	eff := perf.DefaultEfficiency
	checked := 0
	for _, r := range rows {
		perf.UseRandomTextPromptCost = false
		off, _, e, err := runRow(r, eff, Options{Seed: 1})
		if err != nil || off.Steady || !e.apiServer {
			continue
		}
		perf.UseRandomTextPromptCost = true
		on, _, _, err := runRow(r, eff, Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		in, _ := lengths(r.Workload)
		want := (perf.PromptTokenS(eff, true) - perf.PromptTokenS(eff, false)) * float64(in) / float64(max(1, e.apiServers))
		got := on.TTFT.Mean - off.TTFT.Mean
		// The row's prompts are drawn around the mean length (and a lone
		// request may cross a step boundary): a quarter of the premium and
		// 0.2 ms, well under the premium of a prompt this long.
		if want <= 0 || math.Abs(got-want) > 0.25*want+0.2e-3 {
			t.Errorf("%s (%d prompt tokens): TTFT mean %.2f -> %.2f ms, +%.3f ms; want +%.3f ms (tokenizer premium)",
				r.ID, in, 1e3*off.TTFT.Mean, 1e3*on.TTFT.Mean, 1e3*got, 1e3*want)
		}
		t.Logf("%s: +%.3f ms (premium %.3f ms)", r.ID, 1e3*got, 1e3*want)
		checked++
	}
	if checked == 0 {
		t.Fatalf("none of %d rows ran a served simulation", len(rows))
	}
	t.Logf("%d rows: the premium is %.2f µs a prompt token on random text", checked, 1e6*(perf.PromptTokenS(eff, true)-perf.PromptTokenS(eff, false)))
}

// TestNaturalTextPromptCostUnchanged: rows whose prompts are not a random
// dataset's text keep the natural-text price (the premium is per text, not
// global: one global per-token cost hurt the MoE TTFT calibration,
// docs/calibration-analysis.md).
func TestNaturalTextPromptCostUnchanged(t *testing.T) {
	defer func(o bool) { perf.UseRandomTextPromptCost = o }(perf.UseRandomTextPromptCost)
	n := 0
	for _, r := range targetableRows(t) {
		if r.Workload.Dataset != "sharegpt" || r.Load.Kind != published.LoadClosedLoop {
			continue
		}
		perf.UseRandomTextPromptCost = false
		off, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			continue
		}
		perf.UseRandomTextPromptCost = true
		on, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if on.TTFT.Mean != off.TTFT.Mean || on.OutputTokPerS != off.OutputTokPerS {
			t.Errorf("%s (sharegpt): TTFT %.4f -> %.4f s, %.1f -> %.1f tok/s with the random-text premium on",
				r.ID, off.TTFT.Mean, on.TTFT.Mean, off.OutputTokPerS, on.OutputTokPerS)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no sharegpt closed-loop row replayed")
	}
}
