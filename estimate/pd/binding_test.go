package pd

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/vllm"
)

// The two P/D specs of the user QA pass of session 37 (testdata/qa37-*):
// Qwen3-235B-A22B-FP8 on 2 × 8 H100, prefill and decode TP 2 × DP 4 with
// EP, 128 sessions of 4,000 in / 1,000 out; gpt-oss-120b on 8 H200, prefill
// 2 × TP 2 and decode TP 4 on one node, 64 sessions of 8,000 in / 500 out.
var qa37 = []struct {
	file     string
	sessions int
}{
	{"testdata/qa37-qwen3-235b-pd.yaml", 128},
	{"testdata/qa37-gpt-oss-pd-h200.yaml", 64},
}

// qa37Eval evaluates a QA spec as check does (estimate.CheckPD: the pools
// of the resolved deployment, SameNode, the router, the connector's
// hand-off), after edit (nil: as written).
func qa37Eval(t *testing.T, file string, edit func(pre, dec *input.Input)) (Report, []slo.Verdict) {
	t.Helper()
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, file, string(y))
	d := in.Resolved()
	pre, dec := testinput.Pools(t, d)
	if edit != nil {
		edit(&pre, &dec)
	}
	h := vllm.KVHandoffOf(d.PD.Connector.Name, dec.Release().Version, nil, dec.Env)
	return EvaluateConnector(&pre, &dec, d.PD.SameNode(), d.PD.Router.Kind, h, slo.Options{Seed: 1})
}

// BindsAt is the decode curve's saturation criterion turned into a
// utilisation: doubling the concurrency adds less than 10% (perf.Saturation)
// once even the whole capacity is within 10% of the rate, u ≥ 1/1.1.
func TestBindsAtIsTheCurveCriterion(t *testing.T) {
	if math.Abs(BindsAt-1/1.1) > 1e-12 || math.Abs(1/BindsAt-1-0.10) > 1e-12 {
		t.Errorf("BindsAt %.4f, want 1/1.1 = 0.9091 (headroom 1/u − 1 = 10%%)", BindsAt)
	}
}

// QA finding (session 37): a closed loop whose pools are 50% and 32% busy
// was "bound by the prefill pool". Neither pool is near saturation in
// either QA spec, so the sessions bind, and the rate is Little's law's:
// N ÷ one request's time in the loop, about TTFT + output × TPOT (within
// 2%: the pools' simulations are separate runs, and a request's last token
// ends its time, not an output's TPOT more).
func TestQA37SessionsBind(t *testing.T) {
	for _, c := range qa37 {
		r, vs := qa37Eval(t, c.file, nil)
		s := r.Scenarios[0]
		if s.Binding != BindSessions {
			t.Errorf("%s: bound by the %s (prefill %.0f%%, decode %.0f%%, NICs %.0f%%), want the sessions",
				c.file, s.Binding, 100*s.PrefillUtilization, 100*s.DecodeUtilization, 100*s.Transfer.Utilization)
		}
		if u := max(s.PrefillUtilization, s.DecodeUtilization, s.Transfer.Utilization); u >= BindsAt {
			t.Errorf("%s: a part %.0f%% busy, the case wants none near saturation", c.file, 100*u)
		}
		little := float64(c.sessions) / (s.TTFT.Mean + float64(s.OutputTokens)*s.TPOT.Mean)
		if s.Sessions != c.sessions || math.Abs(s.RequestsPerS/little-1) > 0.02 {
			t.Errorf("%s: %.3f requests/s with %d sessions; Little's law N ÷ (TTFT %.3f s + %d × TPOT %.4f s) = %.3f",
				c.file, s.RequestsPerS, s.Sessions, s.TTFT.Mean, s.OutputTokens, s.TPOT.Mean, little)
		}
		var tput *slo.Verdict
		for i := range vs {
			if strings.HasPrefix(vs[i].Name, "throughput") {
				tput = &vs[i]
			}
		}
		if tput == nil || tput.Binding != BindSessions || !strings.Contains(tput.Explanation, "Little's law") ||
			strings.Contains(tput.Explanation, "bound by the prefill pool") || strings.Contains(tput.Explanation, "bound by the decode pool") {
			t.Errorf("%s: throughput verdict %+v, want it bound by the sessions, by Little's law", c.file, tput)
		}
	}
}

// The same specs with a pool pushed to saturation name that pool: the
// Qwen3 decode pool held to 16 sequences per rank (max_num_seqs; 64 slots
// for the 128 sessions, so requests wait for a slot), and gpt-oss at 512
// sessions, whose prompts ask more than the prefill pool's 17.5 requests/s
// while the decode pool serves 27.
func TestQA37SaturatedPoolBinds(t *testing.T) {
	r, _ := qa37Eval(t, qa37[0].file, func(_, dec *input.Input) { dec.MaxNumSeqs = 16 })
	if s := r.Scenarios[0]; s.Binding != BindDecode || s.DecodeUtilization < BindsAt {
		t.Errorf("qwen3, decode max_num_seqs 16: bound by the %s (prefill %.0f%%, decode %.0f%%), want the decode pool near saturation",
			s.Binding, 100*s.PrefillUtilization, 100*s.DecodeUtilization)
	}
	r, _ = qa37Eval(t, qa37[1].file, func(pre, dec *input.Input) {
		pre.Workload.Concurrency, dec.Workload.Concurrency = 512, 512
	})
	if s := r.Scenarios[0]; s.Binding != BindPrefill || s.PrefillUtilization < BindsAt {
		t.Errorf("gpt-oss, 512 sessions: bound by the %s (prefill %.0f%%, decode %.0f%%), want the prefill pool near saturation",
			s.Binding, 100*s.PrefillUtilization, 100*s.DecodeUtilization)
	}
}

// A closed loop's decode pool binds below BindsAt when its throughput curve
// is flat where it runs (evaluator.decodeFlat, the colocated curve's
// criterion): every slot taken binds it; at one request decoding twice as
// many nearly double the rate; on DeepSeek-V3's H20 example (200 sessions,
// decode 79% of its full-batch capacity) twice the requests decoding add
// about 16% in steady decode, more than 10%, so its 200 sessions bind.
func TestDecodeFlat(t *testing.T) {
	in := testinput.Example(t, pdExample)
	pre, dec := testinput.Pools(t, in.Resolved())
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	s := r.Scenarios[0]
	e := &evaluator{pre: &r.Prefill, dec: &r.Decode}
	n, out := s.InputTokens, s.OutputTokens
	slots := r.Decode.decodeBatch(n, out) * r.Decode.ranks()
	if !e.decodeFlat(n, out, float64(slots)) {
		t.Errorf("all %d slots taken: not flat", slots)
	}
	if e.decodeFlat(n, out, 1) {
		t.Error("one request decoding: flat")
	}
	c := s.RequestsPerS * float64(out) * s.TPOT.Mean
	ctx := float64(n) + float64(out)/2
	a, _ := r.Decode.sm.DecodeAt(int(math.Round(c)), ctx)
	b, _ := r.Decode.sm.DecodeAt(2*int(math.Round(c)), ctx)
	if g := b.OutputTokPerS/a.OutputTokPerS - 1; g < saturationGain || e.decodeFlat(n, out, c) || s.Binding != BindSessions || s.DecodeFlat {
		t.Errorf("%.0f decoding: twice as many add %.0f%%, flat %t, bound by the %s; want more than 10%%, not flat, the sessions",
			c, 100*g, e.decodeFlat(n, out, c), s.Binding)
	}
}
