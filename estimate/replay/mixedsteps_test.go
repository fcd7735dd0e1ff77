package replay

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// mixedSteps runs TestMixedSteps, an analysis (issue #28, mixed44) that
// prints and asserts nothing beyond the traces' sanity, skipped by default:
// go test ./estimate/replay -run TestMixedSteps -mixedsteps -v
var mixedSteps = flag.Bool("mixedsteps", false, "print every burst row's published ITL median/P99 against the simulation's decode-weighted step durations and a typical mixed step's terms (analysis)")

// tracedStep is one applied step of a traced simulation: its per-rank
// loads (copied), how many identical steps it stands for and the duration
// of one.
type tracedStep struct {
	loads []perf.RankLoad
	n     int
	d     float64
}

// decodes is the step's decoding sequences over its ranks.
func (s tracedStep) decodes() float64 {
	var n float64
	for _, l := range s.loads {
		n += l.DecodeSeqs
	}
	return n
}

// prefill is the step's prompt tokens over its ranks.
func (s tracedStep) prefill() float64 {
	var n float64
	for _, l := range s.loads {
		n += l.PrefillTokens
	}
	return n
}

// itlOf is what a client's inter-token latencies see of the traced steps:
// every decode of a step is one gap (np.percentile over the flattened
// per-token gaps, as vllm bench serve and SGLang's bench_serving compute
// ITL) lasting the step plus the steps without decodes just before it (a
// prefill-first engine's prefill batches, which the running requests wait
// through); the decode-weighted mean, median and P99 of those gaps stand
// for the ITL's. mixedShare is the share of the gaps taken in steps that
// also ran prompt tokens, heldShare the share that waited through
// decode-free steps.
func itlOf(steps []tracedStep) (mean, p50, p99, mixedShare, heldShare float64) {
	type w struct{ d, n float64 }
	var ws []w
	var tot, sum, mixed, held, idle, prev float64
	for _, s := range steps {
		dec := s.decodes()
		if dec <= 0 {
			idle += s.d * float64(s.n)
			continue
		}
		// The first of the n steps carries the wait through the
		// decode-free steps before it for the sequences that were
		// decoding before them (at most the previous decode step's: the
		// others' last token came from their prompt's last chunk, inside
		// that stretch, and they are counted a step); the rest are one
		// step each.
		h := 0.0
		if idle > 0 {
			h = min(prev, dec)
			ws = append(ws, w{s.d + idle, h})
		}
		ws = append(ws, w{s.d, dec*float64(s.n) - h})
		all := dec * float64(s.n)
		tot += all
		sum += all*s.d + h*idle
		held += h
		if s.prefill() > 0 {
			mixed += all
		}
		idle, prev = 0, dec
	}
	if tot == 0 {
		return 0, 0, 0, 0, 0
	}
	slices.SortFunc(ws, func(a, b w) int { return cmp.Compare(a.d, b.d) })
	q := func(f float64) float64 {
		var c float64
		for _, x := range ws {
			c += x.n
			if c >= f*tot {
				return x.d
			}
		}
		return ws[len(ws)-1].d
	}
	return sum / tot, q(0.5), q(0.99), mixed / tot, held / tot
}

// typicalMixed is the mixed step (prompt tokens beside decodes) at the
// decode-weighted median of the mixed steps' durations; false when the
// trace has none.
func typicalMixed(steps []tracedStep) (tracedStep, bool) {
	var ms []tracedStep
	var tot float64
	for _, s := range steps {
		if s.prefill() > 0 && s.decodes() > 0 {
			ms = append(ms, s)
			tot += s.decodes() * float64(s.n)
		}
	}
	if len(ms) == 0 {
		return tracedStep{}, false
	}
	slices.SortFunc(ms, func(a, b tracedStep) int { return cmp.Compare(a.d, b.d) })
	var c float64
	for _, s := range ms {
		c += s.decodes() * float64(s.n)
		if c >= tot/2 {
			return s, true
		}
	}
	return ms[len(ms)-1], true
}

