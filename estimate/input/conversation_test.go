package input

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestConversationByHand: sessions of 10,000 tokens in turns of 1,000 +
// 1,000 start their turns from histories 0, 2,000, 4,000, 6,000 and 8,000
// (the fifth turn ends at exactly 10,000), then start over; the decode
// context averages the mean history, 4,000, plus the prompt 1,000 and half
// the answer, 500.
func TestConversationByHand(t *testing.T) {
	c := Conversation{Limit: 10000}
	var got []int
	h := 0
	for range 7 {
		h = c.History(h, 1000, 1000)
		got = append(got, h)
		h += 2000
	}
	want := []int{0, 2000, 4000, 6000, 8000, 0, 2000}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("histories %v, want %v", got, want)
		}
	}
	if n := c.Turns(1000, 1000); n != 5 {
		t.Errorf("Turns = %d, want 5", n)
	}
	if m := c.MeanContext(1000, 1000); m != 5500 {
		t.Errorf("MeanContext = %v, want 4000 + 1000 + 500 = 5500", m)
	}
}

// TestMeanContextSessions: the reference's 32,768-token sessions of 1,024
// + 1,024-token turns hold 16 turns; a decoding sequence's mean context is
// 7.5 × 2,048 + 1,024 + 512 = 16,896, where one request alone would say
// 1,536; without session_tokens (or with one no longer than a turn) it
// stays the prompt plus half the answer.
func TestMeanContextSessions(t *testing.T) {
	in := Input{Workload: spec.Workload{InputTokens: 1024, OutputTokens: 1024, SessionTokens: 32768}}
	if got := in.MeanContext(); got != 16896 {
		t.Errorf("MeanContext = %v, want 16896", got)
	}
	for _, st := range []int{0, 2048} {
		in.Workload.SessionTokens = st
		if got := in.MeanContext(); got != 1536 {
			t.Errorf("session_tokens %d: MeanContext = %v, want 1536", st, got)
		}
	}
}
