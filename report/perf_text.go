package report

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// rankHeading is what the performance section's figures are per: a DP
// rank, the ranks in lock-step or (a dense model's) independent engines.
func rankHeading(p *slo.Performance) string {
	if p.IndependentRanks {
		return "per DP rank, each rank an independent engine"
	}
	return "per DP rank, ranks in lock-step"
}

// writePerfText renders the performance section and the SLO verdicts.
func writePerfText(w io.Writer, r *estimate.Report) {
	p := r.Performance
	if p == nil {
		return
	}
	if p.Decode.Concurrency == 0 { // no estimate: only say why
		for _, n := range p.Notes {
			fmt.Fprintf(w, "\nPerformance: %s\n", n)
		}
		return
	}
	e := p.Constants
	fmt.Fprintf(w, "\nPerformance (%s; %s: GEMM bf16 %.2f / fp8 %.2f · fused-MoE GEMM %.2f · attention %.2f · HBM %.2f · links %.2f · kernel gap %s · host per step %s)\n",
		rankHeading(p), constantsSource(p), e.GEMM, e.GEMMFP8, e.ExpertGEMM, e.Attention, e.HBM, e.Link, textfmt.Seconds(e.KernelGapS), textfmt.Seconds(e.StepOverheadS))
	fmt.Fprintf(w, "  GEMMs %s · attention %s · all2all %s · CUDA graphs %s · DBO %s\n", p.GEMMPrecision, p.AttentionPrecision, p.All2All, textfmt.OnOff(p.CUDAGraphs), textfmt.OnOff(p.DBO))
	for _, n := range p.Notes {
		fmt.Fprintf(w, "%s\n", wrap("model: "+n, 96, "  "))
	}
	writeDecodeText(w, p, r.Input.PP)
	writePrefillText(w, p, r.Input.MaxNumBatchedTokens)
	writeSimText(w, p)
	if len(p.Alternatives) > 0 {
		fmt.Fprintf(w, "  alternatives (same models, steady decode at %d sessions; idle TTFT)\n", p.Decode.Concurrency)
		for _, a := range p.Alternatives {
			fmt.Fprintf(w, "    %-56s %s\n", a.Name, altText(a))
		}
	}
	writeSLOText(w, r.SLO)
}

func writeDecodeText(w io.Writer, p *slo.Performance, pp int) {
	d := p.Decode
	fmt.Fprintf(w, "  decode at %d sessions (%d per rank, mean context %.0f): step %.1f ms → %s output tokens/s  [%s]\n",
		d.Concurrency, d.Point.SeqsPerRank, p.FLOPs.MeanContext, d.Step.TotalS*1e3, whole(d.Point.OutputTokPerS), d.Point.Binding)
	fmt.Fprintf(w, "    %s\n", stepTerms(d.Step, pp))
	fmt.Fprintf(w, "    floors: weight read %.1f ms (%.1f GB read per GPU) · compute %.1f ms · network %.1f ms\n",
		d.Floors.WeightReadS*1e3, d.Floors.WeightBytesPerGPU/1e9, d.Floors.ComputeS*1e3, d.Floors.NetworkS*1e3)
	fmt.Fprintf(w, "  decode curve (sessions: TPOT, output tokens/s, binding); %s; "+
		"saturates near %d sessions (%s output tokens/s)\n", d.KVFitsText(), d.Saturation.Concurrency, whole(d.Saturation.OutputTokPerS))
	for _, c := range d.Curve {
		fmt.Fprintf(w, "    %7d: %8.1f ms %10s  %s%s\n", c.Concurrency, c.TPOTS*1e3, whole(c.OutputTokPerS), c.Binding, map[bool]string{true: "  (beyond KV capacity)"}[c.KVCapped])
	}
}

func writePrefillText(w io.Writer, p *slo.Performance, chunk int) {
	fmt.Fprintf(w, "  prefill on an idle system (one DP rank, chunks of %d tokens)\n", chunk)
	for _, pf := range p.Prefill {
		nics := ""
		if pf.InterBytesPerNode > 0 {
			nics = fmt.Sprintf(", %.2f GB through the node's NICs", pf.InterBytesPerNode/1e9)
		}
		fmt.Fprintf(w, "    %6d tokens: TTFT %s in %d step(s)%s  [%s]\n      %s\n",
			pf.InputTokens, textfmt.Seconds(pf.TTFTS), pf.Steps, nics, pf.Binding, prefillTerms(pf))
	}
}

