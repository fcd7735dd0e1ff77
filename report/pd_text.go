package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// writePDText is the text report of a disaggregated deployment: the two
// pools, the hand-off, the composed scenarios, the colocated comparison,
// the SLO verdicts, the notes and the findings. Input and Memory of the
// report are the decode pool's; the colocated sections are not printed.
func writePDText(w io.Writer, r *estimate.Report) {
	g := r.Disaggregated
	fmt.Fprintf(w, "vlaunch check: %s\n", pdLine(r))
	fmt.Fprintf(w, "  %s\n", pdSettingsLine(r))
	for _, p := range []*pd.Pool{&g.Prefill, &g.Decode} {
		fmt.Fprintf(w, "\nDisaggregated: %s pool\n", p.Role)
		for _, l := range poolLines(p, g) {
			if strings.HasPrefix(l, "utilisation") { // the prefill pool's is long (prefillBusy)
				fmt.Fprintf(w, "%s\n", hanging(l, poolLabel, "  "))
				continue
			}
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintf(w, "\nDisaggregated: hand-off\n")
	for _, l := range handoffLines(g) {
		fmt.Fprintf(w, "%s\n", hanging(l, handoffLabel, "  "))
	}
	fmt.Fprintf(w, "\nPerformance (disaggregated, simulated)\n")
	if len(g.Scenarios) == 0 {
		fmt.Fprintf(w, "  none: a pool's KV cache holds no block (see the findings)\n")
	}
	steady := false
	for i := range g.Scenarios {
		s := &g.Scenarios[i]
		steady = steady || (s.Sessions > 0 && s.Burst == 0)
		for j, l := range scenarioLines(s, arrivalShape(r)) {
			if j == 0 {
				fmt.Fprintf(w, "  %s\n", l)
				continue
			}
			fmt.Fprintf(w, "%s\n", hanging(l, handoffLabel, "    "))
		}
	}
	if steady {
		fmt.Fprintf(w, "%s\n", wrap(steadyClosedLoopNote, 96, "  "))
	}
	if c := g.Colocated; c != nil {
		fmt.Fprintf(w, "\nSame GPUs colocated\n")
		for _, l := range colocatedLines(g) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	writeSLOText(w, r.SLO)
	fmt.Fprintf(w, "\nNotes (P/D)\n")
	for _, n := range g.Notes {
		fmt.Fprintf(w, "%s\n", wrap("- "+n, 96, "  "))
	}
	fmt.Fprintf(w, "\nNotes (decode pool memory)\n")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  %s:\n%s\n", n.Topic, wrap(n.Text, 96, "    "))
	}
	writeFindingsText(w, r)
}

// handoffLabel is the width of the hand-off lines' labels ("KV per token  ").
const handoffLabel = 14

// poolLabel is the width of a pool section's labels ("utilisation  "),
// under which the prefill pool's utilisation line wraps.
const poolLabel = 13

// hanging wraps a line whose first n runes are a label, indented by
// indent, continuation lines under the text rather than the label.
func hanging(line string, n int, indent string) string {
	r := []rune(line)
	if len(r) <= n {
		return indent + line
	}
	pad := indent + strings.Repeat(" ", n)
	return indent + string(r[:n]) + strings.TrimPrefix(wrap(string(r[n:]), 96-n, pad), pad)
}

// pdLine names the model, the hardware and both pools.
func pdLine(r *estimate.Report) string {
	in, g := r.Input, r.Disaggregated
	return fmt.Sprintf("%s on %d × %s, disaggregated: prefill %s · decode %s, vLLM %s",
		in.Model, in.GPUs, in.GPU, poolLayout(&g.Prefill), poolLayout(&g.Decode), in.VLLMVersion)
}

// pdSettingsLine is settingsLine for a P/D deployment: a setting both
// pools run with once, one the pools set apart with each pool's value.
// Input is the decode pool's (estimate.CheckPD), so settingsLine printed
// "max_num_seqs 256 · max_num_batched_tokens 256" as the deployment's
// when the prefill pool ran 1024 and 8192 (qa38, GLM-5 P/D).
func pdSettingsLine(r *estimate.Report) string {
	in, pre, dec := r.Input, &r.Disaggregated.Prefill, &r.Disaggregated.Decode
	pm, dm := &pre.Memory, &dec.Memory
	both := func(name, p, d string) string {
		if p == d {
			return name + " " + p
		}
		return fmt.Sprintf("%s %s (prefill) / %s (decode)", name, p, d)
	}
	f2 := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	line := strings.Join([]string{
		both("weights", pm.WeightsDType, dm.WeightsDType) + " (checkpoint " + in.CheckpointDType + ")",
		both("KV cache", pm.KV.DType, dm.KV.DType),
		both("gpu_memory_utilization", f2(pm.PerGPU.Utilization), f2(dm.PerGPU.Utilization)),
		both("max_model_len", strconv.Itoa(pm.Capacity.MaxModelLen), strconv.Itoa(dm.Capacity.MaxModelLen)),
		both("max_num_seqs", strconv.Itoa(pre.MaxNumSeqs), strconv.Itoa(dec.MaxNumSeqs)),
		both("max_num_batched_tokens", strconv.Itoa(pre.MaxNumBatchedTokens), strconv.Itoa(dec.MaxNumBatchedTokens)),
		both("block", strconv.Itoa(pm.BlockSize), strconv.Itoa(dm.BlockSize)),
	}, " · ")
	if in.Speculative != nil {
		line += " · decode " + in.Speculative.Text()
	}
	return line
}

// poolLayout is a pool's layout in a few words.
func poolLayout(p *pd.Pool) string {
	inst := ""
	if p.Instances > 1 {
		inst = fmt.Sprintf(" × %d instances", p.Instances)
	}
	return fmt.Sprintf("TP %d · PP %d · DP %d · EP %s%s · %d node%s", p.TP, p.PP, p.DP, textfmt.OnOff(p.EP), inst, p.Nodes, plural(p.Nodes))
}

// poolLines are a pool's section, of report g: the prefill pool's
// utilisation line says its time stepping and its queue's reason beside
// its filled token slots (pd.PrefillBusyText, the workload's scenario).
func poolLines(p *pd.Pool, g *pd.Report) []string {
	out := []string{
		fmt.Sprintf("layout       %s, %d GPUs, all2all %s", poolLayout(p), p.GPUs, orDash(p.All2All)),
		fmt.Sprintf("engine       max_num_seqs %d · max_num_batched_tokens %s", p.MaxNumSeqs, textfmt.Thousands(int64(p.MaxNumBatchedTokens))),
		fmt.Sprintf("memory       weights %.2f GiB · KV cache %.2f GiB per GPU · %s tokens per rank", p.WeightsGiB, p.KVCacheGiB, textfmt.Thousands(p.KVTokensPerRank)),
		"constants    " + p.Constants,
	}
	if m := p.Memory; m.KV.DCP > 1 && m.KVTokensLogged > 0 {
		// The pool's own DCP (vllm.DCPLogSource): vLLM logs the rank's
		// tokens × dcp, the tokens its DCP group holds together.
		out[2] += fmt.Sprintf(" (vLLM logs %s: × decode_context_parallel_size %d)", textfmt.Thousands(m.KVTokensLogged), m.KV.DCP)
	}
	if p.CapacityPerS > 0 {
		out = append(out, fmt.Sprintf("capacity     %.2f requests/s (%s)", p.CapacityPerS, p.CapacityBasis),
			fmt.Sprintf("utilisation  %.0f%% at the workload's rate", 100*p.Utilization))
		if b := prefillBusy(p, g); b != "" {
			out[len(out)-1] = "utilisation  at the workload's rate, " + b
		}
	}
	return out
}

// prefillBusy is pd.PrefillBusyText of the workload's scenario (the one
// the pool's Utilization is read from, pd.Report's first) for the prefill
// pool, "" otherwise.
func prefillBusy(p *pd.Pool, g *pd.Report) string {
	if g == nil || p != &g.Prefill || len(g.Scenarios) == 0 {
		return ""
	}
	return pd.PrefillBusyText(&g.Scenarios[0])
}

// handoffLines are the KV transfer of the workload's scenario.
func handoffLines(g *pd.Report) []string {
	if len(g.Scenarios) == 0 {
		return []string{"KV            not estimated: a pool's KV cache holds no block (see the findings)"}
	}
	s := g.Scenarios[0]
	t := s.Transfer
	out := []string{
		fmt.Sprintf("KV per token  %s B for the whole model (%s)", textfmt.Thousands(t.BytesPerToken), t.Formula),
		fmt.Sprintf("per request   %s tokens: %.1f MB%s; %.1f MB per prefill rank → %.1f MB per decode rank, %.1f MB pulled in all",
			textfmt.Thousands(int64(t.Tokens)), t.BytesPerRequest/1e6, t.OncePerRequest(), t.PerPrefillRankBytes/1e6, t.PerDecodeRankBytes/1e6, t.WireBytes/1e6),
		fmt.Sprintf("link          %s: %.2f GB/s for one transfer, %.2f GB/s per node, latency %s", t.Link, t.LinkGBytesPerS, t.NodeGBytesPerS, textfmt.Seconds(t.LatencyS)),
	}
	// Pools sharing one node of several (pd.Transfer.SameNodeShare): the
	// share of hand-offs whose pair sits on it takes that node's path.
	if sn := t.SameNode; t.SameNodeShare > 0 && sn != nil {
		out = append(out, fmt.Sprintf("              %.0f%% of hand-offs (both instances on the shared node) over %s: %.2f GB/s for one transfer, alone %s; the rest over the link above, alone %s",
			100*t.SameNodeShare, sn.Link, sn.LinkGBytesPerS, textfmt.Seconds(sn.AloneS), textfmt.Seconds(t.NICAloneS)))
	}
	// The link the hand-off takes: the NICs, or NVLink for pools on one
	// node (pd.Transfer.Link).
	link, are, carry := "the NICs", "are", "carry"
	if t.Link == "NVLink" {
		link, are, carry = "NVLink", "is", "carries"
	}
	xfer := fmt.Sprintf("transfer      alone %s; at %.2f requests/s %s %s %.0f%% busy: mean %s", textfmt.Seconds(t.AloneS), s.RequestsPerS, link, are, 100*t.Utilization, textfmt.Seconds(t.TimeS))
	if t.Saturated {
		xfer += fmt.Sprintf(" — %s %s saturated: transfers queue", link, are)
	}
	if t.MaxRatePerS > 0 {
		xfer += fmt.Sprintf(" (%s %s at most %.1f requests/s)", link, carry, t.MaxRatePerS)
	}
	out = append(out, xfer)
	l := s.Lease
	lease := fmt.Sprintf("KV lease      each prefill rank holds %.2f finished prompts until they are pulled: %s of %s tokens per rank — %s",
		l.HeldRequests, textfmt.Thousands(int64(l.NeededTokens)), textfmt.Thousands(l.KVTokensPerRank), map[bool]string{true: "fits", false: "RISK: does not fit"}[l.Fits])
	return append(out, lease)
}

// boundBy names what sets a scenario's rate: a part near saturation, a
// closed loop's sessions or an open loop's arrivals (pd.BindsAt).
func boundBy(s *pd.Scenario) string {
	switch s.Binding {
	case pd.BindSessions:
		return fmt.Sprintf("bound by the %d sessions", s.Sessions)
	case pd.BindArrivals:
		return "the arrival rate"
	}
	if s.DecodeFlat {
		return "bound by the decode pool, its throughput flat at the requests decoding"
	}
	if s.DecodeKVBound && s.DecodeSlots > 0 {
		// What holds the sessions, not only which pool (pdttft41): the
		// decode pool's KV cache runs DecodeSlots of them at once.
		return fmt.Sprintf("bound by the decode pool's KV cache (holds %d of the %d sessions at once)", s.DecodeSlots, s.Sessions)
	}
	return "bound by the " + s.Binding
}

// unsaturated is the words before the utilisations when no part binds:
// no part's token slots near saturation when the prefill pool steps far
// more of the time than its slots are filled (pd.SteppingApart).
func unsaturated(s *pd.Scenario) string {
	if s.Binding == pd.BindSessions || s.Binding == pd.BindArrivals {
		if pd.SteppingApart(s) {
			return fmt.Sprintf("no part's token slots near saturation, %.0f%% or more: ", 100*pd.BindsAt)
		}
		return fmt.Sprintf("no part near saturation, %.0f%% or more: ", 100*pd.BindsAt)
	}
	return ""
}

// utilisations are the rate line's parts' utilisations (pd.SteppingApart:
// the prefill pool's time stepping beside its filled token slots).
func utilisations(s *pd.Scenario) string {
	pre := fmt.Sprintf("prefill %.0f%%", 100*s.PrefillUtilization)
	if pd.SteppingApart(s) {
		pre = "prefill " + pd.PrefillSlotsStepping(s)
	}
	return fmt.Sprintf("%s, decode %.0f%%, NICs %.0f%% utilised", pre, 100*s.DecodeUtilization, 100*s.Transfer.Utilization)
}

// scenarioLines are one composed scenario: a heading, then lines of
// handoffLabel-wide labels; burstiness is the client's arrivals' gamma
// shape (arrivalShape: 1 Poisson), which the prefill pool's simulation
// takes (estimate/pd sims.go).
func scenarioLines(s *pd.Scenario, burstiness float64) []string {
	load := fmt.Sprintf("%d sessions", s.Sessions)
	switch {
	case s.Burst > 0: // a finite run, named as the colocated simulation names it
		load = simLoad(slo.SimScenario{Sessions: s.Sessions, RatePerS: s.RatePerS, Burstiness: burstiness, ClientCap: s.ClientCap, Burst: s.Burst})
	case s.RatePerS > 0 && burstiness != 1:
		load = slo.ArrivalsText(s.RatePerS, burstiness, " requests/s")
	case s.RatePerS > 0:
		load = fmt.Sprintf("Poisson %.2f requests/s", s.RatePerS)
	}
	if s.ClientCap > 0 && s.RatePerS > 0 && s.Burst == 0 { // the colocated simulation line's words (slo.OpenLoopText)
		load += fmt.Sprintf(", at most %d in flight (the client's cap: its queue's wait is not in TTFT)", s.ClientCap)
	}
	out := []string{fmt.Sprintf("input %s tokens, output %s, %s", textfmt.Thousands(int64(s.InputTokens)), textfmt.Thousands(int64(s.OutputTokens)), load),
		fmt.Sprintf("rate          %.2f requests/s, %s output tokens/s, %s (%s%s)",
			s.RequestsPerS, whole(s.OutputTokPerS), boundBy(s), unsaturated(s), utilisations(s))}
	if s.Unbounded {
		out = append(out, "TTFT          unbounded (the arrivals exceed what the "+s.Binding+" serves)")
	} else {
		out = append(out, "TTFT          "+pctText(s.TTFT))
	}
	p := s.TTFTParts
	out = append(out, fmt.Sprintf("TTFT parts    prefill queue %s + prefill %s + router %s + KV transfer %s + decode admission %s%s + first decode step %s + API servers %s (means)",
		textfmt.Seconds(p.PrefillQueueS), textfmt.Seconds(p.PrefillS), textfmt.Seconds(p.RouterS), textfmt.Seconds(p.TransferS),
		textfmt.Seconds(p.DecodeAdmitS), admitOfWhich(p.DecodeAdmit), textfmt.Seconds(p.FirstDecodeS), textfmt.Seconds(p.FrontendS)),
		"TPOT          "+pctText(s.TPOT))
	return out
}

// admitOfWhich names the decode admission's shares as the JSON nests them
// (pd.AdmitParts, inside decode admission, not added again); "" when none.
func admitOfWhich(a pd.AdmitParts) string {
	if a.ReadNoticeS <= 0 {
		return ""
	}
	return " (of which " + textfmt.Seconds(a.ReadNoticeS) + " noticing the finished read)"
}

// colocatedLines put the disaggregated and colocated figures side by side.
func colocatedLines(g *pd.Report) []string {
	c := g.Colocated
	if c.Error != "" {
		return []string{"not compared: " + c.Error}
	}
	out := []string{c.Layout}
	for _, r := range append([][3]string{{"", "disaggregated", "colocated"}}, colocatedRows(g)...) {
		out = append(out, fmt.Sprintf("%-18s %16s %16s", r[0], r[1], r[2]))
	}
	if len(out) == 2 {
		return out[:1]
	}
	return append(out, colocatedVerdicts(c)...)
}

// colocatedRows are the comparison's figures (name, disaggregated,
// colocated) for the workload's scenario. When a pool holds no KV block
// (no scenario) the colocated figures still stand beside a dash: on the
// same GPUs colocated may serve where the split does not start, which is
// what the user can act on (the rows were dropped, leaving a bare header).
// None when neither side has figures.
func colocatedRows(g *pd.Report) [][3]string {
	c := g.Colocated
	ttft := func(x float64, unbounded bool) string {
		if unbounded {
			return "unbounded"
		}
		return textfmt.Seconds(x)
	}
	if len(g.Scenarios) == 0 {
		if c.OutputTokPerS <= 0 {
			return nil
		}
		const none = "-"
		return [][3]string{
			{"output tokens/s", none, whole(c.OutputTokPerS)},
			{"TTFT p50", none, ttft(c.TTFTP50S, c.Unbounded)},
			{"TTFT p99", none, ttft(c.TTFTP99S, c.Unbounded)},
			{"TPOT mean", none, textfmt.Seconds(c.TPOTMeanS)},
		}
	}
	s := g.Scenarios[0]
	return [][3]string{
		{"output tokens/s", whole(s.OutputTokPerS), whole(c.OutputTokPerS)},
		{"TTFT p50", ttft(s.TTFT.P50, s.Unbounded), ttft(c.TTFTP50S, c.Unbounded)},
		{"TTFT p99", ttft(s.TTFT.P99, s.Unbounded), ttft(c.TTFTP99S, c.Unbounded)},
		{"TPOT mean", textfmt.Seconds(s.TPOT.Mean), textfmt.Seconds(c.TPOTMeanS)},
	}
}

// colocatedVerdicts are the colocated deployment's SLO verdicts in words.
func colocatedVerdicts(c *pd.Colocated) []string {
	var out []string
	for _, v := range c.SLO {
		out = append(out, fmt.Sprintf("colocated %s: %s", v.Name, v.Verdict))
	}
	return out
}

// arrivalShape is the workload's open-loop gamma shape as the report's
// settings list it (resolve.Deployment.ArrivalBurstiness: listed when
// the spec gives one); 1, Poisson, otherwise.
func arrivalShape(r *estimate.Report) float64 {
	for _, s := range r.Input.Settings {
		if b, ok := s.Value.(float64); ok && s.Name == "arrival_burstiness" && b > 0 {
			return b
		}
	}
	return 1
}
