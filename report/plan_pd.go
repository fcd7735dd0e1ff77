package report

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/plan"
)

// pdFiguresLine is a P/D candidate's own figures in one line ("" for a
// colocated one): each pool's GPUs, backend and load, what binds, and the
// mean TTFT by part — the prefill queue, the prefill, the KV transfer, the
// decode pool's admission queue, its first step and the rest, each queue
// named a queue (qa44b F15: a 897 s admission wait read "D first step").
func pdFiguresLine(c plan.Candidate) string {
	f := c.PD
	if f == nil || !c.Fits {
		return ""
	}
	pool := func(gpus int, a2a string, util float64) string {
		s := fmt.Sprintf("%d GPUs", gpus)
		if a2a != "" && a2a != "none" {
			s += " " + a2a // the pool's all-to-all backend; "none" (no DP MoE exchange) read as a load
		}
		return s + fmt.Sprintf(", %.0f%% busy", 100*util)
	}
	src := "simulated"
	if !c.Simulated {
		src = "floors of the bound"
	}
	return fmt.Sprintf("P/D: prefill %s · decode %s · bound by the %s · TTFT mean (%s) = P queue %s + prefill step(s) %s + KV transfer %s + D admission queue %s + D first step %s + router and API servers %s%s",
		pool(f.PrefillGPUs, f.PrefillAll2All, f.PrefillUtilization), pool(f.DecodeGPUs, f.DecodeAll2All, f.DecodeUtilization), f.Binding, src,
		textfmt.Seconds(f.PrefillQueueS), textfmt.Seconds(f.PrefillS), textfmt.Seconds(f.TransferS), textfmt.Seconds(f.DecodeAdmitS), textfmt.Seconds(f.FirstDecodeS), textfmt.Seconds(f.OtherS), leaseWords(f))
}

// ttftPartsCell is the table cell of a candidate's TTFT parts.
func ttftPartsCell(c plan.Candidate) string {
	f := c.PD
	if f == nil || !c.Fits {
		return "–"
	}
	return fmt.Sprintf("%s + %s + %s + %s + %s", textfmt.Seconds(f.PrefillQueueS), textfmt.Seconds(f.PrefillS), textfmt.Seconds(f.TransferS), textfmt.Seconds(f.DecodeAdmitS), textfmt.Seconds(f.FirstDecodeS))
}

func leaseWords(f *plan.PDFigures) string {
	s := ""
	if f.TransferMB > 0 {
		s = fmt.Sprintf(" · %.1f MB of KV per request", f.TransferMB)
	}
	if !f.LeaseFits {
		s += " · KV lease risk: the prefill pool's KV cannot hold the prompts waiting to be pulled"
	}
	return s
}

// pdSummaryLines say what plan did about P/D: not tried and why, or how
// many P/D candidates were bounded and simulated, and why P/D does not
// pay when the best P/D candidate ranks below the best colocated one.
func pdSummaryLines(r *plan.Result) []string {
	s := r.PD
	if !s.Tried {
		if s.NotTried == "" {
			return nil
		}
		return []string{s.NotTried}
	}
	out := []string{fmt.Sprintf("P/D: %d candidates (prefill × decode pools that fit in memory) bounded by rate matching, %d simulated", s.Candidates, s.Simulated)}
	if s.NotTried != "" {
		out[0] = s.NotTried
	}
	if s.RefusedPools > 0 {
		out = append(out, fmt.Sprintf("P/D: %d pool choices skipped, never paired: validate refuses them (%s)", s.RefusedPools, reasonWords(s.RefusedBecause)))
	}
	if s.RefusedPairs > 0 {
		out = append(out, fmt.Sprintf("P/D: %d candidates skipped, never ranked: validate or generate refuses the pair (%s)", s.RefusedPairs, reasonWords(s.RefusedPairsBecause)))
	}
	if n := r.Stats.PDUnsettled; n > 0 {
		out = append(out, fmt.Sprintf("P/D: %d more groups whose bound could still rank first were left unsimulated (plan simulates at most %d P/D candidates, the most promising first)", n, plan.PDSimBudget))
	}
	if s.NoPay != "" {
		out = append(out, s.NoPay)
	}
	return out
}

// reasonWords lists refusal reasons with their counts ("why (3); why
// (1)"): the first maxReasons, then how many more (every one is in the
// JSON output).
func reasonWords(rs []plan.Reason) string {
	var out []string
	more, n := 0, 0
	for i, r := range rs {
		if i >= maxReasons {
			more, n = more+1, n+r.Count
			continue
		}
		out = append(out, fmt.Sprintf("%s (%d)", r.Why, r.Count))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more reasons (%d)", more, n))
	}
	return strings.Join(out, "; ")
}

// maxReasons is how many refusal reasons a P/D line spells out.
const maxReasons = 2
