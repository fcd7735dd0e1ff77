package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// amd40 runs TestAMD40Terms, an analysis (issue #28, session 40: the
// MI300X gpt-oss-120b rows that UseAsyncOverlap turned fast) that prints
// and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestAMD40Terms -amd40 -v
var amd40 = flag.Bool("amd40", false, "print the MI300X gpt-oss-120b rows' decode-step terms (analysis)")

// TestAMD40Terms prints the replay of inferencex-pr-1053's four rows
// (gpt-oss-120b MXFP4 on one MI300X, vLLM 0.17.0, 1024/1024 closed loops
// of 64–256 sessions) next to the published figures, and each row's
// decode step at its session count (1.5K tokens of context a sequence,
// the loop's mean) term by term, then the same step with one 1K-token
// prefill chunk in it.
func TestAMD40Terms(t *testing.T) {
	if !*amd40 {
		t.Skip("analysis: run with -amd40")
	}
	var b strings.Builder
	for _, x := range replayRows(t, "ixpr1053-oss120b-mi300x-vllm-tp1-1k1k-c") {
		r, o, sm := x.Row, x.Out, x.Step
		fmt.Fprintf(&b, "%s: tok/s %.0f (pub %.0f) TPOT p50 %.1f ms (pub %.1f) overlap %v\n", r.ID, o.Sim.OutputTokPerS, r.Figures.OutputTokPerS.V,
			1e3*o.TPOT.P50, r.Figures.TPOTMs.Median.V, sm.S.OverlapHost)
		n := r.Load.Concurrency.V
		for _, pre := range []float64{0, 1024} {
			ld := perf.RankLoad{DecodeSeqs: n, DecodeCtx: n * 1536}
			if pre > 0 {
				ld.PrefillTokens, ld.PrefillPairs, ld.PrefillSeqs = pre, pre*(pre+1)/2, 1
			}
			st := sm.Step([]perf.RankLoad{ld})
			fmt.Fprintf(&b, "  %3.0f seqs + %4.0f prefill: step %.2f ms dense %.2f attn %.2f experts %.2f (c %.2f m %.2f) gaps %.2f (%.0f) host %.2f launch %.2f\n",
				n, pre, 1e3*st.TotalS, 1e3*st.DenseS, 1e3*st.AttentionS, 1e3*st.ExpertS, 1e3*st.ComputeS, 1e3*st.MemoryS, 1e3*st.KernelGapsS, st.Kernels, 1e3*st.OverheadS, 1e3*st.LaunchS)
		}
	}
	t.Log("\n" + b.String())
}