// only keeps, per rank, the prefill part (prefill) or the decode part of
// loads.
func only(loads []perf.RankLoad, prefill bool) []perf.RankLoad {
	out := make([]perf.RankLoad, len(loads))
	for i, l := range loads {
		if prefill {
			out[i] = perf.RankLoad{PrefillTokens: l.PrefillTokens, PrefillPairs: l.PrefillPairs, PrefillPrefix: l.PrefillPrefix, PrefillSeqs: l.PrefillSeqs}
		} else {
			out[i] = perf.RankLoad{DecodeSeqs: l.DecodeSeqs, DecodeCtx: l.DecodeCtx}
		}
	}
	return out
}

// mixedTerms prints the step model's terms for the typical mixed step m:
// linear layers (dense + experts) over chunk + decode tokens, prefill
// attention over the chunk's span and decode attention over the running
// contexts (each from the step with only that part), communication, and
// the host: its serial work, the eager launches (a step above the CUDA
// graph capture ceiling) and the kernel gaps.
func mixedTerms(sm *perf.StepModel, m tracedStep) string {
	st := sm.Step(m.loads)
	pre, dec := sm.Step(only(m.loads, true)), sm.Step(only(m.loads, false))
	var tok, span float64
	for _, l := range m.loads {
		tok = max(tok, l.PrefillTokens+l.DecodeSeqs*float64(1+sm.S.SpecTokens))
		if l.PrefillSeqs > 0 {
			span = max(span, l.PrefillPrefix/l.PrefillSeqs+l.PrefillTokens/l.PrefillSeqs)
		}
	}
	ceiling := float64(sm.S.MaxCaptureTokens)
	if ceiling <= 0 {
		ceiling = vllm.MaxCUDAGraphCaptureSize
	}
	graphs := "graphed"
	switch {
	case !sm.S.CUDAGraphs || sm.S.EnforceEager:
		graphs = "eager (no graphs)"
	case sm.S.PrefillEager:
		graphs = "prefill eager"
	case tok > ceiling:
		graphs = fmt.Sprintf("above ceiling %.0f", ceiling)
	}
	l0 := m.loads[0]
	return fmt.Sprintf("typical mixed step (rank 0: %.0f prompt tok in %.0f chunks, mean span %.0f, beside %.0f decodes at mean ctx %.0f; %s): %.1f ms = linear %.1f (dense %.1f experts %.1f) + attn %.1f (prefill-only %.1f, decode-only %.1f) + TP %.1f A2A %.1f exposed-net %.1f + gaps %.1f + overhead %.1f (host %.1f launch %.1f); compute %.1f memory %.1f",
		l0.PrefillTokens, l0.PrefillSeqs, span, l0.DecodeSeqs, l0.DecodeCtx/max(1, l0.DecodeSeqs), graphs,
		1e3*st.TotalS, 1e3*(st.DenseS+st.ExpertS), 1e3*st.DenseS, 1e3*st.ExpertS, 1e3*st.AttentionS, 1e3*pre.AttentionS, 1e3*dec.AttentionS,
		1e3*st.TPS, 1e3*st.A2AS, 1e3*st.ExposedNetworkS, 1e3*st.KernelGapsS, 1e3*st.OverheadS, 1e3*st.HostS, 1e3*st.LaunchS, 1e3*st.ComputeS, 1e3*st.MemoryS)
}

// mixedRun is one traced replay of a row: its applied steps and outcome.
type mixedRun struct {
	steps []tracedStep
	o     Outcome
	sm    *perf.StepModel
}

// traceRow replays r with the simulation's step trace on.
func traceRow(r published.Row) (mixedRun, error) {
	var m mixedRun
	trace := func(l []perf.RankLoad, n int, d float64) {
		m.steps = append(m.steps, tracedStep{loads: slices.Clone(l), n: n, d: d / float64(n)})
	}
	o, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, trace: trace})
	if err == nil && o.Sim == nil {
		err = fmt.Errorf("no simulation")
	}
	m.o, m.sm = o, sm
	return m, err
}

