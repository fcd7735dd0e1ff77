package pd

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/vllm"
)

// slowNICAt is testdata/pdleft-llama8b-slownic.yaml (one Llama-3.1-8B
// prefill engine, one decode engine, 10 Gbit/s NICs) at gbit Gbit/s and n
// sessions, evaluated.
func slowNICAt(t *testing.T, gbit, n string) Scenario {
	t.Helper()
	y, err := os.ReadFile("testdata/pdleft-llama8b-slownic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(y), "bandwidth_gbit_per_s: 10,", "bandwidth_gbit_per_s: "+gbit+",", 1)
	s = strings.Replace(s, "concurrency: 2,", "concurrency: "+n+",", 1)
	in := testinput.FromYAML(t, "pdleft-llama8b-slownic.yaml", s)
	pre, dec := testinput.Pools(t, in.Resolved())
	r, _ := Evaluate(&pre, &dec, false, "vllm-router", slo.Options{Seed: 1})
	return r.Scenarios[0]
}

// little is what a closed loop's figures hold of its sessions:
// rate × (TTFT + (out − 1) × TPOT) ÷ N − 1.
func little(s Scenario) float64 {
	return s.RequestsPerS*(s.TTFT.Mean+float64(s.OutputTokens-1)*s.TPOT.Mean)/float64(s.Sessions) - 1
}

// UseClosedLoopNICMVA (built and off): a closed loop whose NICs are busy.
// The slow-NIC spec's hand-off is 8,000 × 131,072 B = 1,048,576,000 B at
// 1.25 GB/s: w = 0.838861 s on the wire (+ 20 µs latency), and one NIC a
// side carries 1.25e9 ÷ 1,048,576,000 = 1.19209 requests/s, so each
// request's NIC time is D = w. Off, the transfer is the open stream's
// w ÷ (1 − u), and the loop misses Little's law (logged: −21% for one
// session, +46% for two). On:
//   - Little's law holds (within 0.1%) wherever no pool binds;
//   - one session never waits: its transfer is w + latency exactly;
//   - two sessions, derived by hand from the loop's own cycle away from the
//     NICs Z (its TTFT less the transfer, and 199 × TPOT): R(1) = w, X(1) =
//     1 ÷ (Z + 20 µs + w), Q(1) = X(1)·w; R(2) = w + D·Q(1), X(2) = 2 ÷
//     (Z + 20 µs + R(2)); and no transfer longer than two transfers' wire
//     time (its other session's at most);
//   - fast NICs (400 Gbit/s) move the rate by under 1%.
func TestClosedLoopNICMVA(t *testing.T) {
	defer func(v bool) { UseClosedLoopNICMVA = v }(UseClosedLoopNICMVA)
	const w, lat = 1_048_576_000 / 1.25e9, 20e-6
	for _, n := range []string{"1", "2"} {
		UseClosedLoopNICMVA = false
		s := slowNICAt(t, "10", n)
		t.Logf("off, %s sessions: transfer %.3f s, rate %.3f/s, TTFT p99 %.2f s, Little's law %+.1f%%", n, s.Transfer.TimeS, s.RequestsPerS, s.TTFT.P99, 100*little(s))
	}
	UseClosedLoopNICMVA = true
	for _, c := range []struct{ gbit, n string }{{"10", "1"}, {"10", "2"}, {"10", "8"}, {"25", "2"}, {"25", "8"}} {
		s := slowNICAt(t, c.gbit, c.n)
		t.Logf("on, %s Gbit/s, %s sessions: transfer %.3f s (NICs %.0f%% busy), rate %.3f/s, TTFT mean %.3f s p99 %.2f s, bound by %s, Little's law %+.2f%%",
			c.gbit, c.n, s.Transfer.TimeS, 100*s.Transfer.Utilization, s.RequestsPerS, s.TTFT.Mean, s.TTFT.P99, s.Binding, 100*little(s))
		if math.Abs(little(s)) > 0.001 || s.Transfer.Saturated {
			t.Errorf("%s Gbit/s, %s sessions: Little's law %+.2f%% (saturated %t)", c.gbit, c.n, 100*little(s), s.Transfer.Saturated)
		}
	}
	one := slowNICAt(t, "10", "1")
	if math.Abs(one.Transfer.TimeS-(w+lat)) > 1e-9 {
		t.Errorf("one session's transfer %.6f s, want w + latency = %.6f s", one.Transfer.TimeS, w+lat)
	}
	two := slowNICAt(t, "10", "2")
	z := two.TTFT.Mean - two.Transfer.TimeS + float64(two.OutputTokens-1)*two.TPOT.Mean
	x1 := 1 / (z + lat + w)
	r2 := w + w*x1*w
	x2 := 2 / (z + lat + r2)
	if math.Abs(two.Transfer.TimeS-(lat+r2)) > 1e-6 || math.Abs(two.RequestsPerS/x2-1) > 1e-6 {
		t.Errorf("two sessions: transfer %.6f s, rate %.6f/s; by hand (Z = %.4f s) %.6f s, %.6f/s", two.Transfer.TimeS, two.RequestsPerS, z, lat+r2, x2)
	}
	if m := handoffMax(two.Transfer.handoff()); m > lat+2*w+1e-9 || m <= lat+w {
		t.Errorf("two sessions: the longest hand-off %.4f s, want within (w, 2w] + latency = %.4f s", m, lat+2*w)
	}
	for _, n := range []string{"1", "2", "8"} {
		UseClosedLoopNICMVA = false
		a := slowNICAt(t, "400", n)
		UseClosedLoopNICMVA = true
		b := slowNICAt(t, "400", n)
		if math.Abs(b.RequestsPerS/a.RequestsPerS-1) > 0.01 || math.Abs(b.TTFT.Mean/a.TTFT.Mean-1) > 0.01 {
			t.Errorf("400 Gbit/s, %s sessions: rate %.4f → %.4f, TTFT %.4f → %.4f s", n, a.RequestsPerS, b.RequestsPerS, a.TTFT.Mean, b.TTFT.Mean)
		}
	}
}

// TestClosedRatePools: UseClosedRatePools runs the pools again at the
// loop's rate X(N). On the slow-NIC spec at 10 Gbit/s (8 sessions) the
// pools' first runs priced the hand-off by the open formula at their own
// rate and ran at 2.57 (decode) and 2.51 (prefill) requests/s while the
// loop serves 1.19; at 25 Gbit/s the prefill run served 0.07 of the loop's
// 2.51. Re-run with the loop's hand-off, each pool's run serves the loop's
// rate within 5% (the runs' finite samples), and the loop keeps Little's
// law.
func TestClosedRatePools(t *testing.T) {
	for _, gbit := range []string{"10", "25"} {
		y, err := os.ReadFile("testdata/pdleft-llama8b-slownic.yaml")
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(y), "bandwidth_gbit_per_s: 10,", "bandwidth_gbit_per_s: "+gbit+",", 1)
		s = strings.Replace(s, "concurrency: 2,", "concurrency: 8,", 1)
		in := testinput.FromYAML(t, "pdleft-llama8b-slownic.yaml", s)
		pre, dec := testinput.Pools(t, in.Resolved())
		var r Report
		e := newEvaluator(&r, &pre, &dec, false, "vllm-router", false, vllm.NixlHandoff(), 0, slo.Options{Seed: 1})
		sc, pr, dr := e.compose(dec.Workload.InputTokens)
		x := sc.RequestsPerS
		decRate, preRate := dr.OutputTokPerS/float64(sc.OutputTokens), pr.OutputTokPerS // one output token per prefill request
		t.Logf("%s Gbit/s: loop %.4f/s, decode run %.4f/s, prefill run %.4f/s, Little's law %+.2f%%", gbit, x, decRate, preRate, 100*little(sc))
		if math.Abs(decRate/x-1) > 0.05 || math.Abs(preRate/x-1) > 0.05 {
			t.Errorf("%s Gbit/s: the pools ran at %.4f (decode) and %.4f (prefill) requests/s, the loop serves %.4f", gbit, decRate, preRate, x)
		}
		if math.Abs(little(sc)) > 0.001 {
			t.Errorf("%s Gbit/s: Little's law %+.2f%%", gbit, 100*little(sc))
		}
	}
}
