package vllm

import (
	"fmt"
	"sort"
)

// Release is one vLLM release in the table, with everything that depends
// on it reachable through its methods.
type Release struct {
	Version Version
	// Note says what is known about the release itself (e.g. hotfixes
	// folded into it, behaviour specific to it).
	Note string
	// Verified is true when part of the release's own CLI or documentation
	// was read in a versioned source (Source says which); an unverified
	// release is known to exist but its entries are interpolated from the
	// releases around it.
	Verified bool
	Source   string
	// Match says how the version a caller asked for maps onto this release;
	// Requested is that version. Both are set by Resolve.
	Match     Match
	Requested Version
}

// Match is how a requested version relates to the release table.
type Match int

// Matches, from the most to the least trustworthy.
const (
	// MatchExact: the table lists the release (a fourth component such as
	// 0.10.1.1, or a pre-release or local suffix, is ignored).
	MatchExact Match = iota
	// MatchApprox: inside the table's range but not listed (a patch release
	// the table skips); the nearest listed release below stands in for it.
	MatchApprox
	// MatchOlder: older than the oldest release in the table; the oldest
	// one stands in for it and its facts may be wrong for the request.
	MatchOlder
	// MatchNewer: newer than the newest release in the table; the newest
	// one stands in for it and flags added since are unknown.
	MatchNewer
)

var matchNames = map[Match]string{MatchExact: "exact", MatchApprox: "approximated",
	MatchOlder: "older than the table", MatchNewer: "newer than the table"}

// String names the match for reports.
func (m Match) String() string { return matchNames[m] }

// Exact reports whether the requested version is a release in the table.
func (r Release) Exact() bool { return r.Match == MatchExact }

// Approximated reports whether another release of the table stands in for
// the requested one inside the table's range.
func (r Release) Approximated() bool { return r.Match == MatchApprox }

// Outside reports whether the requested version lies outside the table, so
// every fact about it is an extrapolation (the estimator widens its bands).
func (r Release) Outside() bool { return r.Match == MatchOlder || r.Match == MatchNewer }

// Releases returns the covered releases, oldest first.
func Releases() []Release {
	return append([]Release(nil), knownReleases...)
}

// Oldest and Newest are the ends of the table.
func Oldest() Release { return knownReleases[0] }

// Newest is the most recent release the table knows.
func Newest() Release { return knownReleases[len(knownReleases)-1] }

// Resolve maps a version to a release in the table. An exact match (ignoring
// Extra, so 0.10.1.1, 0.6.1.post1 and 0.11.1rc2 match 0.10.1, 0.6.1 and
// 0.11.1) gives no warning.
// Otherwise the nearest known release stands in — the newest one at or below
// v, or the oldest when v predates the table — with Match saying so and a
// warning for the user; a version is never resolved silently as another.
func Resolve(v Version) (Release, []string) {
	// Rows are x.y.z: a post release (0.6.1.post1) is its base's row, with
	// its suffix kept so that span checks still see it (stand).
	base := v.Base()
	i := sort.Search(len(knownReleases), func(i int) bool {
		return knownReleases[i].Version.AtLeast(base)
	})
	if i < len(knownReleases) && knownReleases[i].Version.Compare(base) == 0 {
		return stand(knownReleases[i], v, MatchExact), nil
	}
	if i == 0 {
		r := stand(Oldest(), v, MatchOlder)
		return r, []string{fmt.Sprintf("vLLM %s is older than the oldest release vlaunch knows (%s); its flags and defaults are taken from %s and may be wrong for %s",
			v, r.Version, r.Version, v)}
	}
	if i == len(knownReleases) {
		r := stand(knownReleases[i-1], v, MatchNewer)
		return r, []string{fmt.Sprintf("vLLM %s is newer than the newest release vlaunch knows (%s); using %s's flags and defaults, so flags added since are unknown",
			v, r.Version, r.Version)}
	}
	r := stand(knownReleases[i-1], v, MatchApprox)
	return r, []string{fmt.Sprintf("vLLM %s is not in vlaunch's release table; using the nearest known release below it, %s",
		v, r.Version)}
}

// ResolveString parses s and resolves it; see Resolve.
func ResolveString(s string) (Release, []string, error) {
	v, err := ParseVersion(s)
	if err != nil {
		return Release{}, nil, err
	}
	r, w := Resolve(v)
	return r, w, nil
}

// stand records what was asked for; an exact match keeps the caller's
// suffix (".1", "rc2") for display.
func stand(r Release, v Version, m Match) Release {
	r.Match, r.Requested = m, v
	if m == MatchExact {
		r.Version.Extra = v.Extra
	}
	return r
}

// String is the release number.
func (r Release) String() string { return r.Version.String() }
