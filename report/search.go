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
	fmt.Fprintf(w, "Layout search (parallelism: auto): %d layouts, best first\n", len(s.Candidates))
	fmt.Fprintf(w, "  %-3s %3s %3s %3s %-3s  %-24s %9s %9s  %-4s %11s  %s\n",
		"", "TP", "PP", "DP", "EP", "all2all", "weights", "KV", "fits", "decode t/s", "SLOs passed")
	for i, c := range s.Candidates {
		if i == searchRows {
			fmt.Fprintf(w, "  … %d more (see -o json)\n", len(s.Candidates)-searchRows)
			break
		}
		mark := ""
		if i == 0 {
			mark = "→"
		}
		fmt.Fprintf(w, "  %-3s %3d %3d %3d %-3s  %-24s %6.2f GiB %5.2f GiB  %-4s %11.0f  %d/%d\n",
			mark, c.TP, c.PP, c.DP, textfmt.OnOff(c.EP), orDash(c.All2All), c.WeightsGiB, c.KVCacheGiB, yesNo(c.Fits), c.DecodeTokPerS, c.SLOPassed, c.SLOTotal)
	}
	fmt.Fprintf(w, "chosen: %s — the report below is for this layout; to pin it, write %s\n\n", s.Chosen.Name(), s.Chosen.PinYAML())
}

// writeSearchMarkdown is writeSearchText as a markdown table.
func writeSearchMarkdown(w io.Writer, s *estimate.LayoutSearch) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "## Layout search\n\n`parallelism: auto`: %d layouts evaluated, best first.\n\n", len(s.Candidates))
	fmt.Fprintf(w, "| TP | PP | DP | EP | all2all | weights GiB/GPU | KV GiB/GPU | fits | decode tokens/s | SLOs passed |\n")
	fmt.Fprintf(w, "|---:|---:|---:|---|---|---:|---:|---|---:|---:|\n")
	for i, c := range s.Candidates {
		if i == searchRows {
			break
		}
		fmt.Fprintf(w, "| %d | %d | %d | %s | %s | %.2f | %.2f | %s | %.0f | %d/%d |\n",
			c.TP, c.PP, c.DP, textfmt.OnOff(c.EP), orDash(c.All2All), c.WeightsGiB, c.KVCacheGiB, yesNo(c.Fits), c.DecodeTokPerS, c.SLOPassed, c.SLOTotal)
	}
	fmt.Fprintf(w, "\nChosen: **%s**; the report below is for this layout. To pin it: `%s`\n\n", s.Chosen.Name(), s.Chosen.PinYAML())
}
