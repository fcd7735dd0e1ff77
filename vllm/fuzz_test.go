package vllm

import "testing"

// FuzzParseVersion checks that any accepted version round-trips through
// String and resolves to a release without panicking.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"0.11.1", "v0.10.1.1", "0.11.1rc2", "0.12", "x", "0.10.2.dev3+gabc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			return
		}
		again, err := ParseVersion(v.String())
		if err != nil || again.Compare(v) != 0 {
			t.Fatalf("%q -> %s does not round-trip: %v", s, v, err)
		}
		r, _ := Resolve(v)
		if r.Version.IsZero() {
			t.Fatalf("%q resolved to the zero release", s)
		}
	})
}

// FuzzFlagLookup makes sure no spelling panics the lookup.
func FuzzFlagLookup(f *testing.F) {
	for _, s := range []string{"--tp", "-O3", "--no-x", "=", "-", "--a_b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Newest().Flag(s)
		KnownFlagEver(s)
	})
}
