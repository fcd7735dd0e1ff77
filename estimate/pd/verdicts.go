package pd

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// verdicts judges the spec's SLOs on the composed scenarios with the same
// verdicts and bands as colocated check (slo.Judge), the band class being
// the decode pool's.
func verdicts(dec *input.Input, r *Report) []slo.Verdict {
	var out []slo.Verdict
	// the workload's scenario, at the length Evaluate ran it
	// (spec.ScenarioInputLengths: at least one token)
	first := r.Scenario(max(1, dec.Workload.InputTokens))
	if t := dec.SLO.ThroughputTokensPerS; t > 0 {
		v := slo.Verdict{Name: "throughput (" + dec.SLO.ThroughputCounts + " tokens/s)", Target: t, Unit: "tokens/s"}
		if first != nil {
			v.Predicted, v.Binding = first.OutputTokPerS, first.Binding
			if dec.SLO.ThroughputCounts == "total" {
				v.Predicted = first.TotalTokPerS
			}
			v.Explanation = RateExplanation(first)
			if capBound(first) {
				// "bound by the client's cap" (RateExplanation): tagged as
				// the colocated verdict is (slo.BindClientCap).
				v.Binding = slo.BindClientCap
			}
		}
		slo.Judge(&v, dec, slo.ThroughputRegime(dec), true, first != nil)
		out = append(out, noKV(v, first == nil))
	}
	if t := dec.SLO.TPOTMs; t > 0 && first != nil && slo.OneOutputToken(dec) {
		// Requests of one output token have no time between output
		// tokens: judged as colocated check judges them (slo's
		// oneTokenTPOT, the serving benchmark's TPOT of 0, which meets
		// any target) and as plan's P/D bound does (plan/pd_eval.go
		// boundPD). It was a FAIL with "predicted 0 s", the colocated
		// comparison beside it a PASS.
		out = append(out, slo.Verdict{Name: "TPOT (mean)", Target: t / 1e3, Unit: "s", Verdict: slo.VerdictPass, Binding: r.Decode.Role,
			Explanation: "every request has one output token: there is no time between output tokens, and the serving benchmark " +
				"(benchmark_serving.py) leaves such requests out of TPOT and reports 0; the target is met trivially"})
	} else if t > 0 {
		v := slo.Verdict{Name: "TPOT (mean)", Target: t / 1e3, Unit: "s", Binding: r.Decode.Role}
		if first != nil {
			v.Predicted = first.TPOT.Mean
			v.Explanation = "simulated mean time per output token on the decode pool, with no prefill beside its decodes"
		}
		slo.Judge(&v, dec, slo.TPOTRegime(dec), false, first != nil)
		out = append(out, noKV(v, first == nil))
	}
	for _, t := range dec.SLO.TTFT {
		sc := r.Scenario(t.InputTokens)
		for _, q := range []struct {
			name string
			v    *float64
			get  func(*Scenario) float64
		}{{"p50", t.P50S, func(s *Scenario) float64 { return s.TTFT.P50 }},
			{"p95", t.P95S, func(s *Scenario) float64 { return s.TTFT.P95 }},
			{"p99", t.P99S, func(s *Scenario) float64 { return s.TTFT.P99 }}} {
			if q.v == nil {
				continue
			}
			out = append(out, ttftVerdict(dec, sc, t.InputTokens, q.name, *q.v, q.get))
		}
	}
	return out
}

// capBound says the client's cap binds the scenario's rate: its arrivals
// outpace what the cap's requests in flight sustain, so it runs as their
// closed loop (CapClosedLoop) and no pool is near saturation.
func capBound(s *Scenario) bool {
	return s.CapClosedLoop && (s.Binding == BindSessions || s.Binding == BindArrivals)
}

