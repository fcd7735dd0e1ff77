package report

import (
	"testing"

	"github.com/vlaunch/vlaunch/plan"
)

// The candidates line says what each count counts, and the spec's own
// settings are among the candidates (qa43 F11: "16 candidates, 17
// distinct").
func TestCandidateCounts(t *testing.T) {
	cases := []struct {
		st   plan.Stats
		want string
	}{
		{plan.Stats{Enumerated: 16, Candidates: 17, Distinct: 17}, "17 candidates (16 enumerated + the spec's own settings), 17 distinct engines once resolved"},
		{plan.Stats{Enumerated: 250, Candidates: 250, Distinct: 108}, "250 candidates enumerated, 108 distinct engines once resolved"},
	}
	for _, c := range cases {
		if got := candidateCounts(c.st); got != c.want {
			t.Errorf("got %q\nwant %q", got, c.want)
		}
	}
}
