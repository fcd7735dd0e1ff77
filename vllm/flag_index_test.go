package vllm

import "testing"

// TestFlagIndexMatchesScan: looking a long name up through the index finds
// what scanning the whole table finds, for every flag name (and negated
// boolean) in every release.
func TestFlagIndexMatchesScan(t *testing.T) {
	scan := func(name string, ok func(*Flag) bool) *Flag {
		long, short := splitFlag(name)
		for i := len(flagTable) - 1; i >= 0; i-- {
			if f := &flagTable[i]; ok(f) && matches(f, long, short) {
				return f
			}
		}
		return nil
	}
	names := map[string]bool{"no-such-flag": true}
	for _, f := range flagTable {
		names[f.Name], names["--"+f.Name] = true, true
		names["no-"+f.Name] = true
	}
	for _, r := range Releases() {
		in := func(f *Flag) bool { return f.Contains(r.Version) }
		for n := range names {
			got, _ := lookupFlag(n, in)
			if want := scan(n, in); got != want {
				t.Fatalf("%s %s: index finds %v, the scan %v", r.Version, n, got, want)
			}
		}
	}
}