// RateExplanation says what sets the scenario's request rate: a part near
// saturation (Scenario.Binding), or, below BindsAt, a closed loop's
// sessions (Little's law: N over one request's time in the loop, which is
// about TTFT + output × TPOT) or an open loop's arrivals.
func RateExplanation(s *Scenario) string {
	utilised := fmt.Sprintf("prefill %.0f%%, decode %.0f%% utilised", 100*s.PrefillUtilization, 100*s.DecodeUtilization)
	near := "no pool near saturation"
	if SteppingApart(s) {
		near = "no pool's token slots near saturation"
		utilised = fmt.Sprintf("prefill %s, decode %.0f%% utilised", PrefillSlotsStepping(s), 100*s.DecodeUtilization)
	}
	if capBound(s) {
		return fmt.Sprintf("%.2f requests/s, bound by the client's cap of %d in flight: its arrivals at %.2f/s outpace what %d sessions sustain, so it runs as their closed loop (%s; a pool binds from %.0f%%)",
			s.RequestsPerS, s.ClientCap, s.RatePerS, s.ClientCap, utilised, 100*BindsAt)
	}
	switch s.Binding {
	case BindSessions:
		if s.Burst > 0 { // a finite run: its sessions, with the start-up and drain counted
			return fmt.Sprintf("%.2f requests/s over the run, bound by the %d sessions: no pool near saturation (%s; a pool binds from %.0f%%)",
				s.RequestsPerS, s.Sessions, utilised, 100*BindsAt)
		}
		// One request's time, one figure: TTFT and the output tokens after
		// the first at TPOT (the closed loop's own Little's law,
		// TestClosedLoopLittle); the rate is the simulated one, which N ÷
		// that time gives within a percent.
		cycle := s.TTFT.Mean + float64(max(0, s.OutputTokens-1))*s.TPOT.Mean
		return fmt.Sprintf("%.2f requests/s, bound by the %d sessions: %s (%s; a pool binds from %.0f%%), "+
			"so the closed loop's rate is its sessions over one request's time (Little's law): %d ÷ %.2f s = %.2f requests/s, "+
			"a request's time being TTFT %.3f s + %d more output tokens × TPOT %.1f ms",
			s.RequestsPerS, s.Sessions, near, utilised, 100*BindsAt, s.Sessions, cycle, float64(s.Sessions)/cycle,
			s.TTFT.Mean, s.OutputTokens-1, 1e3*s.TPOT.Mean)
	case BindArrivals:
		return fmt.Sprintf("%.2f requests/s, the arrival rate: no pool near saturation (%s; a pool binds from %.0f%%)", s.RequestsPerS, utilised, 100*BindsAt)
	}
	if s.DecodeFlat {
		return fmt.Sprintf("%.2f requests/s, bound by the decode pool: its throughput is flat at the requests decoding "+
			"(all its slots taken, or twice as many would add less than %.0f%% in steady decode), though %s", s.RequestsPerS, 100*saturationGain, utilised)
	}
	if x := decodeKVWords(s); x != "" {
		return fmt.Sprintf("%.2f requests/s, bound by the decode pool's KV cache (%s): %s", s.RequestsPerS, utilised, x)
	}
	return fmt.Sprintf("%.2f requests/s, bound by the %s (%s)", s.RequestsPerS, s.Binding, utilised)
}

// decodeKVWords says what holds a closed loop's sessions when the decode
// pool's KV cache binds (Scenario.DecodeKVBound): its slots, and the
// sessions beyond them waiting for its blocks in decode admission. ""
// otherwise.
func decodeKVWords(s *Scenario) string {
	if !s.DecodeKVBound || s.DecodeSlots <= 0 {
		return ""
	}
	if s.Sessions <= s.DecodeSlots {
		return fmt.Sprintf("it holds %d requests at once at these lengths", s.DecodeSlots)
	}
	return fmt.Sprintf("it holds %d of the %d sessions at once at these lengths; the others wait for its blocks (decode admission %.3g s of TTFT)",
		s.DecodeSlots, s.Sessions, s.TTFTParts.DecodeAdmitS)
}

