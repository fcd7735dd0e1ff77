package replay

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// mixSched runs TestMixedStepSchedule, an analysis (issue #28, mixsched45)
// that prints and asserts nothing, skipped by default:
// go test -count=1 ./estimate/replay -run TestMixedStepSchedule -mixsched -v
var mixSched = flag.Bool("mixsched", false, "print the scicom loaded closed loops' simulated step mix beside the published TTFT, TPOT and ITL (analysis)")

// mixSchedRows are the scicom rows the analysis traces: loaded loops of
// both models and layouts where TPOT is under-priced and TTFT over-priced.
var mixSchedRows = []string{
	"scicom-llama31-70b-h100-vllm-tp8dp1-4096x128-c100-20260409",
	"scicom-llama31-70b-h100-vllm-tp4dp2-4096x128-c100-20260409",
	"scicom-llama31-70b-h100-vllm-tp4dp2-1024x128-c10-20260413",
	"scicom-llama31-70b-h100-vllm-tp8dp1-4096x128-c200-20260413",
	"scicom-qwen3-14b-h100-vllm-tp8dp1-4096x128-c100-20260409",
	"scicom-qwen3-14b-h100-vllm-tp8dp1-4096x128-c200-20260410",
	"scicom-qwen3-14b-h100-vllm-tp4dp2-1024x128-c100-20260409",
	"scicom-qwen3-14b-h100-vllm-tp8dp1-128x128-c100-20260409",
	"scicom-llama31-70b-h100-vllm-tp8dp1-128x128-c100-20260409",
}

// stepMix sums a run's applied steps (one rank's view: the trace's first
// load) into decode-only and mixed steps.
type stepMix struct {
	steps, mixed            int
	decodeS, mixedS         float64 // summed durations
	mixedPrefill, mixedDecs float64 // summed prefill tokens and decodes in mixed steps
	decodeDecs              float64 // summed decodes in decode-only steps
	itl                     []float64
}

// add records n applied steps of duration s each under load l.
func (m *stepMix) add(prefill, decodes float64, n int, s float64) {
	per := s / float64(n)
	if prefill > 0 {
		m.mixed += n
		m.mixedS += s
		m.mixedPrefill += prefill * float64(n)
		m.mixedDecs += decodes * float64(n)
	} else {
		m.steps += n
		m.decodeS += s
		m.decodeDecs += decodes * float64(n)
	}
	// one inter-token gap per decode the step carried (the ITL a client sees)
	for k := 0; k < int(decodes)*n && k < 4096; k++ {
		m.itl = append(m.itl, per)
	}
}

// TestMixedStepSchedule prints, for the scicom loaded closed loops, the
// simulated (all-at-once) TTFT and TPOT before the loop states, and the
// step mix: decode-only against mixed steps, their mean length, decodes
// and prefill tokens, and the decode-weighted ITL median and P99 beside
// the published ITL (analysis).
func TestMixedStepSchedule(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	var b strings.Builder
	b.WriteString("| row | budget | TTFT pub mean/med/p99 | sim raw / point | TPOT pub / sim | ITL pub med / p99 | sim ITL med / p99 | decode steps: n, ms, decodes | mixed steps: n, ms, decodes, prefill tok | sim TTFT front / queue / prefill |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		want := false
		for _, w := range mixSchedRows {
			want = want || r.ID == w
		}
		if !want {
			continue
		}
		var m stepMix
		tr := func(loads []perf.RankLoad, n int, s float64) {
			l := loads[0]
			m.add(l.PrefillTokens, l.DecodeSeqs, n, s)
		}
		o, _, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, trace: tr})
		if err != nil || o.Sim == nil {
			t.Fatal(r.ID, err)
		}
		sort.Float64s(m.itl)
		q := func(p float64) float64 {
			if len(m.itl) == 0 {
				return 0
			}
			return m.itl[int(p*float64(len(m.itl)-1))] * 1e3
		}
		f := r.Figures
		div := func(a float64, n int) float64 { return a / float64(max(1, n)) }
		fmt.Fprintf(&b, "| %s | %d | %.0f / %.0f / %.0f | %.0f / %.0f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %d, %.2f, %.1f | %d, %.2f, %.1f, %.0f | %.0f / %.0f / %.0f |\n",
			strings.TrimPrefix(r.ID, "scicom-"), e.batchTok, f.TTFTMs.Mean.V, f.TTFTMs.Median.V, f.TTFTMs.P99.V, o.Sim.TTFT.Mean*1e3, o.TTFT.Mean*1e3,
			f.TPOTMs.Mean.V, o.TPOT.Mean*1e3, f.ITLMs.Median.V, f.ITLMs.P99.V, q(0.5), q(0.99),
			m.steps, div(m.decodeS, m.steps)*1e3, div(m.decodeDecs, m.steps), m.mixed, div(m.mixedS, m.mixed)*1e3, div(m.mixedDecs, m.mixed), div(m.mixedPrefill, m.mixed),
			o.Sim.TTFTParts.FrontendS*1e3, o.Sim.TTFTParts.QueueS*1e3, o.Sim.TTFTParts.PrefillS*1e3)
	}
	t.Logf("scicom loaded loops, simulated step mix (ms):\n%s", b.String())
}

