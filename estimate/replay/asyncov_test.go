package replay

import (
	"flag"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// asyncFlips runs TestAsyncOverlapFlips, an analysis (issue #28: the
// release's async-scheduling default and the host's work, perf.
// UseAsyncOverlap) that prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestAsyncOverlapFlips -asyncflips -v
var asyncFlips = flag.Bool("asyncflips", false, "print the figures whose within-±30% verdict perf.UseAsyncOverlap flips, and the splits' counts off and on (analysis)")

// TestAsyncOverlapFlips replays every targetable row with perf.
// UseAsyncOverlap off and on (the constants perf.DefaultEfficiency holds)
// and lists the figures whose verdict flips: only vLLM rows of a release
// that schedules asynchronously by default and does not state the flag
// move (the explicit flag already overlaps the host's work).
func TestAsyncOverlapFlips(t *testing.T) {
	if !*asyncFlips {
		t.Skip("analysis: run with -asyncflips")
	}
	defer func(o bool) { perf.UseAsyncOverlap = o }(perf.UseAsyncOverlap)
	perf.UseAsyncOverlap = false
	_, off := all(t)
	perf.UseAsyncOverlap = true
	_, on := all(t)
	a, b := countSplits(off), countSplits(on)
	t.Logf("calibration %d -> %d of %d; holdout (broad) %d -> %d of %d\nflips:\n%s",
		a.calWithin, b.calWithin, a.cal, a.heldWithin, b.heldWithin, a.held, flips(off, on))
}
