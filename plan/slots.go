package plan

import (
	"fmt"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
)

// sloKind is what an SLO measures.
type sloKind int

const (
	kindThroughput sloKind = iota
	kindTPOT
	kindTTFT
)

// sloSlot is one SLO of the spec, in the order `vlaunch check` judges them
// (throughput, TPOT, then every TTFT target's p50, p95, p99): the same
// for every candidate, so the step-model bounds line up with check's
// verdicts (a test holds the two orders together).
type sloSlot struct {
	kind        sloKind
	name, unit  string
	target      float64
	total       bool // throughput counts prompt tokens too
	inputTokens int
	quantile    string // a TTFT target's percentile ("p50", "p95", "p99")
}

func slotsOf(d *resolve.Deployment) []sloSlot {
	s := d.SLO
	var out []sloSlot
	if s.ThroughputTokensPerS > 0 {
		out = append(out, sloSlot{kind: kindThroughput, name: "throughput (" + s.ThroughputCounts + " tokens/s)", unit: "tokens/s",
			target: s.ThroughputTokensPerS, total: s.ThroughputCounts == "total"})
	}
	if s.TPOTMs > 0 {
		out = append(out, sloSlot{kind: kindTPOT, name: "TPOT (mean)", unit: "s", target: s.TPOTMs / 1e3})
	}
	for _, t := range s.TTFT {
		for _, q := range []struct {
			name string
			v    *float64
		}{{"p50", t.P50S}, {"p95", t.P95S}, {"p99", t.P99S}} {
			if q.v != nil {
				out = append(out, sloSlot{kind: kindTTFT, name: fmt.Sprintf("TTFT %s at %d input tokens", q.name, t.InputTokens),
					unit: "s", target: *q.v, inputTokens: t.InputTokens, quantile: q.name})
			}
		}
	}
	return out
}

// quantity formats an SLO figure in its unit, as the check report does.
func quantity(x float64, unit string) string { return textfmt.Quantity(x, unit) }