// TestMixedStepRuns prints the first row's simulated step sequence as runs
// of mixed (M) and decode-only (D) steps: count, mean step, mean prefill
// tokens and decodes a step — the published runs' shape (analysis).
func TestMixedStepRuns(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	for _, r := range targetableRows(t) {
		if r.ID != mixSchedRows[0] && r.ID != mixSchedRows[4] {
			continue
		}
		var b strings.Builder
		kind, n := byte(0), 0
		var dur, pre, dec float64
		flush := func() {
			if n > 0 {
				fmt.Fprintf(&b, "%c%d(%.0fms,p%.0f,d%.0f) ", kind, n, dur/float64(n)*1e3, pre/float64(n), dec/float64(n))
			}
		}
		tr := func(loads []perf.RankLoad, k int, s float64) {
			l := loads[0]
			c := byte('D')
			if l.PrefillTokens > 0 {
				c = 'M'
			}
			if c != kind {
				flush()
				kind, n, dur, pre, dec = c, 0, 0, 0, 0
			}
			n += k
			dur += s
			pre += l.PrefillTokens * float64(k)
			dec += l.DecodeSeqs * float64(k)
		}
		if _, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, trace: tr}); err != nil {
			t.Fatal(err)
		}
		flush()
		t.Logf("%s:\n%s", r.ID, b.String())
	}
}

// TestLoadedDecodeStep prints, for every scicom TP8 row, the simulated
// decode-only step with at least 90% of the sessions decoding (median over
// the all-at-once run's applied steps) and the full-budget mixed step,
// to set beside the same steps read from the published per-request ITLs
// (analysis).
func TestLoadedDecodeStep(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	var b strings.Builder
	for _, r := range targetableRows(t) {
		if !strings.HasPrefix(r.ID, "scicom-") || !strings.Contains(r.ID, "tp8dp1") {
			continue
		}
		c := float64(r.Load.Concurrency.Int())
		var dec, mix []float64
		runs := 0
		tr := func(loads []perf.RankLoad, k int, s float64) {
			l := loads[0]
			if l.PrefillTokens == 0 && l.DecodeSeqs == 0 {
				runs++
			}
			if runs > 0 {
				return
			}
			per := s / float64(k)
			if l.PrefillTokens == 0 && l.DecodeSeqs >= 0.9*c {
				dec = append(dec, per)
			}
			if l.PrefillTokens > 0.95*8192-l.DecodeSeqs && l.DecodeSeqs >= 0.8*c {
				mix = append(mix, per)
			}
		}
		o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		med := func(v []float64) float64 {
			if len(v) == 0 {
				return 0
			}
			sort.Float64s(v)
			return v[len(v)/2] * 1e3
		}
		f := r.Figures
		fmt.Fprintf(&b, "| %s | %d / %.2f | %d / %.1f | %.2f / %.2f | %.0f / %.0f | %.0f / %.0f / %.0f |\n", strings.TrimPrefix(r.ID, "scicom-"), len(dec), med(dec), len(mix), med(mix),
			f.TPOTMs.Mean.V, o.TPOT.Mean*1e3, f.TTFTMs.Median.V, o.Sim.TTFT.P50*1e3, f.TTFTMs.Mean.V, o.Sim.TTFT.Mean*1e3, o.TTFT.Mean*1e3)
	}
	t.Logf("simulated decode-only (n / median ms), full-budget mixed steps (n / median ms), TPOT published / simulated, TTFT median published / all-at-once run, TTFT mean published / all-at-once run / point:\n%s", b.String())
}

