package pd_test

import (
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/published"
)

// A rate row whose client also capped the requests in flight (load.
// concurrency beside load.request_rate_per_s: vllm bench serve
// --request-rate R --max-concurrency C) is replayed capped (pd.EvaluateRow,
// pd.RowClientCap): the held-out P2pNccl row (3.6 requests/s, 8,000 / 200
// tokens) given a cap. Every row of published/pd.yaml has none (its rate
// clients set no --max-concurrency). A cap of 2: a request takes about
// 0.3 s + 199 × 10.5 ms ≈ 2.4 s, so 2 sessions sustain about 0.8
// requests/s by Little's law (the model's closed loop of 2 gives 1.2: its
// decode pool runs a loop of two that small with no time away, compose),
// far below 3.6: the closed loop of 2, the model's own (the
// row replayed as a steady closed loop of 2 sessions) within 2%. A cap of
// 1,000 never binds: the uncapped replay's figures exactly.
func TestCappedRowReplayedCapped(t *testing.T) {
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	var row published.PDRow
	for _, r := range set.Rows {
		if pd.RowClientCap(r) != 0 {
			t.Errorf("%s: a client cap of %d; no row of pd.yaml states one", r.ID, pd.RowClientCap(r))
		}
		if r.ID == "vllm-pr18242-h100-p1tp1-d1tp1-r3.6" {
			row = r
		}
	}
	if row.ID == "" {
		t.Fatal("no pr-18242 row")
	}
	free, fs := replayPD(t, row)
	if fs.ClientCap != 0 {
		t.Fatalf("uncapped row replayed with a cap of %d", fs.ClientCap)
	}
	tight := row
	tight.Load.Concurrency = published.N(2)
	p, s := replayPD(t, tight)
	if pd.RowClientCap(tight) != 2 || s.ClientCap != 2 || !s.CapClosedLoop || s.Sessions != 2 {
		t.Fatalf("cap 2: RowClientCap %d, scenario cap %d, closed loop %t, sessions %d", pd.RowClientCap(tight), s.ClientCap, s.CapClosedLoop, s.Sessions)
	}
	closed := row
	closed.Load = published.Load{Kind: published.LoadClosedLoop, Concurrency: published.N(2)} // no num_prompts: the steady loop
	want, _ := replayPD(t, closed)
	for name, v := range map[string][2]float64{"requests/s": {p.RequestsPerS, want.RequestsPerS}, "TTFT mean": {p.TTFTMean, want.TTFTMean}, "TPOT mean": {p.TPOTMean, want.TPOTMean}} {
		if v[0] <= 0 || v[0] > 1.02*v[1] || v[0] < 0.98*v[1] {
			t.Errorf("cap 2: %s %.4g, the row's closed loop of 2 sessions %.4g", name, v[0], v[1])
		}
	}
	if p.RequestsPerS >= free.RequestsPerS/2 {
		t.Errorf("cap 2: %.3f requests/s, not far below the arrivals' %.3f", p.RequestsPerS, free.RequestsPerS)
	}
	loose := row
	loose.Load.Concurrency = published.N(1000)
	lp, ls := replayPD(t, loose)
	if ls.ClientCap != 1000 || ls.CapClosedLoop {
		t.Fatalf("cap 1000: scenario cap %d, closed loop %t", ls.ClientCap, ls.CapClosedLoop)
	}
	if !reflect.DeepEqual(lp, free) {
		t.Errorf("cap 1000 changed the row's prediction:\n%+v\n%+v", lp, free)
	}
}
