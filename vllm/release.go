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
	// folded into it).
	Note string
}

// knownReleases lists the releases the table covers, oldest first. The x.y.0
// releases from 0.9 to 0.30 follow vllm-facts.md ("release tags seen run at
// least to v0.30.0"); patch releases are listed where a source names them
// (docs.vllm.ai keeps versioned pages for 0.10.1.1, 0.11.2, 0.14.1, 0.17.1,
// 0.18.1 and 0.22.1). A patch release not listed resolves to the release
// below it, with a warning. docs.vllm.ai also has pages for 0.31 and 0.32;
// their CLI was not read, so they resolve to 0.30.0 with a warning rather
// than being guessed.
var knownReleases = func() []Release {
	names := []string{
		"0.9.0", "0.9.1", "0.9.2", "0.10.0", "0.10.1", "0.10.2",
		"0.11.0", "0.11.1", "0.11.2", "0.12.0", "0.13.0", "0.14.0", "0.14.1",
		"0.15.0", "0.16.0", "0.17.0", "0.17.1", "0.18.0", "0.18.1", "0.19.0",
		"0.20.0", "0.21.0", "0.22.0", "0.22.1", "0.23.0", "0.24.0", "0.25.0",
		"0.26.0", "0.27.0", "0.28.0", "0.29.0", "0.30.0",
	}
	notes := map[string]string{
		"0.10.1": "0.10.1.1 is a hotfix of 0.10.1 with the same CLI",
		"0.22.1": "argparse dump of the vllm/vllm-openai:v0.22.1 image (vllm-facts.md)",
	}
	rs := make([]Release, len(names))
	for i, n := range names {
		rs[i] = Release{Version: mustVersion(n), Note: notes[n]}
	}
	return rs
}()

// Releases returns the covered releases, oldest first.
func Releases() []Release {
	return append([]Release(nil), knownReleases...)
}

// Oldest and Newest are the ends of the table.
func Oldest() Release { return knownReleases[0] }

// Newest is the most recent release the table knows.
func Newest() Release { return knownReleases[len(knownReleases)-1] }

// Resolve maps a version to a release in the table. An exact match (ignoring
// Extra, so 0.10.1.1 and 0.11.1rc2 match 0.10.1 and 0.11.1) gives no warning.
// Otherwise the nearest known release is used — the newest one at or below v,
// or the oldest when v predates the table — and a warning says so.
func Resolve(v Version) (Release, []string) {
	i := sort.Search(len(knownReleases), func(i int) bool {
		return knownReleases[i].Version.AtLeast(v)
	})
	if i < len(knownReleases) && knownReleases[i].Version.Compare(v) == 0 {
		return withVersionExtra(knownReleases[i], v), nil
	}
	if i == 0 {
		r := Oldest()
		return r, []string{fmt.Sprintf("vLLM %s is older than the oldest release vlaunch knows (%s); using %s's flags and defaults",
			v, r.Version, r.Version)}
	}
	r := knownReleases[i-1]
	if i == len(knownReleases) {
		return r, []string{fmt.Sprintf("vLLM %s is newer than the newest release vlaunch knows (%s); using %s's flags and defaults, so flags added since are unknown",
			v, r.Version, r.Version)}
	}
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

// withVersionExtra keeps the caller's suffix (".1", "rc2") for display.
func withVersionExtra(r Release, v Version) Release {
	r.Version.Extra = v.Extra
	return r
}

// String is the release number.
func (r Release) String() string { return r.Version.String() }
