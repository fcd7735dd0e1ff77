package calibrate

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Which way a constant may move (the sign rule). A cluster's fit once
// lowered expert_gemm (×0.75) and multiproc_step_s (×0.52) on Anyscale's
// P/D runs (calibrate_pd.txtar) although both runs were predicted too
// slow: lowering multiproc_step_s sped their decode up and pushed conc32's
// TTFT median, mostly the prefill pool's queue, towards the tolerance's
// edge; lowering the prefill's MoE efficiency held it there. The runs
// disagree on expert_gemm (conc8's errors ask for it higher, conc32's for
// it lower: the sum of their pulls was 0.0004 against 0.07 pulling each
// way), so the minimax fit was free to move it whichever way kept the
// worst figure in place, and a run it was not given, the same deployment
// at 64 sessions whose prefill pool is nearer saturation, went from −2.6%
// to +376.9% on its TTFT median. A constant now moves only the way the fitted
// runs' errors ask for together, and not when they pull both ways in near
// balance.

// phase is the part of a request's service a constant acts on.
type phase uint8

const (
	prefillPhase phase = 1 << iota
	decodePhase
	bothPhases = prefillPhase | decodePhase
)

func (p phase) String() string {
	switch p {
	case prefillPhase:
		return "the prompt's processing (TTFT)"
	case decodePhase:
		return "the decode steps and the streamed tokens (TPOT)"
	}
	return "both the prompt's processing and the decode steps"
}

// constantPhases is the mechanism of the constants that act on one phase
// only (calfile.Constants' Doc); the others (GEMM and attention
// efficiencies, which price compute-bound prefill chunks and large decode
// batches alike, and the host costs per step, per kernel and per
// collective, which every step pays) act on both.
//
//   - Weight and KV streaming (hbm, measured_hbm, expert_hbm) bounds a step
//     that reads more than it computes: a decode step. A prompt's chunk is
//     compute-bound, so a TTFT figure moves them only through the decode
//     steps its request waits behind, or, in a P/D closed loop, through how
//     soon the sessions return to the prefill pool's queue: a TTFT term
//     fitted through a decode constant.
//   - frontend_token_s is the API server's work per streamed output token.
//   - step_per_seq_s is the host's work per running sequence per step, a
//     decode batch's cost ("decode at large batches").
//   - frontend_request_s, frontend_prompt_token_s: the API server's ingest
//     and tokenization of a request, before the engine sees it.
//   - large_step_per_layer_s and sglang_eager_per_layer_s: the launch cost
//     of steps above the captured batch sizes, prefill chunks.
var constantPhases = map[string]phase{
	"hbm": decodePhase, "measured_hbm": decodePhase, "expert_hbm": decodePhase,
	"frontend_token_s": decodePhase, "step_per_seq_s": decodePhase,
	"frontend_request_s": prefillPhase, "frontend_prompt_token_s": prefillPhase,
	"large_step_per_layer_s": prefillPhase, "sglang_eager_per_layer_s": prefillPhase,
}

// phaseOf is a constant's mechanism.
func phaseOf(name string) phase {
	if p, ok := constantPhases[name]; ok {
		return p
	}
	return bothPhases
}

// phases is what a figure exercises: TTFT the prompt's processing, TPOT
// the decode steps, and the output throughput of a run both (a request's
// time is its TTFT and its decode; an open loop's is its offered load).
func (m Metric) phases() phase {
	switch m {
	case TTFT:
		return prefillPhase
	case TPOT:
		return decodePhase
	}
	return bothPhases
}

// pull is one fitted figure's pull on one constant.
type pull struct {
	run    string
	metric Metric
	// err is the figure's log(predicted/measured) with the start constants.
	err float64
	// deriv is d log(predicted) / d log(constant) at the start.
	deriv float64
}

// minPull is the pull below which a run asks nothing of a constant: the
// derivative of half its squared log errors with respect to the constant's
// log, 0.001, what a 1% error on a figure that moves 0.1% per 1% of the
// constant exerts. Below it the run does not depend on the constant, or its
// errors are already small where it does.
const minPull = 1e-3

// verdict is which way the fitted runs ask a constant to move: +1 up, −1
// down, 0 neither, and why.
type verdict struct {
	dir int
	why string
}

