package estimate

import (
	"fmt"
	"strings"
)

// SummaryMarkdown is the short verdict the generator puts in a bundle's
// README: memory per GPU, KV capacity against the workload, one line per SLO
// and the findings at error level. `vlaunch check` has the derivations.
func (r *Report) SummaryMarkdown() string {
	var b strings.Builder
	verdict := "**feasible**: the workload fits and every SLO passes"
	if !r.Feasible {
		verdict = "**not feasible** as specified"
	}
	fmt.Fprintf(&b, "vlaunch check: %s.\n\n", verdict)
	m := &r.Memory
	fmt.Fprintf(&b, "- Memory per GPU: %.1f GiB of weights (%s, %.2fB parameters), %.1f GiB of KV cache = %s tokens per DP rank; ",
		m.PerGPU.WeightsGiB, m.WeightsDType, m.ParamsPerGPU/1e9, m.PerGPU.KVCacheGiB, thousands(m.KVTokensPerRank))
	c := m.Capacity
	fmt.Fprintf(&b, "%d sessions at max_model_len %d put %d on the fullest rank, room for %d.\n",
		c.Concurrency, c.MaxModelLen, c.SeqsPerRank, c.MaxSeqsPerRank)
	for _, s := range r.SLO {
		fmt.Fprintf(&b, "- %s %s: target %s, predicted %s (bound by %s).\n",
			strings.ToUpper(s.Verdict), s.Name, fmtSLOValue(s.Target, s.Unit), fmtSLOValue(s.Predicted, s.Unit), s.Binding)
	}
	for _, f := range r.Findings {
		if f.Severity.String() == "error" {
			fmt.Fprintf(&b, "- %s [%s]\n", f.Message, f.Code)
		}
	}
	b.WriteString("\nRun `vlaunch check SPEC` for the derivation of every figure and what would pass.\n")
	return b.String()
}

func fmtSLOValue(v float64, unit string) string {
	num := fmt.Sprintf("%.3g", v)
	if v >= 1000 {
		num = thousands(int64(v + 0.5))
	}
	if unit == "" {
		return num
	}
	return num + " " + unit
}
