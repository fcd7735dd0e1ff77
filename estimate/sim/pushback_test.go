package sim

import "testing"

// TestPushBackKeepsTheQueue drives a long queue through pushBack and
// popFront as the simulator does (bursts in, runs of pops out) next to a
// plain slice, and checks both hold the same requests in the same order
// at every step, and that the queue moves back to the start of its array
// rather than into new arrays (a handful of those, not one per cycle).
func TestPushBackKeepsTheQueue(t *testing.T) {
	var q, base, want []simReq
	next, arrays := 0, 0
	push := func() {
		before := q[:cap(q)]
		q = pushBack(&base, q, simReq{session: next})
		want = append(want, simReq{session: next})
		next++
		if len(before) == 0 || !sameEnd(before, q) {
			arrays++
		}
	}
	for range 100 {
		push()
	}
	for round := range 2000 {
		for range 1 + round%7 {
			push()
		}
		pop := min(len(q), 1+(round+3)%7)
		q, want = popFront(q, pop), want[pop:]
		if len(q) != len(want) {
			t.Fatalf("round %d: %d queued, want %d", round, len(q), len(want))
		}
		for i := range q {
			if q[i].session != want[i].session {
				t.Fatalf("round %d: [%d] is request %d, want %d", round, i, q[i].session, want[i].session)
			}
		}
	}
	if arrays > 12 {
		t.Errorf("%d arrays for a queue of about %d", arrays, len(q))
	}
}
