package memory

import (
	"fmt"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestGPTOSSKnownGap: gpt-oss-120b on one H100 gets the known gap on the
// releases whose logs showed it (≤ 0.11), not later; the prediction itself
// is unchanged, the band's low end is 4.4 GiB lower, and EST108 warns when
// the low end no longer holds the workload.
func TestGPTOSSKnownGap(t *testing.T) {
	base := resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100", MaxModelLen: 32768}
	old, cur := base, base
	old.VLLMVersion, cur.VLLMVersion = "0.10.1", "0.14.0"
	rOld, rCur := Estimate(testinput.Quick(t, old)), Estimate(testinput.Quick(t, cur))
	if len(rOld.Gaps) != 1 || len(rCur.Gaps) != 0 {
		t.Fatalf("gaps: 0.10.1 %v, 0.14.0 %v", rOld.Gaps, rCur.Gaps)
	}
	if d := rOld.PerGPU.KVCacheGiB - rOld.PerGPU.KVCacheLowGiB; d < 4.39 || d > 4.41 {
		t.Errorf("band width %.2f GiB, want 4.4", d)
	}
	if rCur.PerGPU.KVCacheLowGiB != 0 || rCur.Capacity.FitsLow {
		t.Errorf("0.14.0 has a band: %+v", rCur.PerGPU)
	}
	// A concurrency the point estimate holds but the low end does not.
	tight := old
	in := testinput.Quick(t, tight)
	r := Estimate(in)
	if r.Capacity.MaxSeqsPerRank <= r.Capacity.MaxSeqsPerRankLow {
		t.Fatalf("low end holds as many sequences (%d vs %d)", r.Capacity.MaxSeqsPerRankLow, r.Capacity.MaxSeqsPerRank)
	}
	tight.Concurrency = r.Capacity.MaxSeqsPerRank
	in = testinput.Quick(t, tight)
	r = Estimate(in)
	found := false
	for _, d := range Findings(in, &r) {
		found = found || d.Code == CodeKnownGap
	}
	if !r.Capacity.Fits || !found {
		t.Errorf("fits %v, EST108 reported %v", r.Capacity.Fits, found)
	}
}

// gapNotes states a case's known gaps in the calibration tables: the low
// end of the available-memory band.
func gapNotes(rep Report) []string {
	if len(rep.Gaps) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("known gap (EST108): available band down to %.2f GiB", rep.PerGPU.KVCacheLowGiB)}
}