// SteppingApart reports a prefill pool whose time stepping
// (PrefillQueue.BusyFraction) exceeds its filled token slots
// (PrefillUtilization) by more than 10 points: utilisation counts filled
// token slots, and a lock-step pool can step most of the time with few of
// them filled (QA session 38: 25% filled, stepping 92%), so "no pool near
// saturation" alone misleads.
func SteppingApart(s *Scenario) bool {
	q := s.PrefillQueue
	return q != nil && q.BusyFraction > s.PrefillUtilization+0.1
}

// PrefillSlotsStepping is the rate lines' words for the prefill pool when
// SteppingApart: "25% of its token slots filled though stepping 92% of
// the time".
func PrefillSlotsStepping(s *Scenario) string {
	return fmt.Sprintf("%.0f%% of its token slots filled though stepping %.0f%% of the time",
		100*s.PrefillUtilization, 100*s.PrefillQueue.BusyFraction)
}

// PrefillBusyText is the prefill pool's utilisation line with its time
// stepping and its queue's reason (the reports' pool section): "token
// slots 25% filled; stepping 92% of the time (DP lock-step: a prompt
// waits for the step the other ranks are in)". "" without PrefillQueue.
func PrefillBusyText(s *Scenario) string {
	q := s.PrefillQueue
	if q == nil {
		return ""
	}
	x := fmt.Sprintf("token slots %.0f%% filled; stepping %.0f%% of the time", 100*s.PrefillUtilization, 100*q.BusyFraction)
	if w := QueueReasonWords(q.Reason); w != "" {
		x += " (" + w + ")"
	}
	return x
}

// QueueReasonWords says in a few words what a PrefillQueue.Reason means
// (QueueExplanation says it at length): "" without a reason.
func QueueReasonWords(reason string) string {
	switch reason {
	case QueueLockStep:
		return "DP lock-step: a prompt waits for the step the other ranks are in"
	case QueueStepInFlight:
		return "a prompt waits for the step in flight"
	case QueueBehindPrompts:
		return "a prompt queues behind other prompts: its rank's token budget is taken"
	}
	return ""
}

// ttftVerdict judges one TTFT percentile of the scenario of n tokens.
func ttftVerdict(dec *input.Input, sc *Scenario, n int, q string, target float64, get func(*Scenario) float64) slo.Verdict {
	v := slo.Verdict{Name: fmt.Sprintf("TTFT %s at %d input tokens", q, n), Target: target, Unit: "s"}
	if sc == nil {
		slo.Judge(&v, dec, slo.TTFTRegime(q), false, false)
		return noKV(v, true)
	}
	if sc.Unbounded {
		v.Verdict, v.Unbounded, v.Binding = slo.VerdictFail, true, sc.Binding
		v.Explanation = fmt.Sprintf("the arrivals exceed what the %s serves: the queue grows for as long as they go on", sc.Binding)
		return v
	}
	v.Predicted = get(sc)
	p := sc.TTFTParts
	binding, part := ttftBinding(p)
	v.Binding = binding
	if q := sc.PrefillQueue; part == "prefill queue" && q != nil && q.Reason != "" {
		v.Binding += ": " + q.Reason
	}
	if part == "decode admission" && sc.DecodeKVBound {
		v.Binding += ": the decode pool's KV cache"
	}
	// Each part in its own unit at three significant digits: fixed
	// decimals of seconds printed a 6 µs router as "0.0000" (qa45c F11).
	sec := textfmt.Seconds
	v.Explanation = fmt.Sprintf("mean %s = prefill queue %s + prefill %s + router %s + KV transfer %s + decode admission %s + first decode step %s + API servers %s",
		sec(sc.TTFT.Mean), sec(p.PrefillQueueS), sec(p.PrefillS), sec(p.RouterS), sec(p.TransferS), sec(p.DecodeAdmitS), sec(p.FirstDecodeS), sec(p.FrontendS))
	v.Explanation += "; " + sidesWords(p)
	if x := QueueExplanation(sc); x != "" {
		v.Explanation += "; " + x
	}
	if x := decodeKVWords(sc); x != "" && p.DecodeAdmitS > p.PrefillQueueS {
		v.Explanation += "; the decode pool's KV cache binds: " + x
	}
	slo.JudgeTTFT(&v, dec, q, true, openLoad(sc))
	return handoffFloor(v, sc)
}

