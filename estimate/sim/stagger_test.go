package sim

import "testing"

// A session's cycle counts the other sessions' prefill steps beside its
// own decode steps (TrainCycle), at the sessions that can run: a loop of
// more sessions than RunSlots prices the running ones, and DP ranks in
// lock-step are left to the caller (0).
func TestSessionCycle(t *testing.T) {
	sm := denseModel(t, 1)
	cfg := Config{Sessions: 64, InputTokens: 2000, OutputTokens: 500, MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192}
	got := SessionCycle(sm, cfg)
	d, _ := sm.DecodeAt(64, 2250)
	decodes := 500 * d.TPOTS
	if want := TrainCycle(sm, 64, 2000, 500, 8192); got != want || !(got > decodes) {
		t.Errorf("cycle %.3f s, want TrainCycle's %.3f s, longer than the 500 decode steps alone (%.3f s)", got, want, decodes)
	}
	cfg.MaxNumSeqs = 16
	if got, want := SessionCycle(sm, cfg), TrainCycle(sm, 16, 2000, 500, 8192); got != want {
		t.Errorf("64 sessions, 16 can run: cycle %.3f s, want %.3f s (the running 16's)", got, want)
	}
	if got := SessionCycle(sm, Config{InputTokens: 2000, OutputTokens: 500}); got != 0 {
		t.Errorf("open loop: cycle %.3f s, want 0", got)
	}
	if got := SessionCycle(nil, cfg); got != 0 {
		t.Errorf("no step model: cycle %.3f s, want 0", got)
	}
	if got := SessionCycle(moeModel(t, 8), cfg); got != 0 {
		t.Errorf("MoE DP 8 in lock-step: cycle %.3f s, want 0 (one rank's steps do not price theirs)", got)
	}
	// A dense model's DP ranks are independent engines: each cycles with
	// its share of the sessions.
	cfg.MaxNumSeqs = 1024
	if got, want := SessionCycle(denseModel(t, 4), cfg), TrainCycle(sm, 16, 2000, 500, 8192); got != want {
		t.Errorf("dense DP 4, 64 sessions: cycle %.3f s, want one engine's of 16 sessions, %.3f s", got, want)
	}
}
