package vllm

// Presence is what the evidence says about a thing in one release.
type Presence int

// Presence values.
const (
	// Absent: the release certainly does not have it.
	Absent Presence = iota
	// Maybe: the release may have it; no cited source pins it either way.
	Maybe
	// Present: a cited source shows it in this release or an earlier one
	// and nothing shows it gone.
	Present
)

var presenceNames = map[Presence]string{Absent: "absent", Maybe: "unverified", Present: "present"}

// String names the presence for messages.
func (p Presence) String() string { return presenceNames[p] }

// In reports whether release v has an entry with this span: Absent outside
// it, Present where a source confirms it, Maybe in between.
func (s Span) In(v Version) Presence {
	switch {
	case !s.Contains(v):
		return Absent
	case s.Certain(v):
		return Present
	default:
		return Maybe
	}
}
