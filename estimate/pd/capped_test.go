package pd

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/vllm"
)

// capped evaluates c with the client's cap (0: none) and, finite > 0, as
// a finite run of that many requests.
func capped(t *testing.T, c pdCase, clientCap, finite int) (Report, Scenario) {
	t.Helper()
	pre, dec := c.inputs(t)
	for _, in := range []*input.Input{&pre, &dec} {
		in.Workload.BurstRequests = finite
	}
	r, _ := EvaluateCapped(&pre, &dec, false, "", vllm.NixlHandoff(), clientCap, slo.Options{Seed: 1})
	s := r.Scenario(c.in)
	if s == nil {
		t.Fatalf("cap %d: no scenario", clientCap)
	}
	return r, *s
}

// A cap far above the load never binds in either pool's simulation, so
// the capped composition is the uncapped open loop bit for bit (sim's
// TestClientCapAboveConcurrencyChangesNothing: a cap the run never
// reaches changes no draw), steady or finite; the scenario only records
// the cap.
func TestClientCapFarAboveIsUncappedPD(t *testing.T) {
	c := arrivalCase(t, 0.7)
	for _, finite := range []int{0, 300} {
		_, free := capped(t, c, 0, finite)
		r, got := capped(t, c, 1_000_000, finite)
		if got.ClientCap != 1_000_000 || got.CapClosedLoop {
			t.Errorf("finite %d: cap %d, closed loop %t; want the cap recorded, the open loop", finite, got.ClientCap, got.CapClosedLoop)
		}
		got.ClientCap = 0
		if !reflect.DeepEqual(free, got) {
			t.Errorf("finite %d: a cap of 10⁶ changed the scenario:\n%+v\n%+v", finite, free, got)
		}
		said := false
		for _, n := range r.Notes {
			said = said || strings.HasPrefix(n, "client cap: at most 1000000 requests in flight")
		}
		if !said {
			t.Errorf("finite %d: no note of the client cap in %q", finite, r.Notes)
		}
	}
}

// Arrivals at three times the prefill pool's capacity held to C = 16 in
// flight: the client's queue never empties, so every slot freed is taken
// at once, which is the closed loop of 16 sessions (the simulator's
// capped loop above capacity is, sim.Config.MaxWaiting). The scenario is
// the model's own closed loop of 16 (workload.concurrency 16, no rate),
// steady or finite, within 2% (it is that composition: equal), its rate
// the closed loop's — never the arrivals', which no pool sustains — and,
// steady, Little's law holds: 16 sessions ÷ (TTFT + (out − 1) × TPOT),
// within 3%. The uncapped open loop at that rate is unbounded.
func TestClientCapAboveCapacityIsClosedLoopPD(t *testing.T) {
	c := arrivalCase(t, 3)
	const C = 16
	for _, finite := range []int{0, 300} {
		_, free := capped(t, c, 0, finite)
		if finite == 0 && !free.Unbounded {
			t.Errorf("uncapped at 3× the prefill capacity: bounded (%.2f requests/s)", free.RequestsPerS)
		}
		_, got := capped(t, c, C, finite)
		cl := c
		cl.rate, cl.conc = 0, C
		_, want := capped(t, cl, 0, finite)
		if !got.CapClosedLoop || got.ClientCap != C || got.Sessions != C || got.Unbounded {
			t.Fatalf("finite %d: closed loop %t, cap %d, sessions %d, unbounded %t", finite, got.CapClosedLoop, got.ClientCap, got.Sessions, got.Unbounded)
		}
		for name, p := range map[string][2]float64{
			"requests/s": {got.RequestsPerS, want.RequestsPerS},
			"TTFT mean":  {got.TTFT.Mean, want.TTFT.Mean},
			"TTFT p99":   {got.TTFT.P99, want.TTFT.P99},
			"TPOT mean":  {got.TPOT.Mean, want.TPOT.Mean},
		} {
			if math.Abs(p[0]/p[1]-1) > 0.02 {
				t.Errorf("finite %d: %s %.4g, the closed loop of %d sessions %.4g", finite, name, p[0], C, p[1])
			}
		}
		if got.RequestsPerS >= c.rate {
			t.Errorf("finite %d: %.2f requests/s, not below the arrivals' %.2f", finite, got.RequestsPerS, c.rate)
		}
		if finite == 0 {
			cycle := got.TTFT.Mean + float64(got.OutputTokens-1)*got.TPOT.Mean
			if l := C / cycle; math.Abs(got.RequestsPerS/l-1) > 0.03 {
				t.Errorf("%.3f requests/s, Little's law gives %d ÷ %.3f s = %.3f", got.RequestsPerS, C, cycle, l)
			}
		}
		if e := RateExplanation(&got); got.Binding != BindPrefill && got.Binding != BindDecode && !strings.Contains(e, "client's cap of 16") {
			t.Errorf("finite %d: rate explained as %q", finite, e)
		}
	}
}

