package slo

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestLoadSearch: a TTFT target that queueing misses gets the largest
// load that meets it, below the workload's, with the prediction there;
// the simulations of a length and load are remembered; and
// once the check's searches have spent their budget the next says so
// instead of searching.
func TestLoadSearch(t *testing.T) {
	in := perfRefInput(t, "fp8")
	in.Workload.Concurrency = 400
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	ls := newLoadSearch(&in, sm, 500000, nil, 3, nil) // a hand-built input: no re-resolved verification
	idle := sm.PrefillIdle(512, in.MaxNumBatchedTokens).TTFTS
	got := ls.loadFor(512, "p99", 3*idle)
	m := regexp.MustCompile(`^the load search's short runs put it at (\d+) concurrent sessions \(now 400\), where they predicted (.+); not re-simulated$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("%q", got)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || n >= 400 {
		t.Errorf("%d sessions", n)
	}
	if ls.spent <= 0 || ls.spent > loadSearchBudget/4 {
		t.Errorf("one search spent %d of the check's %d", ls.spent, loadSearchBudget)
	}
	spent, before := ls.spent, len(ls.memo)
	ls.loadFor(512, "p99", 3*idle) // the same loads: remembered
	if len(ls.memo) != before || ls.spent != spent {
		t.Errorf("the same search again simulated %d new loads", len(ls.memo)-before)
	}
	ls.spent = loadSearchBudget
	if got := ls.loadFor(4096, "p99", 3*idle); !strings.Contains(got, "not searched") {
		t.Errorf("past the budget: %q", got)
	}
}
