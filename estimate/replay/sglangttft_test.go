package replay

import (
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// sglangTTFT runs TestSGLangTTFTParts, an analysis (issue #28: SGLang's
// TTFT on the InferenceX DeepSeek-R1 rows) that prints and asserts
// nothing, skipped by default:
//
//	go test ./estimate/replay -run TestSGLangTTFTParts -sglangttft -v
//
// with PCG=1 in the environment for UseSGLangPiecewiseGraphs (which moves
// none of these rows: v0.5.12 disables piecewise graphs under their
// --moe-runner-backend flashinfer_trtllm, and under the B300 rows'
// --enable-symm-mem; sglangPiecewise), NORECV=1 to
// turn UseSGLangRecvInterval off, ROWS=<regexp> for other rows (e.g. the
// MI325X 8k/1k rows: ROWS='^ixpr3318-'), LONE=<tokens> for the lone
// prompt's length (1,024 otherwise).
var sglangTTFT = flag.Bool("sglangttft", false, "print the InferenceX SGLang DeepSeek-R1 rows' TTFT parts and step costs (analysis)")

// TestSGLangTTFTParts prints, for the InferenceX SGLang DeepSeek-R1 1k/1k
// rows, the simulated mean TTFT's parts (front end, queue, prefill), its
// median, P99 and deciles, the mean prefill step's tokens and time, and a
// lone prompt's (1,024 tokens, or LONE) and a lone decode step's cost terms.
func TestSGLangTTFTParts(t *testing.T) {
	if !*sglangTTFT {
		t.Skip("analysis: run with -sglangttft")
	}
	UseSGLangPiecewiseGraphs = os.Getenv("PCG") == "1"
	UseSGLangRecvInterval = os.Getenv("NORECV") != "1"
	defer func() { UseSGLangPiecewiseGraphs, UseSGLangRecvInterval = false, true }()
	re := regexp.MustCompile(`^(ixpr3183-dsr1fp4-b300-sglang-tp.ep.-1k1k-c(1|2|8|16|32)|ixpr3363-dsr1-b200-sglang-tp8-1k1k-c(1|2|8|16|32|64))$`)
	if s := os.Getenv("ROWS"); s != "" { // another set of rows, e.g. ROWS='^ixpr3318-'
		re = regexp.MustCompile(s)
	}
	for _, r := range targetableRows(t) {
		if !re.MatchString(r.ID) {
			continue
		}
		var first []perf.RankLoad
		var firstS float64
		var nPre, nDec int
		var preTok float64
		var preS, decS float64
		o, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: func(l []perf.RankLoad, s float64) {
			if l[0].PrefillTokens > 0 {
				if first == nil {
					first, firstS = append([]perf.RankLoad(nil), l...), s
				}
				nPre++
				preS += s
				preTok += l[0].PrefillTokens
			} else {
				nDec++
				decS += s
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		p := o.Sim.TTFTParts
		t.Logf("%s recv=%d stream=%d pol=%v: TTFT mean %.1f ms (pub %.1f): front %.1f (prompt %.1f) queue %.1f prefill %.1f; TPOT %.2f ms",
			r.ID, e.recvInterval, e.streamEvery, e.policy, 1e3*o.Sim.TTFT.Mean, r.Figures.TTFTMs.Mean.V, 1e3*p.FrontendS, 1e3*p.PromptS, 1e3*p.QueueS, 1e3*p.PrefillS, 1e3*o.Sim.TPOT.Mean)
		t.Logf("  TTFT p50 %.1f p99 %.1f ms; prefill steps carry %.0f tokens on average", 1e3*o.Sim.TTFT.P50, 1e3*o.Sim.TTFT.P99, preTok/float64(max(1, nPre)))
		var q []string
		for k := max(1, len(o.Sim.TTFTQuantiles)/10); k <= len(o.Sim.TTFTQuantiles); k += max(1, len(o.Sim.TTFTQuantiles)/10) { // fewer than ten: every one
			q = append(q, strconv.FormatFloat(1e3*o.Sim.TTFTQuantiles[k-1], 'f', 0, 64))
		}
		t.Logf("  TTFT deciles (ms): %s", strings.Join(q, " "))
		t.Logf("  first prefill step loads %+v: %.1f ms; prefill steps %d mean %.1f ms, decode steps %d mean %.2f ms", first[0], 1e3*firstS, nPre, 1e3*preS/float64(max(1, nPre)), nDec, 1e3*decS/float64(max(1, nDec)))
		n := 1024.0
		if x, err := strconv.ParseFloat(os.Getenv("LONE"), 64); err == nil && x > 0 { // another lone prompt length
			n = x
		}
		ld := perf.RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1}
		st := sm.StepUniform(ld)
		t.Logf("  lone %.0f prefill: %+v", n, st)
		dl := perf.RankLoad{DecodeSeqs: 1, DecodeCtx: 1024}
		t.Logf("  lone decode: %+v", sm.StepUniform(dl))
		t.Logf("  eff frontend req %.2f ms prompt/tok %.4f ms tok %.4f ms", 1e3*sm.S.Eff.FrontendRequestS, 1e3*sm.S.Eff.FrontendPromptTokenS, 1e3*sm.S.Eff.FrontendTokenS)
	}
}