func writeSimText(w io.Writer, p *slo.Performance) {
	steady := false
	for _, s := range p.Simulations {
		steady = steady || (s.Sessions > 0 && s.Burst == 0)
		res := s.Result
		fmt.Fprintf(w, "  simulation: %s, %d in / %d out, %s, seed %d\n", simLoad(s), s.InputTokens, s.OutputTokens, runsText(res), s.Seed)
		if s.Lengths != "" {
			fmt.Fprintf(w, "    request lengths: %s\n", s.Lengths)
		}
		if res.Truncated {
			fmt.Fprintf(w, "    cut short: the run reached its work ceiling before it %s; its figures are of its first stretch, not of the whole run\n", cutBefore(s))
		}
		switch {
		case res.Overloaded:
			fmt.Fprintf(w, "    overloaded: the deployment sustains about %s requests/s of these (utilisation %.2f); the queue grows without bound, so TTFT and E2E do too\n",
				textfmt.Rate(s.SustainableRatePerS), s.Utilization)
			if res.Requests > 0 {
				fmt.Fprintf(w, "    TPOT %s (at saturation)\n", pctText(res.TPOT))
			} else {
				fmt.Fprintf(w, "    no request completed at saturation: TPOT not measured\n")
			}
		case res.Requests == 0:
			fmt.Fprintf(w, "    no request completed: no latency measured\n")
		default:
			fmt.Fprintf(w, "    TTFT %s\n      mean TTFT: %s\n    TPOT %s\n    E2E  %s\n", pctText(res.TTFT), ttftPartsText(res.TTFTParts), pctText(res.TPOT), pctText(res.E2E))
			if res.Replications > 1 {
				fmt.Fprintf(w, "    run-to-run spread (95%%, %d runs; not the prediction's accuracy): TTFT p50 %s, p99 %s · TPOT p50 %s, p99 %s\n", res.Replications,
					ivText(res.TTFTCI.P50), ivText(res.TTFTCI.P99), ivText(res.TPOTCI.P50), ivText(res.TPOTCI.P99))
			}
		}
		if res.Truncated && res.OutputTokPerS <= 0 {
			// its warm-up never ended: nothing was measured, not 0 tokens/s
			fmt.Fprintf(w, "    throughput and queue lengths not measured (the warm-up had not ended); %d preemptions\n", res.Preemptions)
			continue
		}
		fmt.Fprintf(w, "    %s output tokens/s, %s total tokens/s; %.1f running, %.1f waiting on average; %d preemptions\n",
			whole(res.OutputTokPerS), whole(res.TotalTokPerS), res.MeanRunning, res.MeanWaiting, res.Preemptions)
	}
	if steady {
		fmt.Fprintln(w, "  "+steadyClosedLoopNote)
	}
}

// steadyClosedLoopNote says what a closed loop's simulation measures and
// what it does not: benchmark clients start every session at once and count
// every request, so their mean TTFT includes the start-up staircase of
// prompts queued behind each other (2-4x the steady state on the colocated
// runs of docs/calibration-pd.md; estimate/pd's -ttftload analysis). It
// also says that the steady state is one of several: identical requests
// keep the phases they start with (sim.SessionCycle), so the simulation's
// even start is an assumption a real client may not meet.
const steadyClosedLoopNote = "closed loops above are steady states (sessions start at random phases, warm-up not counted); " +
	"a loop of identical requests with no think time keeps the phases it starts with, so a run whose sessions start together can stay clumped, " +
	"with a wider TTFT spread than shown; " +
	"a benchmark that starts every session at once and counts every request (vllm bench serve --max-concurrency C --num-prompts N, " +
	"genai-perf --concurrency C) also measures the start-up queue of prompts: set workload.burst_requests: N to predict that run"

func altText(a slo.Alternative) string {
	if !a.Fits {
		return "does not fit in memory"
	}
	txt := fmt.Sprintf("TPOT %6.1f ms · %7s output tokens/s  [%s] · TTFT", a.TPOTS*1e3, whole(a.OutputTokPerS), a.Binding)
	for _, n := range sortedKeys(a.IdleTTFTS) {
		txt += fmt.Sprintf(" %d: %s", n, textfmt.Seconds(a.IdleTTFTS[n]))
	}
	return txt
}

func sortedKeys(m map[int]float64) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func writeSLOText(w io.Writer, slo []slo.Verdict) {
	if len(slo) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSLO\n")
	for _, v := range slo {
		fmt.Fprintf(w, "  %s\n", VerdictLine(v))
		fmt.Fprintf(w, "%s\n", wrap(v.Explanation, 96, "      "))
		if b := bandLine(v); b != "" {
			fmt.Fprintf(w, "%s\n", wrap(b, 96, "      "))
		}
		for _, x := range v.WouldPass {
			fmt.Fprintf(w, "%s\n", wrap(wouldTake(x), 96, "      "))
		}
	}
}

