package sim

import (
	"math"
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// prefills runs cfg and returns the prompt tokens each step prefilled
// (every prompt fits one step's budget, so each is one step of its own).
func prefills(cfg Config) ([]int, Result) {
	var got []int
	step := cfg.Step
	cfg.Step = func(l []perf.RankLoad) float64 {
		for _, r := range l {
			if r.PrefillTokens > 0 {
				got = append(got, int(r.PrefillTokens))
			}
		}
		return step(l)
	}
	res := Run(cfg)
	return got, res
}

// TestSessionContextSequence: one session of 10,000-token conversations in
// turns of 1,000 + 1,000 tokens, without prefix caching, prefills its
// whole prompt each turn: history 0, 2,000, 4,000, 6,000, 8,000 plus the
// 1,000-token input (input.Conversation's rule, by hand), then starts a
// new conversation. A finite run starts every conversation at its first
// turn.
func TestSessionContextSequence(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 1 << 20, InputTokens: 1000, OutputTokens: 1000,
		Sessions: 1, Pool: 7, SessionTokens: 10000, Seed: 1}
	got, _ := prefills(cfg)
	want := []int{1000, 3000, 5000, 7000, 9000, 1000, 3000}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("prefilled %v, want %v", got, want)
	}
}

// TestSessionHistoryCached: with prefix caching and a pool that holds every
// session's history, a turn prefills only what its session's last turn
// left uncached: the new input plus the history's last partial block. The
// last turn held its prompt and all but its last answer token (that
// token's KV is never computed), hist − 1 tokens, of which whole blocks of
// 16 are cached: hist is a multiple of 16 here, so 16 tokens of it are
// recomputed, and each later turn prefills 1,000 + 16 tokens. Three
// sessions on one rank, conversations of 5 turns: of 30 turns, 6 are
// first turns (1,000 tokens each, nothing to find) and 24 find their
// history: 6 × 1,000 + 24 × 1,016 = 30,384 tokens prefilled in all (the
// three sessions' prompts share steps).
func TestSessionHistoryCached(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 1 << 20, KVTokensPerRank: 1 << 20, BlockSize: 16,
		InputTokens: 1000, OutputTokens: 1000, Sessions: 3, Pool: 30, SessionTokens: 10000, PrefixCaching: true, Seed: 1}
	got, res := prefills(cfg)
	if n := sum(got); n != 6*1000+24*1016 {
		t.Fatalf("prefilled %v = %d tokens, want 6 × 1,000 + 24 × 1,016 = 30,384", got, n)
	}
	// histories 2,000 … 8,000, six of each, 16 tokens of each recomputed
	if want := 1 - 24*16/120000.0; math.Abs(res.HistoryReused-want) > 1e-12 {
		t.Errorf("HistoryReused %v, want 1 − 24 × 16 / 120,000 = %v", res.HistoryReused, want)
	}
	cfg.PrefixCaching = false
	off, resOff := prefills(cfg)
	if resOff.HistoryReused != 0 {
		t.Errorf("HistoryReused %v without prefix caching", resOff.HistoryReused)
	}
	if sum(off) <= sum(got) {
		t.Errorf("without prefix caching %d prompt tokens prefilled, with it %d: the cache saves nothing", sum(off), sum(got))
	}
}

func sum(v []int) (n int) {
	for _, x := range v {
		n += x
	}
	return n
}

// TestSessionHistoryOtherRank: the history is cached on the rank that
// served the last turn only; vLLM's DP balancer routes by counts, so a
// turn that lands on the other rank recomputes it. Two ranks, two
// sessions, prefix caching, ample KV: every turn after the first either
// finds its history (1,016 tokens prefilled) or recomputes it all (the
// history plus 1,000), and no other size occurs.
func TestSessionHistoryOtherRank(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 1 << 20, KVTokensPerRank: 1 << 20, BlockSize: 16,
		InputTokens: 1000, OutputTokens: 1000, Sessions: 2, Pool: 40, SessionTokens: 10000, PrefixCaching: true, Seed: 3, StaggerS: 5}
	got, _ := prefills(cfg)
	hits, misses := 0, 0
	for i, n := range got {
		switch {
		case n == 1016:
			hits++
		case n > 1000 && (n-1000)%2000 == 0:
			misses++
		case n != 1000:
			t.Fatalf("prefill %d of %v: %d tokens: neither a hit (1,016) nor a whole history + 1,000", i, got, n)
		}
	}
	if hits == 0 || misses == 0 {
		t.Errorf("%d hits and %d recomputed histories in %v: the case should show both", hits, misses, got)
	}
}