// handoffFloor fails a TTFT verdict whose target is below the KV
// transfer alone (Scenario.Transfer.AloneS: the prompt's KV bytes at the
// hand-off link's line rate, plus its fixed latency): every request's first
// token waits for its whole KV to arrive, so no schedule and no error of
// the step model's scheduling can bring it under that time, and the
// accuracy band (set by held-out schedules and steps) must not reach below
// it. qa44 (TestPDWouldPassColocatedLine): Llama-3.1-8B's 8,000-token KV
// over one 10 Gbit/s NIC takes 839 ms against an 800 ms p50 target, and the
// band's low edge (dense ttft_mean ×0.7) had turned a certain FAIL into
// UNCERTAIN.
func handoffFloor(v slo.Verdict, sc *Scenario) slo.Verdict {
	floor := sc.Transfer.AloneS
	if v.Verdict == slo.VerdictFail || floor <= v.Target || v.Target <= 0 {
		return v
	}
	v.Verdict = slo.VerdictFail
	if v.Band != nil && v.Band.Low < floor {
		b := *v.Band
		b.Low = floor
		v.Band = &b
	}
	v.Explanation += fmt.Sprintf("; the KV transfer alone takes %.3f s at the hand-off link's line rate, above the %.3f s target: no schedule meets it", floor, v.Target)
	return v
}

// QueueExplanation says what the prefill queue waits for, from the
// prefill pool's simulation (Scenario.PrefillQueue): the steps a prompt
// waited through and their length, the prompts a rank held against what
// its token budget schedules, and the pool's time stepping beside its
// filled token slots (utilisation). "" without a queue or its reading.
func QueueExplanation(sc *Scenario) string {
	q := sc.PrefillQueue
	if q == nil || q.Reason == "" {
		return ""
	}
	x := fmt.Sprintf("the prefill queue (%.3f s) waits through %.1f of the prefill pool's steps on average (mean step %.3f s); "+
		"a rank holds %.2f prompts while the pool steps, its token budget schedules %d of these prompts in one step",
		sc.TTFTParts.PrefillQueueS, q.QueueSteps, q.MeanStepS, q.PromptsPerRank, q.BudgetPrompts)
	switch q.Reason {
	case QueueLockStep:
		x += ", so it is a lock-step wait, not prompts ahead of it: the pool's DP ranks step together (a rank with no prompt runs a dummy step in step with the others), " +
			"and a prompt reaching an idle rank waits for the step the group is in (and the dummy passes the hosts launched ahead)"
	case QueueStepInFlight:
		x += ", so it waits for the step in flight, not behind other prompts"
	case QueueBehindPrompts:
		x += ", so it queues behind other prompts"
	}
	return x + fmt.Sprintf("; the pool steps %.0f%% of the time while %.0f%% of its token slots are filled (utilisation)", 100*q.BusyFraction, 100*sc.PrefillUtilization)
}

