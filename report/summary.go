package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// SummaryMarkdown is the short verdict the generator puts in a bundle's
// README: memory per GPU, KV capacity against the workload, one line per SLO
// and the findings VerdictFindings picks. `vlaunch check` has the derivations.
func SummaryMarkdown(r *estimate.Report) string {
	var b strings.Builder
	verdict := "**feasible**: " + FeasibleWords(r)
	if !r.Feasible {
		verdict = "**not feasible** as specified"
		if why := InfeasibleWhy(r); why != "" {
			verdict += " (" + why + ")"
		}
	}
	fmt.Fprintf(&b, "vlaunch check: %s.\n\n", verdict)
	m := &r.Memory
	// A P/D report's Memory is the decode pool's (estimate.CheckPD): say so,
	// and give the prefill pool's beside it. The line read "Memory per GPU:
	// 30.8 GiB of weights, 31.9 GiB of KV cache" for a deployment whose
	// prefill GPUs hold 34.95 GiB of KV.
	pool := ""
	if r.Disaggregated != nil {
		pool = ", decode pool"
	}
	fmt.Fprintf(&b, "- Memory per GPU%s: %.1f GiB of weights (%s, %.2fB parameters), %.1f GiB of KV cache = %s tokens per DP rank; ",
		pool, m.PerGPU.WeightsGiB, m.WeightsDType, m.ParamsPerGPU/1e9, m.PerGPU.KVCacheGiB, textfmt.Thousands(m.KVTokensPerRank))
	c := m.Capacity
	fmt.Fprintf(&b, "%s of %d tokens (%s) put %d on the fullest rank, room for %d.\n",
		capacityLoad(c), c.SessionTokens, c.SessionBasis, c.SeqsPerRank, c.MaxSeqsPerRank)
	if d := r.Disaggregated; d != nil {
		p := d.Prefill
		fmt.Fprintf(&b, "- Memory per GPU, prefill pool: %.1f GiB of weights, %.1f GiB of KV cache = %s tokens per DP rank.\n",
			p.WeightsGiB, p.KVCacheGiB, textfmt.Thousands(p.KVTokensPerRank))
	}
	for _, s := range r.SLO {
		target, pred := SLOFigures(s)
		if s.NotPredicted != "" {
			fmt.Fprintf(&b, "- %s %s: target %s, %s.\n", strings.ToUpper(s.Verdict), s.Name, target, pred)
			continue
		}
		fmt.Fprintf(&b, "- %s %s: target %s, predicted %s (bound by %s).\n", strings.ToUpper(s.Verdict), s.Name, target, pred, s.Binding)
	}
	if p := r.Performance; p != nil && p.Calibration != "" {
		fmt.Fprintf(&b, "- Predicted with %s.\n", p.Calibration)
	}
	for _, f := range VerdictFindings(r) {
		fmt.Fprintf(&b, "- %s [%s]\n", f.Message, f.Code)
	}
	b.WriteString("\nRun `vlaunch check SPEC` for the derivation of every figure and what would pass.\n")
	return b.String()
}

// FeasibleWords says what a feasible report's verdicts are: all SLOs
// passing, or none failing with some uncertain (the target inside a
// prediction's band), of a workload that fits in the KV cache at once or
// one whose excess sessions vLLM queues (EST103, a warning: the SLO
// verdicts simulated the queueing).
func FeasibleWords(r *estimate.Report) string {
	n := len(r.UncertainSLOs())
	fits := "the workload fits"
	if c := r.Memory.Capacity; !c.Fits && c.OneSequenceFits {
		fits = fmt.Sprintf("the workload runs, %d sessions at once per rank at full length, the rest queued (EST103),", c.MaxSeqsPerRank)
	}
	if n == 0 {
		return fits + " and every SLO passes"
	}
	return fmt.Sprintf("%s and no SLO fails; %d uncertain (the target lies inside the prediction's band)", fits, n)
}

