package pd

import (
	"math"
	"strings"
	"testing"
)

// QA finding (session 38): the DP 8 + EP prefill pool of
// qa38-dsv32-pd-2x8h200 was "utilisation 25%" with "no part near
// saturation", yet its queue (990 ms) exceeded the prefill (742 ms) and
// the TTFT verdicts were bound by "prefill queue" with no reason.
// Utilisation counts filled token slots; the pool's lock-step ranks step
// whenever any of them has a prompt. From the pool's own simulation: it
// steps most of the time (above 85%) with a quarter of its slots filled,
// a rank holds under one prompt of the two its 8,192-token budget
// schedules, and a prompt waits through more than one step: a lock-step
// wait, which the TTFT verdicts name. The GLM-5 spec's prefill pool is one
// TP 8 engine: no lock-step, and its time stepping is its utilisation
// within 10 points (an engine with prompts steps; its steps are about as
// full as the budget allows), the check that the busy time reads the run
// right.
func TestPrefillQueueReason(t *testing.T) {
	r, vs := qa37Eval(t, "testdata/qa38-dsv32-pd-2x8h200.yaml", nil)
	s := r.Scenarios[0]
	q := s.PrefillQueue
	if q == nil {
		t.Fatal("no PrefillQueue")
	}
	if !q.LockStep || q.BusyFraction < 0.85 || s.PrefillUtilization > 0.3 || q.Reason != QueueLockStep ||
		q.PromptsPerRank >= float64(q.BudgetPrompts) || q.BudgetPrompts != 2 || q.QueueSteps <= 1 {
		t.Errorf("dsv32: %+v at utilisation %.2f; want lock-step, stepping > 85%%, slots ≤ 30%%, a lock-step wait", *q, s.PrefillUtilization)
	}
	for _, v := range vs {
		if strings.HasPrefix(v.Name, "TTFT") && (v.Binding != "prefill pool: prefill queue: "+QueueLockStep || !strings.Contains(v.Explanation, "lock-step wait")) {
			t.Errorf("%s: bound by %q: %s", v.Name, v.Binding, v.Explanation)
		}
		if strings.HasPrefix(v.Name, "throughput") && (!strings.Contains(v.Explanation, "token slots filled though stepping") || strings.Contains(v.Explanation, "no pool near saturation")) {
			t.Errorf("%s: %s", v.Name, v.Explanation)
		}
	}
	g, _ := qa37Eval(t, "testdata/qa38-glm5-fp8-pd-2x8h200.yaml", nil)
	gs := g.Scenarios[0]
	if gq := gs.PrefillQueue; gq == nil || gq.LockStep || gq.Reason == QueueLockStep || math.Abs(gq.BusyFraction-gs.PrefillUtilization) > 0.1 {
		t.Errorf("glm5 (one TP 8 prefill engine): %+v at utilisation %.2f", gq, gs.PrefillUtilization)
	}
	// The figures do not move with the reading.
	UsePrefillQueueReason = false
	defer func() { UsePrefillQueueReason = true }()
	off, _ := qa37Eval(t, "testdata/qa38-dsv32-pd-2x8h200.yaml", nil)
	if o := off.Scenarios[0]; o.PrefillQueue != nil || o.TTFT != s.TTFT || o.RequestsPerS != s.RequestsPerS {
		t.Errorf("off: %+v, TTFT %+v vs %+v", o.PrefillQueue, o.TTFT, s.TTFT)
	}
}
