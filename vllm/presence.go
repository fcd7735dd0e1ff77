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

// FlagIn is what the evidence says about a flag (any spelling Flag takes)
// in this release, and the first release a cited source shows the entry in
// force in. Present: a source shows the flag in this release or earlier
// (CertainFlag); Maybe: the release lies before the first release a source
// shows it in, where the table only knows the flag was not ruled out (its
// first release is unknown, so "unknown before seen"); Absent: the release
// cannot have it. A caller reports Maybe as something it cannot verify,
// never as an error.
func (r Release) FlagIn(name string) (p Presence, seen Version) {
	f, ok := r.Flag(name)
	if !ok {
		return Absent, Version{}
	}
	if _, ok := r.CertainFlag(name); ok {
		return Present, f.FirstConfirmed()
	}
	return Maybe, f.FirstConfirmed()
}

// BackendIn is FlagIn for an all-to-all backend name.
func (r Release) BackendIn(name string) (p Presence, seen Version) {
	b, ok := r.All2AllBackend(name)
	if !ok {
		return Absent, Version{}
	}
	return b.In(r.Version), b.FirstConfirmed()
}
