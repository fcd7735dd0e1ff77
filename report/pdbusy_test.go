package report

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
)

// TestPDPrefillSteppingPrinted: QA session 38's lock-step DP 8 prefill
// pool (estimate/pd/testdata/qa38-dsv32-pd-2x8h200.yaml) printed
// "utilisation 25% at the workload's rate" and "no part near saturation"
// while its simulation steps it 92% of the time, its queue a lock-step
// wait (pd.Scenario.PrefillQueue). The pool section says the filled token
// slots, the time stepping and the queue's reason, and the rate line the
// time stepping, in text, markdown and HTML; JSON carries the field.
func TestPDPrefillSteppingPrinted(t *testing.T) {
	r := checkAnyExample(t, "../estimate/pd/testdata/qa38-dsv32-pd-2x8h200.yaml")
	g := r.Disaggregated
	if g == nil || len(g.Scenarios) == 0 || g.Scenarios[0].PrefillQueue == nil {
		t.Fatal("qa38: no P/D scenario with a PrefillQueue")
	}
	s := &g.Scenarios[0]
	q := s.PrefillQueue
	// The fixture's point: stepping far more of the time than the slots
	// are filled, a lock-step wait (else the test checks nothing).
	if !pd.SteppingApart(s) || q.Reason != pd.QueueLockStep {
		t.Fatalf("qa38: busy %.2f vs utilisation %.2f, reason %q: not the QA case", q.BusyFraction, s.PrefillUtilization, q.Reason)
	}
	pct := func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }
	pool := "token slots " + pct(s.PrefillUtilization) + " filled; stepping " + pct(q.BusyFraction) +
		" of the time (DP lock-step: a prompt waits for the step the other ranks are in)"
	rate := "no part's token slots near saturation, 91% or more: prefill " + pct(s.PrefillUtilization) +
		" of its token slots filled though stepping " + pct(q.BusyFraction) + " of the time"
	space := regexp.MustCompile(`\s+`)
	flat := func(x string) string { return space.ReplaceAllString(x, " ") }

	var txt, md, h, js bytes.Buffer
	WriteText(&txt, r)
	WriteMarkdown(&md, r)
	if err := WriteHTML(&h, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": flat(txt.String()), "markdown": flat(md.String()), "html": flat(html.UnescapeString(h.String()))} {
		for _, want := range []string{pool, rate} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: lacks %q", name, want)
			}
		}
		// The prefill pool's own section (the decode pool's may print
		// the same bare percentage: 25% each since the closed loop's NICs
		// are priced for its sessions, pd.UseClosedLoopNICMVA).
		section := out
		if i := strings.Index(out, "Disaggregated: prefill pool"); i >= 0 {
			section = out[i:]
			if j := strings.Index(section, "Disaggregated: decode pool"); j >= 0 {
				section = section[:j]
			}
		} else {
			t.Errorf("%s: no prefill pool section", name)
		}
		if strings.Contains(section, "utilisation "+pct(s.PrefillUtilization)+" at the workload's rate") {
			t.Errorf("%s: still the prefill pool's bare utilisation", name)
		}
	}
	if !strings.Contains(js.String(), `"busy_fraction"`) || !strings.Contains(js.String(), `"reason": "lock-step wait"`) {
		t.Error("json: no prefill_queue busy_fraction and reason")
	}
}
