package plan

import "testing"

// TestPaysOrMatches: the P/D line says "pays" only for an edge the
// simulations' own seed spread cannot explain (more SLOs met, or more than
// tieShare more output per GPU); a 0.16% edge at the same SLOs (313.8
// against 313.3 per GPU, the Qwen3.5 P/D spec of qa39_test.go) is a match.
func TestPaysOrMatches(t *testing.T) {
	mk := func(perGPU float64, passes int) *evaluated {
		e := &evaluated{}
		e.PerGPU = perGPU
		for i := 0; i < 3; i++ {
			v := verdictFail
			if i < passes {
				v = verdictPass
			}
			e.SLO = append(e.SLO, SLOResult{Verdict: v})
		}
		return e
	}
	for _, c := range []struct {
		p, like *evaluated
		want    string
	}{
		{mk(313.8, 3), mk(313.3, 3), "only matches colocated"},
		{mk(330, 3), mk(313.3, 3), "pays"},
		{mk(300, 3), mk(313.3, 2), "pays"},
		{mk(313.8, 3), nil, "pays"},
	} {
		if got := paysOrMatches(c.p, c.like); got != c.want {
			t.Errorf("P/D %.1f per GPU against %v: %q, want %q", c.p.PerGPU, c.like, got, c.want)
		}
	}
}