// cancelShare is the share of the runs' summed pulls on a constant their
// net pull must reach for the constant to move: below it the runs ask for
// it both ways in near balance, and moving it either way trades one run's
// error for another's, which a minimax fit does freely to hold its worst
// figure (expert_gemm on Anyscale's P/D runs: a net pull of 0.6% of the
// sum). A quarter: the runs pulling the other way pull at most 60% as hard
// as those pulling this way.
const cancelShare = 0.25

// askedDirection applies the sign rule to one constant of mechanism ph:
// each fitted run's pull is the derivative of half its squared log errors,
// over the figures that exercise ph, with respect to the constant's log;
// the constant may move only against their sum (the way that lowers the
// runs' errors together), and only when that sum is not a near balance of
// runs pulling both ways (cancelShare). A run's figures that do not
// exercise ph (a TTFT figure and a decode-only constant) do not pull it.
// With no figure exercising ph, or no run pulling, the constant stays
// where it is.
func askedDirection(ph phase, pulls []pull) verdict {
	byRun := map[string]float64{}
	var runs []string
	exercised := false
	for _, p := range pulls {
		if p.metric.phases()&ph == 0 {
			continue
		}
		exercised = true
		if _, seen := byRun[p.run]; !seen {
			runs = append(runs, p.run)
		}
		byRun[p.run] += p.err * p.deriv
	}
	if !exercised {
		return verdict{why: fmt.Sprintf("no fitted figure exercises its mechanism, %s", ph)}
	}
	var up, down []string
	net, gross := 0.0, 0.0
	for _, r := range runs {
		g := byRun[r]
		net, gross = net+g, gross+math.Abs(g)
		switch {
		case g <= -minPull:
			up = append(up, r) // raising it lowers this run's errors
		case g >= minPull:
			down = append(down, r)
		}
	}
	sort.Strings(up)
	sort.Strings(down)
	asks := func(dir string, with, against []string) string {
		s := fmt.Sprintf("the errors of %s ask for it %s", strings.Join(with, ", "), dir)
		if len(against) > 0 {
			s += fmt.Sprintf(", outweighing %s's", strings.Join(against, ", "))
		}
		return s
	}
	switch {
	case math.Abs(net) < minPull && gross < minPull:
		return verdict{why: "no fitted run's errors ask for it to move: the figures that exercise its mechanism do not depend on it, or are already close"}
	case math.Abs(net) < minPull || math.Abs(net) < cancelShare*gross:
		return verdict{why: fmt.Sprintf("the fitted runs ask for it both ways in near balance (%s: higher; %s: lower; the net pull is %.0f%% of their sum): moving it either way trades one run's error for another's",
			orNone(up), orNone(down), 100*math.Abs(net)/gross)}
	case net < 0:
		return verdict{dir: 1, why: asks("higher", up, down)}
	}
	return verdict{dir: -1, why: asks("lower", down, up)}
}

// orNone joins names, or says none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// jacobianStep is the central difference's half-step for the sign rule's
// derivatives, as a share of the constant's log range: 5%, wide enough
// that a replay's discrete steps (whole requests, whole engine steps) do
// not decide the sign, narrow enough to stay local.
const jacobianStep = 0.05

// logDerivs is, per constant, d log(prediction) / d log(constant) of every
// prediction at start, by a central difference within the bounds (a
// one-sided one at a bound). A prediction that is not a positive number at
// either point has derivative 0 (the sign rule reads no pull from it).
func logDerivs(x0, lower, upper []float64, model func([]float64) []float64) [][]float64 {
	out := make([][]float64, len(x0))
	for i := range x0 {
		h := jacobianStep * math.Log(upper[i]/lower[i])
		xu, xd := append([]float64(nil), x0...), append([]float64(nil), x0...)
		xu[i], xd[i] = math.Min(upper[i], x0[i]*math.Exp(h)), math.Max(lower[i], x0[i]*math.Exp(-h))
		du := math.Log(xu[i] / xd[i])
		if !(du > 0) {
			continue
		}
		pu, pd := model(xu), model(xd)
		col := make([]float64, len(pu))
		for j := range pu {
			if pu[j] > 0 && pd[j] > 0 && !math.IsInf(pu[j], 0) && !math.IsInf(pd[j], 0) {
				col[j] = math.Log(pu[j]/pd[j]) / du
			}
		}
		out[i] = col
	}
	return out
}