// VerdictFindings are the findings a short verdict (the bundle's summary,
// generate's output) repeats: those at error level, and EST103, the
// warning that the sessions do not all fit in the KV cache at once (vLLM
// queues the excess), which explains a throughput bound by kv_capacity and
// was an error until vLLM's scheduler was read to queue rather than refuse.
func VerdictFindings(r *estimate.Report) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, f := range r.Findings {
		if f.Severity == diag.Error || f.Code == codes.EstShareNoFit {
			ds = append(ds, f)
		}
	}
	return ds
}

// InfeasibleWhy names what makes a report infeasible, the two things
// estimate.Check and estimate.AddPerformance (and estimate.CheckPD) AND
// into Feasible: the SLOs whose verdict is fail and the findings at error
// level, by code ("SLO throughput (output tokens/s) fails; error EST102").
// It is "" for a feasible report. The closing line read "feasible: no"
// alone for a P/D deployment whose memory fits (qa38), the reader left to
// find which of the verdicts above failed.
func InfeasibleWhy(r *estimate.Report) string {
	if r.Feasible {
		return ""
	}
	var fails []string
	for _, v := range r.SLO {
		if v.Verdict == slo.VerdictFail {
			fails = append(fails, v.Name)
		}
	}
	var codes []string
	for _, f := range r.Findings {
		if c := string(f.Code); f.Severity == diag.Error && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	var parts []string
	switch len(fails) {
	case 0:
	case 1:
		parts = append(parts, "SLO "+fails[0]+" fails")
	default:
		parts = append(parts, "SLOs "+strings.Join(fails, ", ")+" fail")
	}
	switch len(codes) {
	case 0:
	case 1:
		parts = append(parts, "error "+codes[0])
	default:
		parts = append(parts, "errors "+strings.Join(codes, ", "))
	}
	return strings.Join(parts, "; ")
}

// feasibleWord is the overall verdict's first word (estimate.Report.Overall).
func feasibleWord(r *estimate.Report) string { return r.Overall() }

// feasibleWhy is what follows the overall verdict's word: what fails
// (InfeasibleWhy) or which SLOs are uncertain and why.
func feasibleWhy(r *estimate.Report) string {
	if why := InfeasibleWhy(r); why != "" {
		return why
	}
	var banded, short, other []string
	for _, v := range r.SLO {
		switch {
		case v.Verdict != slo.VerdictUncertain:
		case v.CutShort:
			short = append(short, v.Name)
		case v.Band != nil:
			banded = append(banded, v.Name)
		default:
			other = append(other, v.Name)
		}
	}
	if len(banded)+len(short)+len(other) == 0 {
		return ""
	}
	parts := []string{uncertainText(banded, "the target lies inside the prediction's band", "each target lies inside its prediction's band")}
	parts = append(parts, uncertainText(short, "its simulation was cut short at its work ceiling, too few requests measured",
		"their simulations were cut short at the work ceiling, too few requests measured"))
	parts = append(parts, uncertainText(other, "see the verdict", "see each verdict"))
	return "no SLO fails; " + strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "; ")
}

// uncertainText names the uncertain SLOs of one reason ("" for none):
// a verdict of a run cut short has no band (slo.Verdict.CutShort), so the
// band's reason is not given for it (qa43 F2: "each target lies inside its
// prediction's band" closed a report none of whose verdicts had a band).
func uncertainText(names []string, one, many string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "SLO " + names[0] + " is uncertain (" + one + ")"
	}
	return "SLOs " + strings.Join(names, ", ") + " are uncertain (" + many + ")"
}

// feasibleText is the overall verdict every check renderer prints after
// "feasible:": yes; uncertain with the uncertain SLOs; or no with what
// fails (InfeasibleWhy).
func feasibleText(r *estimate.Report) string {
	if why := feasibleWhy(r); why != "" {
		return feasibleWord(r) + " — " + why
	}
	return feasibleWord(r)
}