// sloHeadline is one verdict's name, target, prediction (with its band
// when the estimator gives one) and binding resource, the words the text
// and HTML reports share.
func sloHeadline(v slo.Verdict) string {
	target, pred := sloPredicted(v)
	if v.NotPredicted != "" {
		// No prediction, so nothing binds it.
		return fmt.Sprintf("%s: target %s, %s", v.Name, target, pred)
	}
	return fmt.Sprintf("%s: target %s, predicted %s  [%s]", v.Name, target, pred, v.Binding)
}

// sloPredicted is a verdict's target and its prediction with the band
// when the estimator gives one: the headline's figures (sloHeadline) and
// the markdown table's cells.
func sloPredicted(v slo.Verdict) (target, pred string) {
	target, pred = SLOFigures(v)
	if b, ok := sloBand(v); ok {
		pred += " (" + bandText(b, v.Unit) + ")"
	}
	return target, pred
}

// wouldTake introduces one "what it would take" line.
func wouldTake(x string) string { return "what it would take: " + x }

func stepTerms(st perf.StepTime, pp int) string {
	// The compute / memory pair is the three classes' together (StepTime:
	// summed over dense, experts and attention); right after "attention"
	// it read as attention's ("attention 0.9 ms (compute 0.5 / memory
	// 12.3 ms)" on GLM-5), so it says whose it is.
	stage, all, perStage := stageWords(pp)
	// Each term's binding in brackets (perf.StepTime.Bindings; qa44c F12).
	b := st.Bindings
	terms := fmt.Sprintf("GPU%s: dense %.1f ms%s · experts %.1f ms%s · attention %.1f ms%s (the three: compute %.1f / memory %.1f ms alone) · kernel gaps %.1f ms (%.0f kernels%s)%s"+
		" · network: all-to-all %.1f ms%s · TP %.1f ms%s · PP %.1f ms (exposed %.1f ms%s)%s · host: between steps %.1f ms, launches %.1f ms (on the critical path %.1f ms)%s",
		stage, st.DenseS*1e3, bracket(b.Dense), st.ExpertS*1e3, bracket(b.Experts), st.AttentionS*1e3, bracket(b.Attention), st.ComputeS*1e3, st.MemoryS*1e3,
		st.KernelGapsS*1e3, st.Kernels, all, bracket(b.KernelGaps),
		st.A2AS*1e3, perStage, st.TPS*1e3, perStage, st.PPS*1e3, st.ExposedNetworkS*1e3, all, bracket(b.Network), st.HostS*1e3, st.LaunchS*1e3, st.OverheadS*1e3, bracket(b.Host))
	if st.SpecDraftS > 0 {
		terms += fmt.Sprintf(" · draft passes %.1f ms", st.SpecDraftS*1e3)
	}
	if st.DCPS > 0 {
		terms += fmt.Sprintf(" · decode context parallel gathers %.1f ms (network, in the exposed time)", st.DCPS*1e3)
	}
	return terms
}

// whole is a token rate or count as every report prints one: whole,
// thousands grouped ("16,077"), as the SLO lines print the targets (qa45c
// F11: "8,263 tokens/s" beside "16077 output tokens/s").
func whole(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	return textfmt.Thousands(int64(math.Round(x)))
}

// bracket is a term's binding as the text prints it after the term's
// time: " [HBM (roofline)]", "" for none.
func bracket(b perf.TermBinding) string {
	if b == perf.TermNone {
		return ""
	}
	return " [" + b.String() + "]"
}

// prefillTerms splits an idle prefill's TTFT into its terms, each with
// its binding as a decode step's terms carry theirs (qa45c F14; the GPU
// kernels' is their largest class's in the longest chunk), the host's
// with its parts (prefillHostParts).
func prefillTerms(pf perf.PrefillPoint) string {
	gpu := ""
	if pf.GPUBinding != perf.TermNone {
		gpu = fmt.Sprintf(" [%s, most of it %s]", pf.GPUBinding, pf.GPUClass)
	}
	b := pf.Bindings
	return fmt.Sprintf("GPU kernels %s%s · kernel gaps %s%s · exposed communication %s%s · host %s%s (%s)",
		textfmt.Seconds(pf.GPUS), gpu, textfmt.Seconds(pf.KernelGapsS), bracket(b.KernelGaps),
		textfmt.Seconds(pf.NetworkS), bracket(b.Network), textfmt.Seconds(pf.HostS), bracket(b.Host), prefillHostParts(pf))
}

