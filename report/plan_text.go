package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/plan"
)

// WritePlanJSON writes the plan as indented JSON.
func WritePlanJSON(w io.Writer, r *plan.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WritePlanText writes the plan for people: what was searched, the best
// candidates with their verdicts, the spec's own settings, the SLOs no
// candidate meets, the Pareto front, the sensitivity of the best one and
// what was not varied.
func WritePlanText(w io.Writer, r *plan.Result) {
	st := r.Stats
	fmt.Fprintf(w, "vlaunch plan: %s\n", planSubject(r.Subject))
	fmt.Fprintf(w, "%s; %d fit in memory and `vlaunch generate` writes them (%d refused); all bounded by the step model, %d simulated\n",
		candidateCounts(st), st.FitMemory, st.Refused, st.Simulated)
	if st.Unsettled > 0 {
		fmt.Fprintf(w, "%s\n", wrap(fmt.Sprintf("the simulation budget ran out with %d groups of candidates unsimulated whose step-model bound could still reach the top list: "+
			"the list is the best of those simulated", st.Unsettled), 96, "  "))
	}
	if r.Calibration != "" {
		fmt.Fprintf(w, "%s\n", wrap("predicted with "+r.Calibration, 96, "  "))
	}
	for _, why := range st.Reasons {
		fmt.Fprintf(w, "%s\n", wrap(fmt.Sprintf("refused (%d): %s", why.Count, why.Why), 96, "  "))
	}
	for _, l := range pdSummaryLines(r) {
		fmt.Fprintf(w, "%s\n", wrap(l, 96, "  "))
	}
	if l := fewestLines(r); len(l) > 0 {
		fmt.Fprintf(w, "\n%s\n", fewestHeading)
		for _, x := range l {
			fmt.Fprintf(w, "%s\n", wrap(x, 96, "  "))
		}
	}
	fmt.Fprintf(w, "\n%s\n", listHeading(r))
	if len(r.Top) == 0 {
		fmt.Fprintf(w, "  none fits in memory\n")
	}
	if l := shortListNote(r); l != "" {
		fmt.Fprintf(w, "%s\n", wrap(l, 96, "  "))
	}
	for _, c := range r.Top {
		writeCandidateText(w, c)
	}
	writeOwnText(w, r)
	writeUnmetText(w, r.Unmet)
	writeParetoText(w, r.Pareto)
	writeSensitivityText(w, r)
	if left := append(append([]string(nil), r.Left...), r.PD.Notes...); len(left) > 0 {
		fmt.Fprintf(w, "\nNot varied\n")
		for _, l := range left {
			fmt.Fprintf(w, "%s\n", wrap(l, 96, "  "))
		}
	}
	if len(r.Top) > 0 {
		fmt.Fprintf(w, "\nTo use candidate N: vlaunch plan SPEC --apply N --out-file FILE, then vlaunch generate FILE --out-dir DIR\n")
	}
}

func planSubject(s plan.Subject) string {
	return fmt.Sprintf("%s on %d × %s (%d node%s), vLLM %s", s.Model, s.GPUs, s.GPU, s.Nodes, plural(s.Nodes), s.VLLM)
}

func writeCandidateText(w io.Writer, c plan.Candidate) {
	mark := ""
	if c.Own {
		mark = "  ← the spec's own settings"
	}
	fmt.Fprintf(w, "\n  #%d [%s] %s%s\n", c.Rank, c.Shape(), c.Settings, mark)
	fmt.Fprintf(w, "     %s\n", candidateFigures(c))
	if l := pdFiguresLine(c); l != "" {
		fmt.Fprintf(w, "%s\n", wrap(l, 96, "     "))
	}
	for _, v := range c.SLO {
		fmt.Fprintf(w, "     %-4s %s\n", strings.ToUpper(v.Verdict), planSLOHeadline(v))
	}
	for _, a := range c.Alike {
		fmt.Fprintf(w, "%s\n", wrap("same figures: "+a, 96, "     "))
	}
	if c.AlikeMore > 0 {
		fmt.Fprintf(w, "     and %d more settings with the same figures\n", c.AlikeMore)
	}
}

// candidateFigures is one line of a candidate's figures.
func candidateFigures(c plan.Candidate) string {
	if !c.Fits {
		return "does not fit in memory"
	}
	src := "ranking simulation"
	switch {
	case c.Confirmed:
		src = "simulated as check does"
	case !c.Simulated:
		src = "step-model bound"
	}
	a2a := ""
	if c.All2AllInEffect != "" {
		a2a = " · all2all " + c.All2AllInEffect
	}
	bound := "decode bound by " + c.Binding
	if c.PD != nil {
		a2a, bound = "", "bound by the "+c.Binding
	}
	if c.Simulated && c.OutputTokPerS <= 0 && c.TPOTS <= 0 && c.SteadyTPOTS > 0 {
		// a run its work ceiling ended before any request completed: its
		// zeros are no figures (qa43 F2: "0 output tokens/s · TPOT 0 s")
		return fmt.Sprintf("%d of %d SLOs · no request measured (its simulation ended at its work ceiling first); steady decode %.1f output tokens/s per GPU, TPOT %s (step model) · weights %.1f GiB, KV %.1f GiB per GPU%s%s · %s",
			passed(c), len(c.SLO), c.SteadyPerGPU, textfmt.Seconds(c.SteadyTPOTS), c.WeightsGiB, c.KVGiB, queuedText(c), a2a, bound)
	}
	return fmt.Sprintf("%d of %d SLOs · %s output tokens/s (%s per GPU) · TPOT %s (%s) · weights %.1f GiB, KV %.1f GiB per GPU%s%s · %s",
		passed(c), len(c.SLO), whole(c.OutputTokPerS), textfmt.Count(c.PerGPU), textfmt.Seconds(c.TPOTS), src, c.WeightsGiB, c.KVGiB, queuedText(c), a2a, bound)
}

// queuedText says that a candidate's KV cache holds only some of its
// sessions at once (EST103: the rest queue), "" when it holds them all.
func queuedText(c plan.Candidate) string {
	if c.SessionsPerRank == 0 {
		return ""
	}
	return fmt.Sprintf(" (holds %d of %d sessions per rank at once, the rest queue)", c.SessionsAtOnce, c.SessionsPerRank)
}

func passed(c plan.Candidate) int {
	n := 0
	for _, v := range c.SLO {
		if v.Verdict == "pass" {
			n++
		}
	}
	return n
}

// planSLOHeadline words a verdict as the check report does.
func planSLOHeadline(v plan.SLOResult) string {
	b := ""
	if v.Binding != "" {
		b = "  [" + v.Binding + "]"
	}
	target, pred := textfmt.Versus(v.Target, v.Predicted, v.Unit)
	if v.Band != nil {
		pred += " (" + bandText(Band{Low: v.Band.Low, High: v.Band.High}, v.Unit) + ")"
	}
	return fmt.Sprintf("%s: target %s, predicted %s%s", v.Name, target, pred, b)
}

func writeOwnText(w io.Writer, r *plan.Result) {
	o := r.Own
	if o == nil {
		return
	}
	fmt.Fprintf(w, "\nThe spec's own settings: %s\n", o.Settings)
	switch {
	case !o.Fits:
		fmt.Fprintf(w, "  do not fit in memory (see vlaunch check)\n")
	case o.Rank > 0:
		fmt.Fprintf(w, "  rank #%d: %s\n", o.Rank, candidateFigures(*o))
	default:
		fmt.Fprintf(w, "  not in the list: %s\n", candidateFigures(*o))
		if l := pdFiguresLine(*o); l != "" {
			fmt.Fprintf(w, "%s\n", wrap(l, 96, "     "))
		}
		for _, v := range o.SLO {
			fmt.Fprintf(w, "     %-4s %s\n", strings.ToUpper(v.Verdict), planSLOHeadline(v))
		}
	}
}

func writeUnmetText(w io.Writer, un []plan.Unmet) {
	if len(un) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSLOs no candidate passes on this hardware (failed, or uncertain within the model's accuracy band)\n")
	for _, u := range un {
		fmt.Fprintf(w, "%s\n", wrap(unmetText(u), 96, "  "))
	}
}

// unmetText is one SLO no candidate passes, in words (text and HTML).
func unmetText(u plan.Unmet) string {
	txt := fmt.Sprintf("%s — closest: %s; %s", u.SLO, u.Best, u.Change)
	if u.Unsearched {
		txt += " (not every candidate whose bound allows it was simulated: the plan's simulation budget ran out)"
	}
	return txt
}

func writeParetoText(w io.Writer, front []plan.ParetoPoint) {
	if len(front) == 0 {
		return
	}
	fmt.Fprintf(w, "\nPareto front: output tokens/s per GPU against TPOT (steady decode, step model; a candidate at a concurrency)\n")
	fmt.Fprintf(w, "  %9s %12s %9s  %s\n", "TPOT", "tok/s/GPU", "sessions", "candidate")
	for _, p := range front {
		rank := ""
		if p.Rank > 0 {
			rank = fmt.Sprintf("#%d ", p.Rank)
		}
		fmt.Fprintf(w, "  %9s %12.1f %9d  %s%s\n", textfmt.Seconds(p.TPOTS), p.PerGPU, p.Sessions, rank, p.Settings)
	}
}

func writeSensitivityText(w io.Writer, r *plan.Result) {
	if len(r.Sensitivity) == 0 || len(r.Top) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWhat flips a verdict of #1 (one parameter at a time, to a factor of two; 0.05 of utilization)\n")
	for _, g := range flipGroups(r.Sensitivity) {
		fmt.Fprintf(w, "  %s (now %s)\n", g.param, g.now)
		for _, f := range g.flips {
			fmt.Fprintf(w, "%s\n", wrap(f, 96, "    "))
		}
		if len(g.steady) > 0 {
			fmt.Fprintf(w, "%s\n", wrap(fmt.Sprintf("no flip %s: %s", g.rangeText, strings.Join(g.steady, "; ")), 96, "    "))
		}
	}
}

// flipGroup is one parameter's flips, and the SLOs none of its values
// flips (with their verdict).
type flipGroup struct {
	param, now, rangeText string
	flips, steady         []string
}

func flipGroups(fs []plan.Flip) []flipGroup {
	var out []flipGroup
	for _, f := range fs {
		if len(out) == 0 || out[len(out)-1].param != f.Parameter {
			out = append(out, flipGroup{param: f.Parameter, now: f.Now})
		}
		g := &out[len(out)-1]
		if f.Range != "" {
			g.rangeText = f.Range
			g.steady = append(g.steady, fmt.Sprintf("%s (%s)", f.SLO, f.Verdict))
			continue
		}
		g.flips = append(g.flips, f.Text)
	}
	return out
}

// shortListNote says why the list is shorter than --top asked when more
// candidates were simulated than it lists: the list shows each group (a
// layout with its weight and KV formats) once, by its best tuning
// (qa39: "8 fit … 7 simulated", one listed).
func shortListNote(r *plan.Result) string {
	st := r.Stats
	if len(r.Top) == 0 || len(r.Top) >= r.Requested || st.Simulated <= len(r.Top) {
		return ""
	}
	return fmt.Sprintf("%d listed of the %d asked for: the %d simulated candidates are %d group%s (a layout with its weight and KV formats), and the list shows each group once, by its best tuning",
		len(r.Top), r.Requested, st.Simulated, st.Groups, plural(st.Groups))
}

// candidateCounts says what plan resolved and how many distinct engines
// that made: the enumerated settings plus the spec's own (when it has a
// layout of its own), then those left once the settings that resolve to
// one engine count once and resolve's refusals are set aside.
func candidateCounts(st plan.Stats) string {
	if st.Candidates > st.Enumerated {
		return fmt.Sprintf("%d candidates (%d enumerated + the spec's own settings), %d distinct engines once resolved", st.Candidates, st.Enumerated, st.Distinct)
	}
	return fmt.Sprintf("%d candidates enumerated, %d distinct engines once resolved", st.Candidates, st.Distinct)
}
