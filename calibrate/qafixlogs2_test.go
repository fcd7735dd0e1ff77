package calibrate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
)

// TestDuplicateResultFiles (QA 38b #6): a result file byte-identical to
// an earlier one (same SHA-256) is the same run; it is counted once and
// the copy named. A file of other bytes (a CRLF copy) and the records of
// one file are not duplicates.
func TestDuplicateResultFiles(t *testing.T) {
	const h1, h2 = "78564db662e2aaaa", "0123456789abcdef"
	rs := []bench.Result{
		{Source: "base.json", Record: 1, FileSHA256: h1},
		{Source: "base-copy.json", Record: 1, FileSHA256: h1},
		{Source: "crlf.json", Record: 1, FileSHA256: h2},
		{Source: "multi.json", Record: 1, FileSHA256: "ff"},
		{Source: "multi.json", Record: 2, FileSHA256: "ff"},
		{Source: "literal", Record: 1},
		{Source: "literal2", Record: 1},
	}
	got := duplicates(rs)
	for i, d := range got {
		want := i == 1
		if (d != "") != want {
			t.Errorf("%s#%d: %q", rs[i].Source, rs[i].Record, d)
		}
	}
	if !strings.Contains(got[1], "base-copy.json is byte-identical to base.json (sha256 78564db662e2…)") {
		t.Errorf("message %q", got[1])
	}
}
