package slo

import (
	"strings"
	"testing"
)

// qa43 F8: MiniMax-M2.5 on 2 × 8 H20 over one 25 Gbit/s NIC per node, DP
// 16 with EP. Both TTFT SLOs fail (the all-to-all crosses the slow NIC),
// and check said "none of the alternatives tried passes alone" while plan
// lists TP 8 × 2 independent replicas meeting them (139 ms and 317 ms).
// Check tries the replicas plan would (one per node, from the layouts
// plan searches) and names the one that passes, re-simulated.
func TestWhatItWouldTakeTriesReplicas(t *testing.T) {
	in := adviceInput(t, "testdata/qa43-minimax-m2.5-dpep-2x8h20-25g.yaml", nil)
	res := check(&in, Options{Seed: 1})
	seen := 0
	for _, v := range res.SLO {
		if !strings.HasPrefix(v.Name, "TTFT") {
			continue
		}
		seen++
		if v.Verdict != VerdictFail {
			t.Fatalf("%s: %s, want fail (the spec no longer exercises the advice)", v.Name, v.Verdict)
		}
		named := false
		for _, line := range v.WouldPass {
			if strings.HasPrefix(line, "TP=8 DP=1 × 2 independent replicas, one per node (re-simulated: ") {
				named = true
			}
			if strings.HasPrefix(line, "none of the alternatives tried passes alone") {
				t.Errorf("%s: %s", v.Name, line)
			}
		}
		if !named {
			t.Errorf("%s: TP 8 × 2 replicas not named among %q", v.Name, v.WouldPass)
		}
	}
	if seen != 2 {
		t.Fatalf("%d TTFT verdicts, want 2", seen)
	}
}
