package slo

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// NotStarting fails every verdict with no prediction; it keeps the
// alternatives' lines only when every refusal is one their evaluation
// (Alternative.Fits) rules out, and drops the lines about the layout that
// does not start.
func TestNotStartingKeepsOnlyStartingAlternatives(t *testing.T) {
	base := Verdict{Name: "TPOT (mean)", Target: 0.04, Unit: "s", Verdict: VerdictPass, Binding: BindMemory, Predicted: 0.03,
		Band: &BandRange{Low: 0.02, High: 0.05}, BandBasis: "held-out", Explanation: "simulated under the workload's load",
		WouldPass: []string{"at most 128 sessions", "TP=8 DP=2 (re-simulated: 24.5 ms)"}, alternatives: []string{"TP=8 DP=2 (re-simulated: 24.5 ms)"}}
	for _, tc := range []struct {
		refusals []string
		want     []string
		binding  string
	}{
		{[]string{"EST102"}, []string{"TP=8 DP=2 (re-simulated: 24.5 ms)"}, BindKV},
		{[]string{"EST101", "EST102"}, []string{"TP=8 DP=2 (re-simulated: 24.5 ms)"}, BindKV},
		{[]string{"EST107"}, nil, BindMemory},       // the alternatives' Fits does not rule this out
		{[]string{"EST102", "EST109"}, nil, BindKV}, // nor the pipeline KV check
	} {
		got := NotStarting([]Verdict{base}, tc.refusals)[0]
		why := "vLLM does not start (" + strings.Join(tc.refusals, ", ") + ")"
		if got.Verdict != VerdictFail || got.NotPredicted != why || got.Predicted != 0 || got.Band != nil || got.BandBasis != "" || got.Binding != tc.binding {
			t.Errorf("%v: %+v; want a fail, %q, no figure, no band, binding %s", tc.refusals, got, why, tc.binding)
		}
		if !slices.Equal(got.WouldPass, tc.want) {
			t.Errorf("%v: would pass %q; want %q", tc.refusals, got.WouldPass, tc.want)
		}
		if strings.Contains(got.Explanation, "simulated under") {
			t.Errorf("%v: explanation %q", tc.refusals, got.Explanation)
		}
	}
	if vs := NotStarting([]Verdict{base}, nil); !slices.EqualFunc(vs, []Verdict{base}, func(a, b Verdict) bool { return a.Predicted == b.Predicted && a.Verdict == b.Verdict }) {
		t.Errorf("no refusal changed the verdicts: %+v", vs)
	}
}

// Predicted is null in JSON with no prediction, a number otherwise (0
// included), in its place after target; a name holding the key is no key.
func TestVerdictJSONPredicted(t *testing.T) {
	v := Verdict{Name: `x ,"predicted":0, y`, Target: 2, Unit: "s", Verdict: VerdictFail, Binding: BindKV}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"target":2,"predicted":0,"unit"`) || strings.Contains(string(b), "null") {
		t.Errorf("predicted verdict: %s", b)
	}
	v.NotPredicted = "vLLM does not start (EST102)"
	b, err = json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"target":2,"predicted":null,"unit"`) || !strings.Contains(string(b), `"name":"x ,\"predicted\":0, y"`) {
		t.Errorf("unpredicted verdict: %s", b)
	}
	var back Verdict
	if err := json.Unmarshal(b, &back); err != nil || back.NotPredicted != v.NotPredicted || back.Predicted != 0 || back.Name != v.Name {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	// Through a pointer and a slice, as reports hold verdicts.
	b, err = json.Marshal(struct{ S []Verdict }{[]Verdict{v}})
	if err != nil || !strings.Contains(string(b), `"predicted":null`) {
		t.Errorf("in a slice: %s, %v", b, err)
	}
}