// openLoad is the load whose queue an open loop's TTFT waits in
// (slo.JudgeTTFT widens the band by it): the busier pool's — the prefill
// pool's queue (TTFTParts.PrefillQueueS) at the arrival rate over the
// prefill pool's capacity (Scenario.PrefillUtilization, compose.go), or,
// when the decode pool is the busier, its admission wait
// (DecodeAdmitS) at DecodeUtilization — the rest of the mean TTFT being
// the idle part. A closed loop's or a finite burst's queue is finite: the
// zero Load.
func openLoad(sc *Scenario) slo.Load {
	if sc.RatePerS <= 0 || sc.Burst > 0 || sc.Sessions > 0 {
		return slo.Load{}
	}
	u, queue, part := sc.PrefillUtilization, sc.TTFTParts.PrefillQueueS, "prefill pool"
	if sc.DecodeUtilization > u {
		u, queue, part = sc.DecodeUtilization, sc.TTFTParts.DecodeAdmitS, "decode pool"
	}
	l := slo.Load{Utilization: u, IdleS: max(0, sc.TTFT.Mean-queue), Part: part}
	if u > 0 {
		l.SustainableRatePerS = sc.RatePerS / u
	}
	return l
}

// PartTransfer is the KV transfer's name among TTFT's parts: a TTFT
// verdict the hand-off binds names it after the side (SideHandoff).
const PartTransfer = "KV transfer"

// SideHandoff is the side of a P/D TTFT between the pools: the router's
// hops and the KV transfer. BindPrefill and BindDecode name the pools'.
const SideHandoff = "hand-off"

// ttftSide is one side of a P/D TTFT: the pool (or the hand-off between
// them, or the API servers) whose parts it sums.
type ttftSide struct {
	name  string
	parts []ttftPart
}

// ttftPart is one named part of TTFTParts.
type ttftPart struct {
	name string
	s    float64
}

// sum is the side's share of the mean TTFT.
func (x ttftSide) sum() float64 {
	t := 0.0
	for _, p := range x.parts {
		t += p.s
	}
	return t
}

// ttftSides groups TTFT's parts by where they are spent: the prefill
// pool (its queue and the prompt's steps), the hand-off (router hops and
// KV transfer), the decode pool (admission and the first decode step),
// and the API servers (both pools' front ends).
func ttftSides(p TTFTParts) []ttftSide {
	return []ttftSide{
		{BindPrefill, []ttftPart{{"prefill queue", p.PrefillQueueS}, {"prefill", p.PrefillS}}},
		{SideHandoff, []ttftPart{{"router", p.RouterS}, {PartTransfer, p.TransferS}}},
		{BindDecode, []ttftPart{{"decode admission", p.DecodeAdmitS}, {"first decode step", p.FirstDecodeS}}},
		{"API servers", []ttftPart{{"API servers", p.FrontendS}}},
	}
}

// ttftBinding names what binds a P/D TTFT: the side whose parts sum
// largest, then its largest part ("decode pool: decode admission").
// qa44c F7: binding the single largest part named "prefill" (0.365 s of
// DeepSeek-V3's 1.065 s on 32 × H20) while the decode pool's admission
// and first step summed 0.558 s, and the advice then moved GPUs from the
// decode pool to the prefill pool. part is the side's largest part.
func ttftBinding(p TTFTParts) (binding, part string) {
	sides := ttftSides(p)
	best := sides[0]
	for _, x := range sides[1:] {
		if x.sum() > best.sum() {
			best = x
		}
	}
	top := best.parts[0]
	for _, x := range best.parts[1:] {
		if x.s > top.s {
			top = x
		}
	}
	if len(best.parts) == 1 {
		return best.name, top.name
	}
	return best.name + ": " + top.name, top.name
}

// sidesWords says each side's share of the mean TTFT, for the verdict's
// explanation: "by side: prefill pool 0.453 s, hand-off 0.012 s, ...".
func sidesWords(p TTFTParts) string {
	var b strings.Builder
	b.WriteString("by side: ")
	for i, x := range ttftSides(p) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.3f s", x.name, x.sum())
	}
	return b.String()
}

// noKV explains a verdict without a scenario: a pool's KV cache holds no
// block, so the deployment serves nothing (the memory findings say why).
func noKV(v slo.Verdict, none bool) slo.Verdict {
	if none {
		v.Binding = slo.BindKV
		v.Explanation = "a pool's KV cache holds no block: the deployment serves nothing (see the memory findings)"
	}
	return v
}
