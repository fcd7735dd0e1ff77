package plan

import "testing"

// qa45b F2: the ranking runs put every DP 32 variant of DeepSeek-V4-Pro on
// an NVL72 above check's figure, so three confirmations left #1
// unconfirmed. toConfirm picks #1 and every group leader ranked above the
// spec's own settings that is not confirmed yet, in rank order; nothing
// below the spec's own place, and only #1 when the own settings are not
// among the settled places.
func TestToConfirmPicksEveryLeaderAboveTheSpecsOwn(t *testing.T) {
	mk := func(tp int, own, confirmed bool) *evaluated {
		e := &evaluated{}
		e.Settings.TP, e.Own, e.Confirmed = tp, own, confirmed
		return e
	}
	a, b, b2, c, own, d := mk(1, false, false), mk(2, false, true), mk(2, false, false), mk(3, false, false), mk(4, true, true), mk(5, false, false)
	got := toConfirm([]*evaluated{a, b, b2, c, own, d}, 4)
	if len(got) != 2 || got[0] != a || got[1] != c {
		t.Errorf("toConfirm = %v, want #1 and the unconfirmed leader above the spec's own (b is confirmed, b2 is not its group's leader, d is below own)", got)
	}
	if got := toConfirm([]*evaluated{a, b, b2, c, own, d}, 1); len(got) != 1 || got[0] != a {
		t.Errorf("toConfirm(n=1) = %v, want #1 only", got)
	}
	// no own settings among the settled places: #1 alone
	if got := toConfirm([]*evaluated{a, c, d}, 4); len(got) != 1 || got[0] != a {
		t.Errorf("without own: %v, want #1 only", got)
	}
	// #1 confirmed and the spec's own second: nothing left
	if got := toConfirm([]*evaluated{b, own, a}, 4); len(got) != 0 {
		t.Errorf("#1 confirmed, own #2: %v, want none", got)
	}
}
