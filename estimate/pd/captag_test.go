package pd

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestCapBoundThroughputTagged: a P/D throughput verdict whose text says
// "bound by the client's cap" (a capped open loop run as the cap's closed
// loop, CapClosedLoop) is tagged slo.BindClientCap as the colocated one is
// (slo verdict.go), not "sessions"; an uncapped closed loop stays
// "sessions".
func TestCapBoundThroughputTagged(t *testing.T) {
	dec := &input.Input{}
	dec.SLO.ThroughputTokensPerS, dec.SLO.ThroughputCounts = 5000, "output"
	dec.Workload.InputTokens = 5000
	sc := Scenario{InputTokens: 5000, OutputTokens: 250, Sessions: 8, ClientCap: 8, RatePerS: 100, CapClosedLoop: true,
		Binding: BindSessions, RequestsPerS: 3.5, OutputTokPerS: 876}
	for _, c := range []struct {
		capped bool
		want   string
	}{{true, slo.BindClientCap}, {false, BindSessions}} {
		s := sc
		s.CapClosedLoop = c.capped
		if !c.capped {
			s.ClientCap, s.RatePerS = 0, 0
		}
		r := &Report{Scenarios: []Scenario{s}}
		v := verdicts(dec, r)
		if len(v) == 0 {
			t.Fatal("no verdict")
		}
		if v[0].Binding != c.want {
			t.Errorf("capped %v: tagged %q, want %q (%s)", c.capped, v[0].Binding, c.want, v[0].Explanation)
		}
		if says := strings.Contains(v[0].Explanation, "bound by the client's cap"); says != c.capped {
			t.Errorf("capped %v: explanation %q", c.capped, v[0].Explanation)
		}
	}
}
