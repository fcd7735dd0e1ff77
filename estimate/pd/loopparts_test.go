package pd

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// loopScenario is one scenario the loop properties are checked on, and
// what kind of load it is meant to exercise.
type loopScenario struct {
	name string
	kind string
	s    Scenario
}

// qa41File is QA session 41's spec: GLM-5-FP8, one TP 8 instance per
// pool on 2 × 8 H200 with NIXL, 64 sessions of 16,000 + 1,000 tokens; the
// decode pool's KV cache holds 20 of them at once.
const qa41File = "testdata/qa41-glm5-fp8-pd-2x8h200.yaml"

// qaAt evaluates a QA spec at n sessions (0: as written).
func qaAt(t *testing.T, file string, n int) Scenario {
	t.Helper()
	r, _ := qa37Eval(t, file, func(pre, dec *input.Input) {
		if n > 0 {
			pre.Workload.Concurrency, dec.Workload.Concurrency = n, n
		}
	})
	return r.Scenarios[0]
}

// loopScenarios are closed and open loops of every kind of binding: the
// decode pool's KV cache (QA 41 at 32–128 sessions, QA 38's GLM-5 at 512),
// the prefill pool (the boundary example at 128 sessions), the NICs (the
// slow-NIC spec at 10 Gbit/s), the sessions (the QA specs at a few
// sessions), and the random property cases (closed and Poisson loads).
func loopScenarios(t *testing.T) []loopScenario {
	t.Helper()
	var out []loopScenario
	add := func(name, kind string, s Scenario) { out = append(out, loopScenario{name, kind, s}) }
	for _, n := range []int{4, 32, 64, 128} {
		add(fmt.Sprintf("qa41 N=%d", n), "decode KV", qaAt(t, qa41File, n))
	}
	add("qa38-glm5 N=512", "many sessions", qaAt(t, "testdata/qa38-glm5-fp8-pd-2x8h200.yaml", 512))
	for _, c := range qa37 {
		add(c.file, "as written", qaAt(t, c.file, 0))
	}
	for _, f := range []string{"testdata/qa38-dsv32-pd-2x8h200.yaml", "testdata/qa39-qwen35-pd-nixl-2x8b200.yaml", "testdata/newuser40-glm5-fp8-pd-2x8h200.yaml"} {
		add(f, "as written", qaAt(t, f, 0))
	}
	for _, n := range []string{"2", "128"} {
		add("boundary N="+n, "prefill", boundaryAt(t, n).Scenarios[0])
	}
	for _, n := range []string{"2", "16"} {
		add("slow NICs N="+n, "NICs", slowNICAt(t, "10", n))
	}
	for _, c := range propertyCases() {
		add(fmt.Sprintf("%s in=%d out=%d N=%d rate=%.2f", c.name, c.in, c.out, c.conc, c.rate), "random", evaluate(t, c, nil))
	}
	return out
}

// The TTFT parts add up to the mean TTFT they decompose, in every
// scenario with a TTFT (QA session 41: "mean 36.855 s = prefill queue
// 6.224 + … + API servers 0.045" whose parts summed to 14.54 s: the
// prefill simulation's analytic wait of the sessions it did not simulate
// was in its mean and in no part); and every closed loop holds Little's
// law, rate × (TTFT + (out − 1) × TPOT) = sessions, within 3% (5% when the
// prefill pool binds: its own simulation's draws, TestClosedLoopLittleSeeds).
// QA session 41's loop held 46.6 of its 64 sessions.
func TestPropertyTTFTPartsAndLittle(t *testing.T) {
	kinds := map[string]int{}
	for _, c := range loopScenarios(t) {
		s := c.s
		if s.Unbounded || s.TTFT.Mean <= 0 {
			t.Logf("%s: unbounded or no TTFT (bound by the %s)", c.name, s.Binding)
			continue
		}
		kinds[c.kind]++
		p := s.TTFTParts
		if d := p.Sum() - s.TTFT.Mean; math.Abs(d) > 1e-6*max(1, s.TTFT.Mean) {
			t.Errorf("%s: TTFT parts sum to %.4f s, the mean is %.4f s (%+.4f s unaccounted): %+v", c.name, p.Sum(), s.TTFT.Mean, -d, p)
		}
		for name, v := range map[string]float64{"prefill queue": p.PrefillQueueS, "prefill": p.PrefillS, "decode admission": p.DecodeAdmitS,
			"transfer": p.TransferS, "first decode step": p.FirstDecodeS, "API servers": p.FrontendS} {
			if v < 0 {
				t.Errorf("%s: %s %.4g s < 0", c.name, name, v)
			}
		}
		if s.Sessions <= 0 || s.Burst > 0 {
			continue
		}
		tol := 0.03
		if s.Binding == BindPrefill {
			tol = 0.05
		}
		held := little(s)
		t.Logf("%s (%s): %.4f requests/s, TTFT %.3f s, TPOT %.2f ms: Little's law %+.2f%% of %d sessions (bound by the %s)",
			c.name, c.kind, s.RequestsPerS, s.TTFT.Mean, 1e3*s.TPOT.Mean, 100*held, s.Sessions, s.Binding)
		if math.Abs(held) > tol {
			t.Errorf("%s: Little's law holds %.2f of %d sessions (%+.1f%%), beyond ±%.0f%%", c.name, (1+held)*float64(s.Sessions), s.Sessions, 100*held, 100*tol)
		}
	}
	for _, k := range []string{"decode KV", "prefill", "NICs", "random"} {
		if kinds[k] == 0 {
			t.Errorf("no %s scenario with a TTFT was checked", k)
		}
	}
}

