package replay

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/published"
)

// anchorsDoc is the generated anchors table.
const anchorsDoc = "../../docs/calibration-anchors.md"

// anchorDrift is how far (in points of relative error) an anchor's error
// may move from what the committed table says before the test fails: the
// table is the regression guard, and a model change that moves an anchor
// more must regenerate it (-update) and say why.
const anchorDrift = 0.03

func anchorResults(t *testing.T) []AnchorResult {
	t.Helper()
	set, err := published.Anchors()
	if err != nil {
		t.Fatal(err)
	}
	th, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ReproduceAnchors(set, th, perf.DefaultEfficiency)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// tableRow reads an anchor's line of the generated table: its error in
// percent and its within-15% mark.
var tableRow = regexp.MustCompile(`(?m)^\| ([a-z0-9.-]+) \|.*\| ([+-]\d+)% \| (yes|\*\*no\*\*) \| (yes|no) \| (yes|no) \|$`)

// summaryLine is the table's count of anchors within 15%.
var summaryLine = regexp.MustCompile(`Within ±15%: (\d+) of (\d+) anchors; (\d+) of (\d+) anchors that count`)

// TestAnchors predicts every dense anchor with the global constants and
// checks the committed table (docs/calibration-anchors.md, rewritten with
// -update): every anchor's error within anchorDrift of the table's, the
// same anchors, and no fewer within 15% than the table counts.
func TestAnchors(t *testing.T) {
	rs := anchorResults(t)
	doc := AnchorsDoc(rs)
	var in, inCount, nCount int
	for _, a := range rs {
		if a.Within() {
			in++
		}
		if a.Anchor.Counts {
			nCount++
			if a.Within() {
				inCount++
			}
		}
		t.Logf("%s: published %.4g ms, predicted %.4g ms (%+.0f%%)", a.Anchor.ID, a.Published, a.Predicted, 100*a.Error())
	}
	fmt.Printf("dense anchors within ±15%%: %d of %d (%d of %d that meet the item's conditions)\n", in, len(rs), inCount, nCount)
	if golden.Update() {
		golden.Check(t, anchorsDoc, []byte(doc))
		return
	}
	committed, err := os.ReadFile(anchorsDoc)
	if err != nil {
		t.Fatalf("%v (run go test ./estimate/replay -run TestAnchors -update)", err)
	}
	want := map[string]float64{}
	for _, m := range tableRow.FindAllStringSubmatch(string(committed), -1) {
		pct, _ := strconv.Atoi(m[2])
		want[m[1]] = float64(pct) / 100
	}
	for _, a := range rs {
		w, ok := want[a.Anchor.ID]
		if !ok {
			t.Errorf("anchor %s is not in %s (rerun with -update and read the diff)", a.Anchor.ID, anchorsDoc)
			continue
		}
		delete(want, a.Anchor.ID)
		// The table rounds to whole percent.
		if d := math.Abs(a.Error() - w); d > anchorDrift+0.005 {
			t.Errorf("anchor %s: error now %+.1f%%, the table says %+.0f%%; if the model change is meant, rerun with -update and say why in the commit",
				a.Anchor.ID, 100*a.Error(), 100*w)
		}
	}
	for id := range want {
		t.Errorf("%s lists anchor %s, which anchors.yaml no longer has", anchorsDoc, id)
	}
	m := summaryLine.FindStringSubmatch(string(committed))
	if m == nil {
		t.Fatalf("%s has no summary line", anchorsDoc)
	}
	if tableIn, _ := strconv.Atoi(m[1]); in < tableIn {
		t.Errorf("%d anchors within ±15%%, fewer than the %d the table counts", in, tableIn)
	}
	if tableIn, _ := strconv.Atoi(m[3]); inCount < tableIn {
		t.Errorf("%d counting anchors within ±15%%, fewer than the %d the table counts", inCount, tableIn)
	}
}

// The anchors are dense models: no routed experts in the catalog entry
// that stands in for the row's checkpoint.
func TestAnchorsAreDense(t *testing.T) {
	for _, a := range anchorResults(t) {
		m, err := catalog.LookupModel(a.Row.Model.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		if m.IsMoE() {
			t.Errorf("anchor %s: %s has %d routed experts", a.Anchor.ID, m.ID, m.NumExperts)
		}
		want := published.AnchorDense8B
		if m.ParamCounts().Total > 30e9 {
			want = published.AnchorDense70B
		}
		if a.Anchor.Model != want {
			t.Errorf("anchor %s is %s, but %s reads as %s", a.Anchor.ID, a.Anchor.Model, m.ID, want)
		}
	}
}

// The table names each term it shows, so a reader can follow a miss to
// its mechanism.
func TestAnchorsDocShowsTerms(t *testing.T) {
	doc := AnchorsDoc(anchorResults(t))
	for _, w := range []string{"kernel gaps", "host", "weights+KV read alone", "prompt alone", "the run's TTFT adds", "(fit, 256–125000 prompt tokens)"} {
		if !strings.Contains(doc, w) {
			t.Errorf("the anchors doc does not show %q", w)
		}
	}
}

// TestAnchorPredictionE2E checks that an e2e_s anchor (vLLM's offline
// latency benchmark with one output token) is read from the simulated
// requests' end-to-end latency, not their TTFT, in ms; and that a
// steady-state outcome, which has no requests, is an error.
func TestAnchorPredictionE2E(t *testing.T) {
	res := &sim.Result{TTFT: sim.Percentiles{Mean: 0.1, P50: 0.1}, E2E: sim.Percentiles{Mean: 0.38, P50: 0.37}}
	o := Outcome{TTFT: res.TTFT, Sim: res}
	for fig, want := range map[string]float64{"e2e_s.mean": 380, "e2e_s.median": 370, "ttft_ms.mean": 100} {
		got, err := anchorPrediction(published.Anchor{ID: "a", Figure: fig}, o)
		if err != nil || math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: predicted %v, %v; want %v ms", fig, got, err, want)
		}
	}
	if _, err := anchorPrediction(published.Anchor{ID: "a", Figure: "e2e_s.mean"}, Outcome{Steady: true}); err == nil {
		t.Error("a steady-state outcome predicted an e2e_s figure")
	}
	if _, err := anchorPrediction(published.Anchor{ID: "a", Figure: "e2e_s.p99"}, o); err == nil {
		t.Error("an unpredicted statistic (p99) gave a prediction")
	}
}
