package catalog

import (
	"sort"
	"strings"
)

// Suggest returns up to three candidates close to name: by edit distance
// (at most a third of the name's length, minimum 2) or by containment.
func Suggest(name string, candidates []string) []string {
	n := strings.ToLower(name)
	limit := len(n) / 3
	if limit < 2 {
		limit = 2
	}
	type scored struct {
		s string
		d int
	}
	var hits []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := Levenshtein(n, lc)
		if d <= limit || (len(n) >= 3 && (strings.Contains(lc, n) || strings.Contains(n, lc))) {
			hits = append(hits, scored{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	var out []string
	for i := 0; i < len(hits) && i < 3; i++ {
		out = append(out, hits[i].s)
	}
	return out
}

// Levenshtein is the edit distance between a and b.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func sortStrings(s []string) { sort.Strings(s) }