// TestScicomIngestRounds prints every scicom row's published mean TTFT
// beside the replay's point with the API server's event-loop passes
// (perf.UseIngestRounds) off, as committed, and on (analysis: the first
// tokens of a re-sent wave reach the client in growing bursts).
func TestScicomIngestRounds(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	defer func(v bool) { perf.UseIngestRounds = v }(perf.UseIngestRounds)
	var b strings.Builder
	in := [2]int{}
	for _, r := range targetableRows(t) {
		if !strings.HasPrefix(r.ID, "scicom-") {
			continue
		}
		var mean [2]float64
		for k, on := range []bool{false, true} {
			perf.UseIngestRounds = on
			o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			mean[k] = o.TTFT.Mean * 1e3
			if e := mean[k]/r.Figures.TTFTMs.Mean.V - 1; e <= 0.3 && e >= -0.3 {
				in[k]++
			}
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.0f |\n", strings.TrimPrefix(r.ID, "scicom-"), r.Figures.TTFTMs.Mean.V, mean[0], mean[1])
	}
	t.Logf("scicom mean TTFT, published / rounds off / on (within ±30%%: %d / %d):\n%s", in[0], in[1], b.String())
}

// TestLoadedDecodeTerms prints the step model's terms for a decode-only
// step of the scicom TP8 rows at 25–200 sessions and 128–4096 tokens of
// context: which term carries the context and the batch (analysis).
func TestLoadedDecodeTerms(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	var b strings.Builder
	b.WriteString("| model | decodes | ctx | total | dense | attention | memory | compute | TP | gaps | host | overhead | binding |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		if r.ID != "scicom-qwen3-14b-h100-vllm-tp8dp1-128x128-c100-20260409" && r.ID != "scicom-llama31-70b-h100-vllm-tp8dp1-128x128-c100-20260409" {
			continue
		}
		_, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{25, 100, 200} {
			for _, ctx := range []float64{192, 1088, 4160} {
				st := sm.StepUniform(perf.RankLoad{DecodeSeqs: float64(n), DecodeCtx: float64(n) * ctx})
				ms := func(s float64) float64 { return s * 1e3 }
				fmt.Fprintf(&b, "| %s | %d | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", r.Model.Catalog, n, ctx, ms(st.TotalS), ms(st.DenseS),
					ms(st.AttentionS), ms(st.MemoryS), ms(st.ComputeS), ms(st.TPS), ms(st.KernelGapsS), ms(st.HostS), ms(st.OverheadS), st.Binding())
			}
		}
	}
	t.Logf("decode-only step terms (ms):\n%s", b.String())
}

// loadedDecodePublished is the median decode-only step (ms) read from the
// published per-request ITLs of the scicom TP8 runs (steps with at least
// 90% of the sessions decoding and no first token: mixsched45's clustering
// of llm-benchmaq@123eefe's JSONs), by model, prompt length and sessions.
var loadedDecodePublished = map[string]map[int]map[int]float64{
	"qwen3-14b": {1024: {25: 4.84, 50: 6.04, 100: 8.24, 200: 12.20}, 2048: {25: 5.04, 50: 6.43, 100: 8.99, 200: 13.56},
		4096: {25: 5.40, 50: 7.31, 100: 10.34, 200: 16.18}},
	"llama-3.1-70b": {1024: {25: 12.02, 50: 13.88, 100: 16.98, 200: 17.90}, 2048: {25: 12.38, 50: 14.69, 100: 18.38, 200: 24.17},
		4096: {25: 13.08, 50: 16.35, 100: 21.23, 200: 30.40}},
}

// TestLoadedDecodeExposed sets the published decode-only step against the
// step model's GPU side (its total less the exposed host time) at the same
// load, every session decoding at the prompt plus half the output: what is
// left, and left per decoding request (analysis).
func TestLoadedDecodeExposed(t *testing.T) {
	if !*mixSched {
		t.Skip("analysis: run with -mixsched")
	}
	var b strings.Builder
	b.WriteString("| model | prompt | sessions | published | GPU side | host as priced | published − GPU | per request (µs) |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		if r.ID != "scicom-qwen3-14b-h100-vllm-tp8dp1-128x128-c100-20260409" && r.ID != "scicom-llama31-70b-h100-vllm-tp8dp1-128x128-c100-20260409" {
			continue
		}
		_, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		pub := loadedDecodePublished[r.Model.Catalog]
		for _, in := range []int{1024, 2048, 4096} {
			for _, n := range []int{25, 50, 100, 200} {
				ctx := float64(in + 64)
				st := sm.StepUniform(perf.RankLoad{DecodeSeqs: float64(n), DecodeCtx: float64(n) * ctx})
				gpu := (st.TotalS - st.OverheadS) * 1e3
				d := pub[in][n] - gpu
				fmt.Fprintf(&b, "| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.1f |\n", r.Model.Catalog, in, n, pub[in][n], gpu, st.HostS*1e3, d, d/float64(n)*1e3)
			}
		}
	}
	t.Logf("decode-only step, published against the step model's GPU side (ms):\n%s", b.String())
}
