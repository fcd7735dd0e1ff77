package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// amdPrefill runs TestAMDPrefillProbe, an analysis (issue #28: SGLang
// DeepSeek-R1 FP8 on 8 × MI325X, inferencex-pr-3318, whose TTFT vlaunch
// prices −72…−46% while its TPOT and throughput are within ±16%) that
// prints and asserts nothing, skipped by default:
//
//	go test ./estimate/replay -run TestAMDPrefillProbe -amdprefill -v
//
// It prints the replay's 8K prefill step and its parts, then two probes
// of where ≈0.7 s a request could sit:
//
//   - serial: every prefill step costs X more on the scheduler's critical
//     path (any slower kernel, sync or host work inside the forward pass:
//     the GPU and the scheduler wait for it, so decode steps wait too),
//     applied by making the eager launch of a prefill step cover the 8K
//     step's GPU time plus X (SGLangEagerPerLayerS; TotalS = serial +
//     max(launch, gpu)), re-replayed;
//   - outside: X is added to each request's TTFT outside the engine (a
//     latency no engine step waits for: front end, client), its closed
//     loop cycle lengthened by X, so throughput × cycle / (cycle + X) and
//     TPOT unchanged (hand derivation; not re-replayed).
var amdPrefill = flag.Bool("amdprefill", false, "print the MI325X SGLang DeepSeek-R1 rows' 8K prefill step and the serial / outside-the-engine latency probes (analysis)")

func TestAMDPrefillProbe(t *testing.T) {
	if !*amdPrefill {
		t.Skip("analysis: run with -amdprefill")
	}
	const prefix = "ixpr3318-dsr1-mi325x-sglang-tp8-8k1k-"
	var b strings.Builder
	ms := func(s float64) float64 { return 1e3 * s }
	b.WriteString("| row | pub TTFT / TPOT / out tok/s/GPU | replay | serial +0.35 s | serial +0.70 s | outside +0.70 s |\n|---|---|---|---|---|---|\n")
	for _, x := range replayRows(t, prefix) {
		r, o, sm, e := x.Row, x.Out, x.Step, x.Eng
		in, out := lengths(r.Workload)
		n := float64(in)
		st := sm.StepUniform(perf.RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
		if strings.HasSuffix(r.ID, "-c4") {
			fmt.Fprintf(&b, "prefill step at %d tokens: total %.1f ms, GPU dense %.1f, attention %.1f, experts %.1f, TP all-reduce %.1f, gaps %.1f, host %.1f, launch %.1f (PrefillEager %v, OverlapHost %v)\n",
				in, ms(st.TotalS), ms(st.DenseS), ms(st.AttentionS), ms(st.ExpertS), ms(st.TPS), ms(st.KernelGapsS), ms(st.HostS), ms(st.LaunchS),
				sm.S.PrefillEager, sm.S.OverlapHost)
		}
		pub := r.Figures
		cell := func(oc Outcome) string {
			return fmt.Sprintf("%.0f / %.1f / %.1f", ms(oc.TTFT.Mean), ms(oc.TPOT.Mean), oc.OutputTokPerS/float64(r.Hardware.GPUs.Int()))
		}
		row := fmt.Sprintf("| %s | %.0f / %.1f / %.1f | %s |", strings.TrimPrefix(r.ID, prefix),
			pub.TTFTMs.Mean.V, pub.TPOTMs.Mean.V, pub.OutputTokPerSPerGPU.V, cell(o))
		for _, extra := range []float64{0.35, 0.70} {
			if st.LaunchS <= 0 {
				row += " no eager prefill launch |"
				continue
			}
			s := sm.S
			layers := st.LaunchS / s.Eff.SGLangEagerPerLayerS
			gpu := st.TotalS - st.HostS
			s.Eff.SGLangEagerPerLayerS = (gpu + extra) / layers
			o2, err := run(r, perf.NewStepModel(s), e, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			row += " " + cell(o2) + " |"
		}
		// Outside the engine: TTFT + X, cycle TTFT + (out−1)·TPOT + X.
		const extra = 0.70
		cycle := o.TTFT.Mean + float64(out-1)*o.TPOT.Mean
		thr := o.OutputTokPerS / float64(r.Hardware.GPUs.Int()) * cycle / (cycle + extra)
		row += fmt.Sprintf(" %.0f / %.1f / %.1f |\n", ms(o.TTFT.Mean+extra), ms(o.TPOT.Mean), thr)
		b.WriteString(row)
	}
	t.Logf("MI325X SGLang DeepSeek-R1 8K/1K (TTFT ms / TPOT ms / output tok/s/GPU):\n%s", b.String())
}