// prefillHostParts is an idle prefill's host time on the critical path by
// its parts, every one printed (user QA 39: GLM-5-FP8 on GB200 printed
// "host 44.1 ms" alone, its eager launches outrunning the GPU, where
// DeepSeek-R1's decode line gives between steps, launches and the critical
// path): the work between steps, the kernel launches, and what of them
// ran behind the GPU's kernels. The sum is written out before what is
// taken off it: "kernel launches 0 s − 9.67 ms of them behind the GPU"
// subtracted from a term of 0 s (qa45c F14).
func prefillHostParts(pf perf.PrefillPoint) string {
	work := pf.HostBetweenS + pf.LaunchS
	parts := fmt.Sprintf("between steps %s + kernel launches %s", textfmt.Seconds(pf.HostBetweenS), textfmt.Seconds(pf.LaunchS))
	hidden := work - pf.HostS
	if hidden <= 1e-12 {
		return parts + ", none of it behind the GPU's kernels"
	}
	return fmt.Sprintf("%s = %s, less %s of it behind the GPU's kernels", parts, textfmt.Seconds(work), textfmt.Seconds(hidden))
}

// ttftPartsText splits a simulated mean TTFT by where requests spent it;
// the front end's work on the request's own prompt tokens is named inside
// the front end's share, which it is part of.
func ttftPartsText(p sim.TTFTParts) string {
	return fmt.Sprintf("front end (ingest, first token out) %s, of which tokenizing the prompt %s · engine queue %s · prefill steps %s",
		textfmt.Seconds(p.FrontendS), textfmt.Seconds(p.PromptS), textfmt.Seconds(p.QueueS), textfmt.Seconds(p.PrefillS))
}

func simLoad(s slo.SimScenario) string {
	switch {
	case s.Burst > 0 && s.RatePerS > 0:
		return fmt.Sprintf("%d requests, %s", s.Burst, slo.OpenLoopText(s))
	case s.Burst > 0 && s.Sessions < s.Burst:
		return fmt.Sprintf("burst of %d requests at t=0, at most %d in flight", s.Burst, s.Sessions)
	case s.Burst > 0:
		return fmt.Sprintf("burst of %d requests at t=0", s.Burst)
	}
	if s.Sessions > 0 {
		return fmt.Sprintf("closed loop, %d sessions", s.Sessions)
	}
	return slo.OpenLoopText(s)
}

// cutBefore is what a run its work ceiling ended had not done yet.
func cutBefore(s slo.SimScenario) string {
	if s.Burst > 0 {
		return fmt.Sprintf("finished the burst's %d requests", s.Burst)
	}
	return fmt.Sprintf("measured %d requests (a steady state)", sim.MinMeasured)
}

// runsText says how many requests the simulation measured, in how many
// independent runs.
func runsText(res sim.Result) string {
	if res.Replications > 1 {
		return fmt.Sprintf("%d requests in %d runs", res.Requests, res.Replications)
	}
	return fmt.Sprintf("%d requests", res.Requests)
}

// ivText is an interval of the simulation's run-to-run spread, in seconds.
func ivText(iv sim.Interval) string { return textfmt.Range(iv.Lo, iv.Hi, "s") }

func pctText(p sim.Percentiles) string {
	return fmt.Sprintf("mean %s · p50 %s · p90 %s · p95 %s · p99 %s", textfmt.Seconds(p.Mean), textfmt.Seconds(p.P50), textfmt.Seconds(p.P90), textfmt.Seconds(p.P95), textfmt.Seconds(p.P99))
}

// scenarioLabel names a simulated scenario in tables: load, lengths and,
// when the workload states one, its length distribution.
func scenarioLabel(s slo.SimScenario) string {
	l := fmt.Sprintf("%s, %d in / %d out", simLoad(s), s.InputTokens, s.OutputTokens)
	if s.Lengths != "" {
		l += " (" + s.Lengths + ")"
	}
	return l
}

// stageWords says which decode-step terms are one pipeline stage's and
// which the whole step's. perf's stepWith prices the dense, expert and
// attention rooflines, the all-to-all and the TP all-reduces of one stage
// and runs the PP stages in turn (GPU time = PP × stage + PP hand-off),
// while the kernel gaps, the exposed communication and the host time are
// the step's. On TP 8 × PP 2 the line read "dense 1.0 · experts 5.8 ·
// attention 3.1 · kernel gaps 3.9 · exposed 0.8 · host 7.8" beside a
// 32.3 ms step: 22.5 ms as printed, 32.3 ms with the three rooflines
// counted twice. One stage: no words.
func stageWords(pp int) (stage, all, perStage string) {
	if pp <= 1 {
		return "", "", ""
	}
	return fmt.Sprintf(" (one pipeline stage of %d, run in turn)", pp), ", all stages", " per stage"
}
