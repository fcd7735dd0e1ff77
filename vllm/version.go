package vllm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version is a vLLM release number. Major.Minor.Patch and a post-release
// number take part in comparisons: 0.6.1 < 0.6.1.post1 < 0.6.1.post2 <
// 0.6.2, as PEP 440 orders them, because a post release may change the CLI
// (v0.6.1.post1 dropped --engine-use-ray, flags_qa39_table.go). A fourth
// component (0.10.1.1, a hotfix with the same CLI) and pre-release or local
// suffixes (rc2, .dev12, +cu128) are kept in Extra for display only, so a
// release candidate counts as its release (the lenient side for a linter).
type Version struct {
	Major, Minor, Patch int
	// Extra is whatever followed Major.Minor.Patch in the input, e.g.
	// ".1", "rc2", ".post1", "+cu128".
	Extra string
}

var versionRE = regexp.MustCompile(`^[vV]?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?(.*)$`)

// extraRE bounds what may follow the numeric part so that garbage such as
// "0.11.1; rm -rf" is refused rather than silently accepted.
var extraRE = regexp.MustCompile(`^(\.\d{1,4})?((rc|a|b|\.post|\.dev|-rc)\d{0,6})?(\+[0-9A-Za-z.]{1,64})?$`)

// ParseVersion reads "0.11.1", "v0.11.1", "0.10.1.1", "0.11.1rc2",
// "0.11.0.post1", "0.10.2.dev12+gabc123" or "0.12" (= 0.12.0).
func ParseVersion(s string) (Version, error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil || !extraRE.MatchString(m[4]) {
		return Version{}, fmt.Errorf("%q is not a vLLM version (want e.g. 0.11.1)", s)
	}
	v := Version{Extra: m[4]}
	v.Major, _ = strconv.Atoi(m[1])
	v.Minor, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		v.Patch, _ = strconv.Atoi(m[3])
	}
	return v, nil
}

// mustVersion parses table data; a bad literal is a programming error.
func mustVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// String prints the version without a leading "v", including Extra.
func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d%s", v.Major, v.Minor, v.Patch, v.Extra)
}

// IsZero reports whether v is the zero Version (used for "no bound").
func (v Version) IsZero() bool { return v.Major == 0 && v.Minor == 0 && v.Patch == 0 }

// Compare returns -1, 0 or +1 comparing Major.Minor.Patch, then the
// post-release number (see Version).
func (v Version) Compare(o Version) int {
	for _, d := range [4]int{v.Major - o.Major, v.Minor - o.Minor, v.Patch - o.Patch, v.postRank() - o.postRank()} {
		if d < 0 {
			return -1
		}
		if d > 0 {
			return 1
		}
	}
	return 0
}

// Less reports v < o (see Compare).
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

// AtLeast reports v >= o (see Compare).
func (v Version) AtLeast(o Version) bool { return v.Compare(o) >= 0 }

// postRank is 0 without a post release and N+1 for .postN (a bare ".post"
// is post 0 in PEP 440), so every post release sorts after its base.
func (v Version) postRank() int {
	rest, ok := strings.CutPrefix(v.Extra, ".post")
	if !ok {
		return 0
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(rest[:end]) // "" (a bare .post) reads as 0
	return n + 1
}

// Base is Major.Minor.Patch without Extra: the release row a version
// belongs to (0.6.1.post1 and 0.10.1.1 are rows 0.6.1 and 0.10.1).
func (v Version) Base() Version { return Version{Major: v.Major, Minor: v.Minor, Patch: v.Patch} }

// Span is a half-open range of releases [Since, Removed); a zero Removed
// means the entry is still present in the newest known release.
//
// Since is deliberately the earliest release that may have the entry: when
// the first release is not pinned by a source, Since is the earliest one the
// evidence allows, so that the linter never calls a flag "too new" for a
// release that may have had it. Confirmed, when set, is the first release a
// cited source actually shows it in; releases in [Since, Confirmed) may or
// may not have it, and a generator should not write it there.
type Span struct {
	Since   Version
	Removed Version
	// Confirmed is the first release a cited source shows the entry in,
	// when that is later than Since (zero: Since itself is confirmed).
	Confirmed Version
}

// Contains reports whether release v may have the entry: Since <= v < Removed.
// It is the lenient test a linter uses (no false "too new"/"removed").
func (s Span) Contains(v Version) bool {
	if v.Less(s.Since) {
		return false
	}
	return s.Removed.IsZero() || v.Less(s.Removed)
}

// Certain reports whether a cited source shows the entry in release v or
// earlier and v is inside the span: the strict test for writing a flag or
// variable into a generated bundle.
func (s Span) Certain(v Version) bool {
	return s.Contains(v) && v.AtLeast(s.FirstConfirmed())
}

// FirstConfirmed is the first release a source shows the entry in.
func (s Span) FirstConfirmed() Version {
	if s.Confirmed.IsZero() {
		return s.Since
	}
	return s.Confirmed
}
