package pd_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ttftTerms runs TestTTFTTermsGEMMTables and TestTTFTTermsIdleLLMD,
// analyses (issues #24/#28) that print and assert nothing, skipped by
// default: go test ./estimate/pd -run TestTTFTTerms -ttftterms -v
var ttftTerms = flag.Bool("ttftterms", false, "print the P/D TTFT decomposition and the prefill step terms with perf.UseGEMMTables off and on (analysis)")

// TestTTFTTermsGEMMTables prints, for every targetable P/D row, the mean
// TTFT's parts with the dense GEMMs priced by the scalar roofline and by
// the measured per-shape tables (perf.UseGEMMTables), and one prompt's
// prefill on the prefill pool's engine idle, chunk by chunk of its
// max_num_batched_tokens, term by term. It asserts nothing: it is the
// table issue #28's P/D question was read from.
func TestTTFTTermsGEMMTables(t *testing.T) {
	if !*ttftTerms {
		t.Skip("analysis: run with -ttftterms")
	}
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	defer func(was bool) { perf.UseGEMMTables = was }(perf.UseGEMMTables)
	var parts, steps strings.Builder
	parts.WriteString("| row | tables | published | predicted | err | API servers | prefill queue | prefill | transfer | decode admission | first decode | prefill util | req/s pub | req/s pred | colocated TTFT pub | colocated TTFT pred |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	steps.WriteString("| row | tables | budget | chunks | idle prompt | dense | attention | experts | TP | kernel gaps | host (overhead) | GPU sum |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range set.Rows {
		if !r.Targetable() {
			continue
		}
		for _, on := range []bool{false, true} {
			perf.UseGEMMTables = on
			p, s := replayPD(t, r)
			tp := s.TTFTParts
			pub := r.Figures.TTFTMs.Mean
			e := "–"
			if pub.Positive() {
				e = fmt.Sprintf("%+.0f%%", 100*(p.TTFTMean*1e3/pub.V-1))
			}
			cPub, cPred := "–", "–"
			if r.Colocated != nil && r.Colocated.Figures.TTFTMs.Mean.Positive() {
				c := replayColocated(t, r)
				cPub, cPred = r.Colocated.Figures.TTFTMs.Mean.String(), fmt.Sprintf("%.0f", c.TTFTMean*1e3)
				t.Logf("%s tables=%t: colocated published req/s %s TPOT %s, predicted req/s %.2f TPOT %.1f ms", r.ID, on,
					r.Colocated.Figures.RequestPerS, r.Colocated.Figures.TPOTMs.Mean, c.RequestsPerS, c.TPOTMean*1e3)
			}
			fmt.Fprintf(&parts, "| %s | %t | %.0f | %.0f | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f%% | %s | %.2f | %s | %s |\n", r.ID, on, pub.V, p.TTFTMean*1e3, e,
				tp.FrontendS*1e3, tp.PrefillQueueS*1e3, tp.PrefillS*1e3, tp.TransferS*1e3, tp.DecodeAdmitS*1e3, tp.FirstDecodeS*1e3, 100*s.PrefillUtilization,
				r.Figures.RequestPerS, p.RequestsPerS, cPub, cPred)
			y, _ := pdSpec(r)
			in := resolveSpec(t, r.ID, y)
			pre, _ := testinput.Pools(t, in.Resolved())
			sm := perf.NewStepModel(perf.SetupFromInput(&pre))
			n, c := r.Workload.InputTokens.Int(), max(1, pre.MaxNumBatchedTokens)
			var sum perf.StepTime
			chunks := 0
			for at := 0; at < n; at += c {
				k := float64(min(c, n-at))
				st := sm.StepUniform(perf.RankLoad{PrefillTokens: k, PrefillSeqs: 1, PrefillPrefix: float64(at), PrefillPairs: k * (float64(at) + (k+1)/2)})
				sum.DenseS += st.DenseS
				sum.AttentionS += st.AttentionS
				sum.ExpertS += st.ExpertS
				sum.TPS += st.TPS
				sum.KernelGapsS += st.KernelGapsS
				sum.HostS += st.HostS
				sum.OverheadS += st.OverheadS
				sum.TotalS += st.TotalS
				chunks++
			}
			idle := sm.PrefillIdle(n, c)
			if c != n {
				// llm-d's peakPrefillThroughput is CHUNK_SIZE (the engine's
				// budget) over the median idle TTFT of prompts that long.
				full := sm.PrefillIdle(c, c)
				t.Logf("%s tables=%t: a %d-token prompt idle: %.1f ms (GPU %.1f, gaps %.1f, host %.1f): %.0f prompt tokens/s", r.ID, on, c,
					full.TTFTS*1e3, full.GPUS*1e3, full.KernelGapsS*1e3, full.HostS*1e3, float64(c)/full.TTFTS)
			}
			fmt.Fprintf(&steps, "| %s | %t | %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f (%.1f) | %.1f |\n", r.ID, on, c, chunks, idle.TTFTS*1e3,
				sum.DenseS*1e3, sum.AttentionS*1e3, sum.ExpertS*1e3, sum.TPS*1e3, sum.KernelGapsS*1e3, sum.HostS*1e3, sum.OverheadS*1e3, idle.GPUS*1e3)
		}
	}
	t.Logf("mean TTFT, part by part (ms):\n%s", parts.String())
	t.Logf("one prompt on the prefill pool's engine, idle (ms):\n%s", steps.String())
}

// TestTTFTTermsIdleLLMD replays the llm-d rows' P/D path idle (0.5 req/s)
// with prompts of 8,192 tokens, the CHUNK_SIZE of llm-d's calibrate.sh:
// peakPrefillThroughput = CHUNK_SIZE / median idle TTFT through the
// router, so the guide's 33,821 tok/s is a median TTFT of 242 ms for that
// prompt, hand-off and first decode step included.
func TestTTFTTermsIdleLLMD(t *testing.T) {
	if !*ttftTerms {
		t.Skip("analysis: run with -ttftterms")
	}
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	defer func(was bool) { perf.UseGEMMTables = was }(perf.UseGEMMTables)
	for _, r := range set.Rows {
		if r.ID != "llmd-gke-h200-p8tp1-d2tp4-r45" {
			continue
		}
		for _, n := range []int{5000, 8192} {
			for _, on := range []bool{false, true} {
				perf.UseGEMMTables = on
				q := r
				q.Workload.InputTokens = published.N(float64(n))
				q.Load.RequestRatePerS = published.N(0.5)
				_, s := replayPD(t, q)
				tp := s.TTFTParts
				t.Logf("%d tokens, tables=%t: TTFT mean %.1f p50 %.1f ms (API %.1f, queue %.1f, prefill %.1f, transfer %.1f, admission %.1f, first step %.1f); %d/TTFT.p50 = %.0f tok/s (llm-d: 33821)",
					n, on, s.TTFT.Mean*1e3, s.TTFT.P50*1e3, tp.FrontendS*1e3, tp.PrefillQueueS*1e3, tp.PrefillS*1e3, tp.TransferS*1e3, tp.DecodeAdmitS*1e3, tp.FirstDecodeS*1e3, n, float64(n)/s.TTFT.P50)
			}
		}
	}
}
