package report

import (
	"fmt"
	"io"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// searchRows is how many candidates the text and markdown tables show (the
// JSON has them all): enough to see what the chosen layout beat.
const searchRows = 12

// writeSearchText prints the "Layout search" table for `parallelism: auto`.
func writeSearchText(w io.Writer, s *estimate.LayoutSearch) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "Layout search (parallelism: auto): %d layouts, best first%s\n", len(s.Candidates), boundedNote(s))
	fmt.Fprintf(w, "  %-3s %3s %3s %5s %-3s %8s  %-24s %9s %9s  %-4s %11s %11s  %s\n",
		"", "TP", "PP", "DP", "EP", "replicas", "all2all", "weights", "KV", "fits", "decode t/s", "served t/s", "SLOs passed")
	for i, c := range s.Candidates {
		if i == searchRows {
			fmt.Fprintf(w, "  … %d more (see -o json)\n", len(s.Candidates)-searchRows)
			break
		}
		mark := ""
		if i == 0 {
			mark = "→"
		}
		fmt.Fprintf(w, "  %-3s %3d %3d %5d %-3s %8d  %-24s %6.2f GiB %5.2f GiB  %-4s %11s %11s  %s\n",
			mark, c.TP, c.PP, c.DP, textfmt.OnOff(c.EP), c.ReplicaCount(), orDash(c.All2All), c.WeightsGiB, c.KVCacheGiB, yesNo(c.Fits), tokText(c), servedText(c), passedText(c))
	}
	fmt.Fprintf(w, "  %s\n", searchLegend(s))
	fmt.Fprintf(w, "chosen: %s — the report below is for this layout; to pin it, write %s\n\n", s.Chosen.Name(), s.Chosen.PinYAML())
}

// writeSearchMarkdown is writeSearchText as a markdown table.
func writeSearchMarkdown(w io.Writer, s *estimate.LayoutSearch) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "## Layout search\n\n`parallelism: auto`: %d layouts evaluated, best first%s.\n\n", len(s.Candidates), boundedNote(s))
	fmt.Fprintf(w, "| TP | PP | DP | EP | replicas | all2all | weights GiB/GPU | KV GiB/GPU | fits | decode tokens/s | served tokens/s | SLOs passed |\n")
	fmt.Fprintf(w, "|---:|---:|---:|---|---:|---|---:|---:|---|---:|---:|---:|\n")
	for i, c := range s.Candidates {
		if i == searchRows {
			break
		}
		fmt.Fprintf(w, "| %d | %d | %d | %s | %d | %s | %.2f | %.2f | %s | %s | %s | %s |\n",
			c.TP, c.PP, c.DP, textfmt.OnOff(c.EP), c.ReplicaCount(), orDash(c.All2All), c.WeightsGiB, c.KVCacheGiB, yesNo(c.Fits), tokText(c), servedText(c), passedText(c))
	}
	fmt.Fprintf(w, "\n%s.\n\nChosen: **%s**; the report below is for this layout. To pin it: `%s`\n\n", searchLegend(s), s.Chosen.Name(), s.Chosen.PinYAML())
}

// boundedNote explains the ≤ marks when some layouts were not simulated,
// and says so when the search's budget left some that might have won.
func boundedNote(s *estimate.LayoutSearch) string {
	n, open := 0, 0
	for _, c := range s.Candidates {
		if c.Bounded {
			n++
		}
		if c.Unsettled {
			open++
		}
	}
	switch {
	case n == 0:
		return ""
	case open > 0:
		return fmt.Sprintf(" (%d not simulated, marked ≤ with their optimistic bound; the search's work budget ran out with %d of them still able to beat the chosen one)", n, open)
	}
	return fmt.Sprintf(" (%d not simulated: their optimistic bound, marked ≤, already ranks below the chosen one)", n)
}

// tokText is a candidate's decode tokens/s ("-" for a layout not
// simulated under an open loop, whose concurrency only the simulation
// gives; a closed loop's figure does not depend on the simulation).
func tokText(c estimate.LayoutCandidate) string {
	if c.Bounded && c.DecodeTokPerS == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", c.DecodeTokPerS)
}

// servedText is a candidate's simulated output tokens/s at the workload,
// prefixed "~" when it is the search's shorter ranking run rather than
// check's own; "-" for a layout not simulated.
func servedText(c estimate.LayoutCandidate) string {
	switch {
	case c.Bounded || c.ServedTokPerS == 0:
		return "-"
	case !c.Confirmed:
		return fmt.Sprintf("~%.0f", c.ServedTokPerS)
	}
	return fmt.Sprintf("%.0f", c.ServedTokPerS)
}

// passedText is a candidate's SLOs passed: "n/m" from check's own run
// (Confirmed: the chosen layout's, the report's count), "~n/m" from the
// search's shorter ranking run, "≤n/m" for a bound.
//
// The fails follow ("2/3, 1 fail"): the search ranks fewest fails first
// (slo.Score, as plan ranks), so a 1/3 row with no fail (two uncertain)
// sits above a 2/3 row with one; the passes alone made that order look
// wrong (pdfix41). A bound's fails are those it is sure of (≥).
func passedText(c estimate.LayoutCandidate) string {
	fails := ""
	if c.SLOFailed > 0 {
		fails = fmt.Sprintf(", %d fail", c.SLOFailed)
		if c.Bounded {
			fails = fmt.Sprintf(", ≥%d fail", c.SLOFailed)
		}
	}
	switch {
	case c.Bounded:
		return fmt.Sprintf("≤%d/%d%s", c.SLOPassed, c.SLOTotal, fails)
	case !c.Confirmed:
		return fmt.Sprintf("~%d/%d%s", c.SLOPassed, c.SLOTotal, fails)
	}
	return fmt.Sprintf("%d/%d%s", c.SLOPassed, c.SLOTotal, fails)
}

// searchLegend says what the marks of the SLOs-passed column mean, for
// those the table has.
func searchLegend(s *estimate.LayoutSearch) string {
	ranked := false
	for _, c := range s.Candidates {
		ranked = ranked || (!c.Bounded && !c.Confirmed)
	}
	legend := "served t/s: the serving simulation's output tokens/s at the workload, which orders layouts whose SLO verdicts tie; SLOs passed: n/m by check's own run (the report's, for the chosen layout)"
	if ranked {
		legend += ", ~n/m (and ~ served t/s) by the search's shorter ranking run"
	}
	return legend + ", ≤n/m an optimistic bound; k fail: the SLOs failing (≥k: those a bound is sure of), ranked fewest first"
}