// TestMixedSteps prints, for every burst row with published ITL figures
// (both splits, every source, engine and model), the published ITL mean /
// median / P99 beside the simulation's from its own trace (sim.Config.
// Trace; itlOf), the ratios, and the step model's terms for a typical
// mixed step; then the same ITLs with every prompt reaching the engine
// together (perf.UseIngestRounds, the event-loop passes, not adopted) as
// a reading of what a burst's steps would hold if they did. Rows of
// independent DP ranks interleave their ranks' steps in the trace, so
// their decode-free waits are approximate.
func TestMixedSteps(t *testing.T) {
	if !*mixedSteps {
		t.Skip("analysis: run with -mixedsteps")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "row | split | engine | gpu | layout | in/out | ITL pub mean/p50/p99 ms | sim | p50 ×, p99 × (pub/sim) | gaps in mixed / after decode-free steps | rounds: sim, p50 ×, p99 × | TPOT pub/sim | out tok/s pub/sim\n")
	defer func(v bool) { perf.UseIngestRounds = v }(perf.UseIngestRounds)
	for _, r := range targetableRows(t) {
		f := r.Figures
		if r.Load.Kind != published.LoadBurst || !(f.ITLMs.Median.Positive() || f.ITLMs.P99.Positive()) {
			continue
		}
		perf.UseIngestRounds = false
		m, err := traceRow(r)
		if err != nil {
			fmt.Fprintf(&b, "%s: not simulated (%v)\n", r.ID, err)
			continue
		}
		if len(m.steps) == 0 {
			t.Errorf("%s: the simulation applied %d steps but the trace saw none", r.ID, m.o.Sim.Steps)
			continue
		}
		mean, p50, p99, mixed, held := itlOf(m.steps)
		perf.UseIngestRounds = true
		rounds := "-"
		if mr, err := traceRow(r); err == nil {
			rm, r50, r99, _, _ := itlOf(mr.steps)
			rounds = fmt.Sprintf("%.0f/%.0f/%.0f, %.2f, %.2f", 1e3*rm, 1e3*r50, 1e3*r99, f.ITLMs.Median.V/(1e3*r50), f.ITLMs.P99.V/(1e3*r99))
		}
		in, out := lengths(r.Workload)
		fmt.Fprintf(&b, "%s | %s | %s %s | %s | TP%d DP%d EP%d | %d/%d | %.0f/%.0f/%.0f | %.0f/%.0f/%.0f | %.2f, %.2f | %.0f%% / %.0f%% | %s | %.0f/%.0f | %.0f/%.0f\n",
			r.ID, r.Split, r.Engine.Name, r.Engine.Version, r.Hardware.GPU, r.Layout.TP.Int(), r.Layout.DP.Int(), r.Layout.EP.Int(), in, out,
			f.ITLMs.Mean.V, f.ITLMs.Median.V, f.ITLMs.P99.V, 1e3*mean, 1e3*p50, 1e3*p99,
			f.ITLMs.Median.V/(1e3*p50), f.ITLMs.P99.V/(1e3*p99), 100*mixed, 100*held, rounds,
			f.TPOTMs.Mean.V, 1e3*m.o.Sim.TPOT.Mean, f.OutputTokPerS.V, m.o.Sim.OutputTokPerS)
		rsm := m.sm
		if sim.IndependentRanks(rsm.S.Model != nil && rsm.S.Model.IsMoE(), rsm.S.DP) {
			rsm = sim.RankStep(rsm)
		}
		if s, ok := typicalMixed(m.steps); ok {
			fmt.Fprintf(&b, "    %s\n", mixedTerms(rsm, s))
		}
	}
	t.Log("\n" + b.String())
}
