package search

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/layouts"
)

// candidateLayouts are the layouts the search evaluates (layouts.Candidates).
func candidateLayouts(in *input.Input) []input.Layout { return layouts.Candidates(in) }

// oneIsZero is a replica count as Candidate stores it: 0 for one.
func oneIsZero(r int) int {
	if r <= 1 {
		return 0
	}
	return r
}