// A cap just above the mean in flight (Little's law on the uncapped
// loop): the loop still serves its arrivals (the rate), not as the closed
// loop, and the cap only cuts the pools' peaks, so no TTFT or TPOT
// percentile rises above the uncapped loop's; the prefill pool's queue,
// whose peaks the cap cuts, shrinks.
func TestClientCapNearLoadCutsPeaksPD(t *testing.T) {
	c := arrivalCase(t, 0.8)
	_, free := capped(t, c, 0, 0)
	l := inFlight(free)
	C := int(math.Ceil(1.1 * l))
	_, got := capped(t, c, C, 0)
	t.Logf("uncapped: %.2f in flight, TTFT mean %.4f p99 %.4f queue %.4f, TPOT %.5f; cap %d: TTFT mean %.4f p99 %.4f queue %.4f, TPOT %.5f",
		l, free.TTFT.Mean, free.TTFT.P99, free.TTFTParts.PrefillQueueS, free.TPOT.Mean, C, got.TTFT.Mean, got.TTFT.P99, got.TTFTParts.PrefillQueueS, got.TPOT.Mean)
	if got.CapClosedLoop || got.RequestsPerS != c.rate || got.Unbounded {
		t.Fatalf("cap %d at %.2f in flight: closed loop %t, %.3f requests/s (arrivals %.3f), unbounded %t", C, l, got.CapClosedLoop, got.RequestsPerS, c.rate, got.Unbounded)
	}
	if got.TTFT.Mean > free.TTFT.Mean || got.TTFT.P99 > free.TTFT.P99 || got.TPOT.P99 > free.TPOT.P99*1.001 {
		t.Errorf("cap %d raised a latency: TTFT mean %.4f p99 %.4f, TPOT p99 %.5f; uncapped %.4f %.4f %.5f", C, got.TTFT.Mean, got.TTFT.P99, got.TPOT.P99, free.TTFT.Mean, free.TTFT.P99, free.TPOT.P99)
	}
	if got.TTFTParts.PrefillQueueS >= free.TTFTParts.PrefillQueueS {
		t.Errorf("cap %d: prefill queue %.4f s, not below the uncapped %.4f", C, got.TTFTParts.PrefillQueueS, free.TTFTParts.PrefillQueueS)
	}
}

// poolCaps by hand: C = 20 at 2 requests/s; hops 10 ms, transfer 40 ms,
// 100 ms of decode admission of which the decode run's own queue is 50:
// 100 ms between the pools. The prefill pool's simulation gets
// 20 − 2 × (0.1 + the decode run's 5 s) = 9.8 → 10 slots, the decode
// pool's 20 − 2 × (the prefill run's 0.5 s + 0.1) = 18.8 → 19; a cap the
// rest of the system holds entirely leaves one.
func TestPoolCapsLittle(t *testing.T) {
	s := Scenario{RequestsPerS: 2, TTFTParts: TTFTParts{RouterS: 0.01, TransferS: 0.04, DecodeAdmitS: 0.1}}
	pr := sim.Result{E2E: sim.Percentiles{Mean: 0.5}}
	dr := sim.Result{E2E: sim.Percentiles{Mean: 5}, TTFTParts: sim.TTFTParts{QueueS: 0.05}}
	if p, d := poolCaps(20, s, pr, dr); p != 10 || d != 19 {
		t.Errorf("poolCaps: prefill %d, decode %d; want 10 and 19", p, d)
	}
	if p, d := poolCaps(5, s, pr, dr); p != 1 || d != 4 {
		t.Errorf("poolCaps(5): prefill %d, decode %d; want 1 and 4", p, d)
	}
}
