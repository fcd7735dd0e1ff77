package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

var moeTTFT41 = flag.Bool("moettft41", false, "print the GPUStack MoE burst rows' full-budget prefill step and its parts (analysis)")

// TestMoETTFTProbe prints, for the GPUStack MoE burst rows (issue #28,
// regime moe ttft), the full-budget prefill step the replay prices and the
// prefill rate it implies beside the rate the published burst implies
// (prompt tokens over the p99 TTFT), then the row's KV capacity and what
// the simulation did. Analysis only: asserts nothing.
//
//	go test ./estimate/replay -run TestMoETTFTProbe -moettft41 -v
//
// What it showed (session 41, moettft41): the chunk is right — SGLang's
// server_args.py gives 8,192 tokens below 160 GB of GPU memory (H100,
// H200) in every stored 0.5.x copy, the replay's sglangChunk. GLM-4.6 FP8
// TP4 on 4 × H200 (SGLang 0.5.3) prices an 8,192-token step at 562 ms at
// 4K prompts (experts 341, dense 78, attention 86, all-reduce 52, eager
// launch 91): 14.6k tok/s, near the burst's own 15.2k (2.0M prompt tokens
// over the 132 s P99), yet the TTFTs come out +37…+63%; the 32K burst's
// chunks run at 1,014 ms (attention over the earlier chunks) against the
// 12.4k tok/s the run implies, and the simulated 4K and 32K bursts
// preempt (24, 26) with 447k KV tokens a GPU. The experts' rate is
// vLLM's block-FP8 curve; SGLang's measured block-FP8 Triton kernel is
// 1.4–1.6× faster at prefill sizes, but these checkpoints are per-channel
// FP8 (perf.UseSGLangTritonFP8Rate, off, says why and what it moved).
// GLM-4.5-Air FP8 TP2 (−35%, −44%) is a KV-bound queue: 178k KV tokens a
// GPU (~430 ShareGPT requests) and ~450 simulated preemptions, where
// SGLang admits prefills against the decode tokens it reserves instead
// (not modelled here: estimate/sim's policy).
func TestMoETTFTProbe(t *testing.T) {
	if !*moeTTFT41 {
		t.Skip("analysis: run with -moettft41")
	}
	var b strings.Builder
	ms := func(s float64) float64 { return 1e3 * s }
	for _, p := range []string{"gs-glm46-h200-", "gs-glm45air-h100-", "gpustack-qwen3-235b-h100", "gpustack-dsr1-h200", "gpustack-qwen3-235b-fp8-h100"} {
		for _, x := range replayRows(t, p) {
			r, o, sm, e := x.Row, x.Out, x.Step, x.Eng
			in, _ := lengths(r.Workload)
			n := float64(e.batchTok)
			seqs := max(1, n/float64(max(1, in)))
			per := n / seqs
			st := sm.StepUniform(perf.RankLoad{PrefillTokens: n, PrefillPairs: seqs * per * (per + 1) / 2, PrefillSeqs: seqs})
			prompts := float64(r.Load.BurstRequests.Int())
			pubRate := prompts * float64(in) / (r.Figures.TTFTMs.P99.V / 1e3)
			fmt.Fprintf(&b, "%s [%s] budget %d: step %.0f ms (dense %.0f attn %.0f experts %.0f TP %.0f gaps %.0f host %.0f launch %.0f) => %.0f tok/s; pub burst rate %.0f tok/s; TTFT mean pub %.0f pred %.0f p99 pub %.0f pred %.0f; eager %v\n",
				r.ID, Describe(r), e.batchTok, ms(st.TotalS), ms(st.DenseS), ms(st.AttentionS), ms(st.ExpertS), ms(st.TPS), ms(st.KernelGapsS), ms(st.HostS), ms(st.LaunchS),
				n/st.TotalS, pubRate, r.Figures.TTFTMs.Mean.V, ms(o.TTFT.Mean), r.Figures.TTFTMs.P99.V, ms(o.TTFT.P99), sm.S.PrefillEager)
			var steps []stepRec
			hook := func(l []perf.RankLoad, d float64) {
				steps = append(steps, stepRec{d: d, dec: l[0].DecodeSeqs, pre: l[0].PrefillTokens})
			}
			o2, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: hook})
			if err == nil && o2.Sim != nil {
				s := o2.Sim
				_, out := lengths(r.Workload)
				kv, _ := kvTokensPerRank(r, e, sm.S.WeightDType, sm.S.KVDType)
				fmt.Fprintf(&b, "  KV %d tok (%.0f seqs of in+out); sim %.1f s (pub %.1f), %d steps × %.1f ms, mean running %.0f, preemptions %d; TTFT %.1f s (queue %.1f prefill %.1f); TPOT %.1f ms (pub %.1f); %s\n",
					kv, float64(kv)/float64(in+out), s.SimulatedS, r.Figures.DurationS.V, s.Steps, 1e3*s.MeanStepS, s.MeanRunning, s.Preemptions, s.TTFT.Mean, s.TTFTParts.QueueS, s.TTFTParts.PrefillS, 1e3*s.TPOT.Mean, r.Figures.TPOTMs.Mean.V, itlLike(steps))
				dst := sm.StepUniform(perf.RankLoad{DecodeSeqs: 64, DecodeCtx: 64 * float64(in+out/2)})
				fmt.Fprintf(&b, "  decode 64 seqs: %.1f ms\n", 1e3*dst.TotalS)
			}
		}
	}
	t.Logf("\n%s", b.String())
}

// TestSetupSGLangVersion checks that the replay hands an SGLang row's
// release to the step model (perf.StepSetup.SGLangVersion, read by the
// SGLang Triton FP8 factor) and leaves it zero for a vLLM row.
func TestSetupSGLangVersion(t *testing.T) {
	want := map[string][3]int{
		"gs-glm46-h200-sglang-fp8-tp4-random-4k":   {0, 5, 3},
		"gs-glm45air-h100-sglang-fp8-tp2-sharegpt": {0, 5, 4},
		"gs-glm46-h200-vllm-tp8-random-4k":         {},
	}
	seen := 0
	for _, r := range targetableRows(t) {
		v, ok := want[r.ID]
		if !ok {
			continue
		}
		seen++
		s, _, err := Setup(r, perf.DefaultEfficiency)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if s.SGLangVersion != v {
			t.Errorf("%s: SGLangVersion %v, want %v", r.ID, s.SGLangVersion, v)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d rows", seen, len(want))
	}
}