// QA session 41: GLM-5-FP8's decode pool holds 20 of the 64 sessions at
// once (its KV cache: 32.94 GiB a GPU for 17,000 × 100,152 B a session).
// Decode binds at the rate its 20 slots serve, and by Little's law the
// other sessions wait, for its KV blocks: the scenario names the decode
// pool's KV cache as what binds, its TTFT is sessions ÷ rate less the
// decoding after the first token, and the decode admission is the
// largest part of it (the prefill pool, 73% busy at that rate, queues
// prompts for about a second, not the 6–22 s its simulation counted when
// it queued the 22 sessions it did not simulate as always waiting).
func TestQA41DecodeKVHoldsTheSessions(t *testing.T) {
	r, verdicts := qa37Eval(t, qa41File, nil)
	s := r.Scenarios[0]
	if s.Binding != BindDecode || !s.DecodeKVBound || s.DecodeSlots != 20 || s.Sessions != 64 {
		t.Fatalf("bound by the %s (KV-bound %v, %d decode slots) for %d sessions, want the decode pool's KV cache, 20 slots, 64 sessions",
			s.Binding, s.DecodeKVBound, s.DecodeSlots, s.Sessions)
	}
	want := float64(s.Sessions)/s.RequestsPerS - float64(s.OutputTokens-1)*s.TPOT.Mean
	if math.Abs(s.TTFT.Mean/want-1) > 0.01 {
		t.Errorf("TTFT mean %.2f s, Little's law gives %d ÷ %.3f − 999 × %.1f ms = %.2f s", s.TTFT.Mean, s.Sessions, s.RequestsPerS, 1e3*s.TPOT.Mean, want)
	}
	p := s.TTFTParts
	if b, _ := ttftBinding(p); b != "decode pool: decode admission" || p.PrefillQueueS > 3 {
		t.Errorf("largest part %s, prefill queue %.2f s: want the decode admission, the prefill queue about a second (%+v)", b, p.PrefillQueueS, p)
	}
	if s.LoopQueueS <= 0 || s.LoopQueueS > p.DecodeAdmitS {
		t.Errorf("Little's law's decode wait %.2f s, want within the decode admission %.2f s", s.LoopQueueS, p.DecodeAdmitS)
	}
	// The prompts finished on the prefill pool wait there, leased, for as
	// long as they wait for the decode pool's KV: more than its KV cache
	// holds (the lease's risk, said, not modelled).
	if s.Lease.Fits {
		t.Errorf("the prefill pool's lease fits (%.1f prompts held, %.0f of %d tokens): the decode admission's wait holds them", s.Lease.HeldRequests, s.Lease.NeededTokens, s.Lease.KVTokensPerRank)
	}
	noted := false
	for _, n := range r.Notes {
		noted = noted || strings.HasPrefix(n, "decode admission by Little's law")
	}
	if !noted {
		t.Error("no note says the decode admission is Little's law's")
	}
	x := RateExplanation(&s)
	if !strings.Contains(x, "decode pool's KV cache") || !strings.Contains(x, "20 of the 64 sessions") {
		t.Errorf("the rate's explanation does not name the decode pool's KV cache and its 20 of 64 sessions: %s", x)
	}
	found := false
	for _, v := range verdicts {
		if strings.HasPrefix(v.Name, "TTFT") {
			found = true
			if v.Binding != "decode pool: decode admission: the decode pool's KV cache" || !strings.Contains(v.Explanation, "20 of the 64 sessions") {
				t.Errorf("%s: binding %q, explanation %q", v.Name, v.Binding, v.Explanation)
			}
		}
	}
	if !found {
		t.Error("no TTFT verdict")
	}
}
