package pd

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestOpenLoadPD: an open loop's TTFT waits in the busier pool's queue —
// the prefill pool's (its arrival rate over the prefill capacity,
// compose.go) unless the decode pool is busier — and the rest of the mean
// TTFT is its idle part: 0.9 s mean with 0.6 s of prefill queue is 0.3 s
// idle at utilisation 0.9 of 45/0.9 = 50 requests/s. A closed loop or a
// burst has no such load.
func TestOpenLoadPD(t *testing.T) {
	sc := Scenario{RatePerS: 45, PrefillUtilization: 0.9, DecodeUtilization: 0.5}
	sc.TTFT.Mean = 0.9
	sc.TTFTParts = TTFTParts{PrefillQueueS: 0.6, DecodeAdmitS: 0.05}
	l := openLoad(&sc)
	if l.Utilization != 0.9 || l.Part != "prefill pool" || math.Abs(l.IdleS-0.3) > 1e-12 || math.Abs(l.SustainableRatePerS-50) > 1e-9 {
		t.Errorf("prefill-bound open loop: %+v", l)
	}
	sc.DecodeUtilization = 0.95
	if l := openLoad(&sc); l.Utilization != 0.95 || l.Part != "decode pool" || math.Abs(l.IdleS-0.85) > 1e-12 {
		t.Errorf("decode-bound open loop: %+v", l)
	}
	closed := Scenario{Sessions: 32, PrefillUtilization: 0.9}
	burst := Scenario{RatePerS: 45, Burst: 500, PrefillUtilization: 0.9}
	for _, s := range []Scenario{closed, burst} {
		if l := openLoad(&s); l != (slo.Load{}) {
			t.Errorf("%+v: load %+v, want none", s, l)
		}
	}
}