// TestSessionsWithoutHistoryUnchanged: session_tokens no larger than a
// turn, or an open loop, carries no history: the run is bit for bit the
// one without session_tokens.
func TestSessionsWithoutHistoryUnchanged(t *testing.T) {
	base := Config{Step: func(l []perf.RankLoad) float64 { return 0.005 + 1e-6*l[0].PrefillTokens + 1e-4*l[0].DecodeSeqs }, DP: 1, MaxNumSeqs: 16,
		MaxNumBatchedTokens: 2048, KVTokensPerRank: 20000, BlockSize: 16, InputTokens: 1000, OutputTokens: 200, Sessions: 24,
		Requests: 300, Warmup: 50, Seed: 7, StaggerS: 1}
	want := Run(base)
	c := base
	c.SessionTokens, c.PrefixCaching = 1200, true
	if got := Run(c); !reflect.DeepEqual(got, want) {
		t.Errorf("session_tokens = input + output changed the run:\n%+v\nwant\n%+v", got, want)
	}
	open := base
	open.Sessions, open.ArrivalRatePerS = 0, 20
	wantOpen := Run(open)
	open.SessionTokens, open.PrefixCaching = 100000, true
	if got := Run(open); !reflect.DeepEqual(got, wantOpen) {
		t.Errorf("session_tokens changed an open loop")
	}
}

// TestSessionsAdmissionLimited: a pool that holds a third of the
// sessions' mean context admits about a third of them, and the
// throughput is the decode curve's at the sessions that fit. Twelve
// sessions of 1,000-token conversations in turns of 100 + 100 tokens:
// 5 turns, a decoding turn's mean context 400 + 100 + 50 = 550
// (input.Conversation.MeanContext), so 12 × 550 / 3 = 2,200 tokens of KV
// hold 2,200 / 550 = 4 sessions. The step costs 10 ms plus 1 ms per
// decoding sequence (prefill nearly free), so 4 running sequences make
// 4 / 14 ms = 286 output tokens/s; the 12 sessions would make 12 / 22 ms
// = 545.
func TestSessionsAdmissionLimited(t *testing.T) {
	conv := input.Conversation{Limit: 1000}
	fit := 12 * conv.MeanContext(100, 100) / 3 / conv.MeanContext(100, 100)
	want := fit / (0.010 + 0.001*fit)
	cfg := Config{Step: func(l []perf.RankLoad) float64 { return 0.010 + 0.001*l[0].DecodeSeqs + 1e-8*l[0].PrefillTokens }, DP: 1,
		MaxNumSeqs: 64, MaxNumBatchedTokens: 4096, KVTokensPerRank: 2200, BlockSize: 1, InputTokens: 100, OutputTokens: 100,
		Sessions: 12, SessionTokens: 1000, PrefixCaching: true, Requests: 4000, Warmup: 200, Seed: 5, StaggerS: 1}
	res := Run(cfg)
	t.Logf("%.0f output tokens/s, %.2f running, %.2f waiting (%.2f for KV), %d preemptions; curve at %.0f sessions: %.0f",
		res.OutputTokPerS, res.MeanRunning, res.MeanWaiting, res.MeanKVWaiting, res.Preemptions, fit, want)
	if math.Abs(res.OutputTokPerS/want-1) > 0.15 {
		t.Errorf("throughput %.0f tokens/s, want the curve's %.0f at the %.0f sessions that fit (±15%%)", res.OutputTokPerS, want, fit)
	}
	if math.Abs(res.MeanRunning/fit-1) > 0.15 {
		t.Errorf("%.2f running on average, want about the %.0f that fit", res.MeanRunning, fit)
	}
	if res.MeanKVWaiting < 1 {
		t.Errorf("%.2f requests waiting for KV on average: the pool should hold most sessions back", res.MeanKVWaiting)
	}
	cfg.SessionTokens = 0 // requests of 200 tokens alone: 11 fit, all 12 nearly run
	if alone := Run(cfg); alone.OutputTokPerS < 1.5*res.OutputTokPerS {
		t.Errorf("without history %.0f tokens/s against %.0f with it: the histories' KV should bind", alone.OutputTokPerS, res.OutputTokPerS)
	}
}

// TestSessionTurnsFollowConversation: the simulator's turns take their
// histories from input.Conversation.History, so a steady run's sessions
// decode, on average over their turns, over the decode curve's mean
// context (input.Input.MeanContext): each turn of a session is drawn
// uniformly at first and then follows the rule, and the simulated
// decode steps of a turn see its history + input + 0 … output − 2
// generated tokens (the first answer token comes from the prefill), one
// token less than the curve's input + output / 2.
func TestSessionTurnsFollowConversation(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 1, InputTokens: 1024, OutputTokens: 1024, Sessions: 64, SessionTokens: 32768, Seed: 9}
	s := newSimulator(cfg)
	conv := input.Conversation{Limit: 32768}
	var sumHist float64
	n := 0
	for i := range s.pending { // first turns: uniform over the conversation
		sumHist += float64(s.pending[i].hist)
		n++
	}
	for range 200 {
		for i := 0; i < cfg.Sessions; i++ {
			st := &s.sess[i]
			prev := st.hist
			r := s.newReq(0, i)
			if want := conv.History(prev, 1024, 1024); r.hist != want || r.prompt != want+1024 {
				t.Fatalf("turn from %d: history %d prompt %d, want %d and %d", prev, r.hist, r.prompt, want, want+1024)
			}
			sumHist += float64(r.hist)
			n++
			st.hist = r.hist + r.input + r.output // as release records it
		}
	}
	got := sumHist/float64(n) + 1024 + float64(1024-2)/2
	want := conv.MeanContext(1024, 1024) - 1
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("mean decode context %.0f, want the curve's %.0f − 1 = %.0f (±1%%)", got, want+1, want)
	}
}
