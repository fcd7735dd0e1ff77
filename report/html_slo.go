package report

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// sloKind is what an SLO verdict measures.
type sloKind int

const (
	sloOther sloKind = iota
	sloThroughput
	sloTPOT
	sloTTFT
)

// sloRef is a verdict with what it measures, for the charts.
type sloRef struct {
	v           slo.Verdict
	kind        sloKind
	quantile    float64 // TTFT: 0.50, 0.95, 0.99
	qName       string
	inputTokens int
}

// classifySLO reads what a verdict measures from its name, the one place
// that does. (The verdict carries no structured kind yet; when the
// estimator adds one this function reads it instead.)
func classifySLO(v slo.Verdict) sloRef {
	ref := sloRef{v: v}
	var q string
	var n int
	switch {
	case v.Unit == "tokens/s" && strings.HasPrefix(v.Name, "throughput"):
		ref.kind = sloThroughput
	case strings.HasPrefix(v.Name, "TPOT"):
		ref.kind = sloTPOT
	default:
		if _, err := fmt.Sscanf(v.Name, "TTFT %s at %d input tokens", &q, &n); err == nil && len(q) > 1 && q[0] == 'p' {
			var pct float64
			if _, err := fmt.Sscanf(q[1:], "%g", &pct); err == nil && pct > 0 && pct < 100 {
				ref.kind, ref.qName, ref.quantile, ref.inputTokens = sloTTFT, q, pct/100, n
			}
		}
	}
	return ref
}

// findSLO is the first verdict of the given kind.
func findSLO(slo []slo.Verdict, k sloKind) (sloRef, bool) {
	for _, v := range slo {
		if ref := classifySLO(v); ref.kind == k {
			return ref, true
		}
	}
	return sloRef{}, false
}

// countsTotal says whether a throughput target counts prompt tokens too.
func (s sloRef) countsTotal() bool { return strings.Contains(s.v.Name, "total") }

// outputTarget is a throughput target in output tokens/s, the unit of the
// decode curve: a target counting prompt + generated tokens is scaled by
// the workload's share of generated tokens.
func (s sloRef) outputTarget(r *estimate.Report) float64 {
	sim := workloadSim(r)
	if !s.countsTotal() || sim == nil {
		return s.v.Target
	}
	return s.v.Target * float64(sim.OutputTokens) / float64(max(1, sim.InputTokens+sim.OutputTokens))
}

func throughputTargetLabel(v slo.Verdict) string {
	if strings.Contains(v.Name, "total") {
		return fmt.Sprintf("%.0f total tokens/s (in output tokens)", v.Target)
	}
	return whole(v.Target) + " output tokens/s"
}
