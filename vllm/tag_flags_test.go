package vllm

import (
	"sort"
	"testing"
)

// tagCheckedUpTo is the newest release tag tools/flagspans/gen.py reads.
var tagCheckedUpTo = mustVersion("0.24.0")

// tagCheckedReleases are the table's releases that have a tag read.
func tagCheckedReleases(t *testing.T) []Release {
	var out []Release
	for _, r := range knownReleases {
		if tagCheckedUpTo.Less(r.Version) {
			continue
		}
		if _, ok := tagPresence(tagFlags, "--port", r.Version.String()); !ok {
			t.Fatalf("release %s has no tag read in tag_flags_table.go", r.Version)
		}
		out = append(out, r)
	}
	return out
}

// TestTagTableReadsEveryRelease: the generated table is not empty or
// truncated: every release 0.5.3-0.24.0 was read, and flags every server
// had (--port, --tensor-parallel-size) show in all of them.
func TestTagTableReadsEveryRelease(t *testing.T) {
	rs := tagCheckedReleases(t)
	if len(rs) < 50 {
		t.Fatalf("%d releases with a tag read", len(rs))
	}
	for _, r := range rs {
		for _, f := range []string{"--port", "--tensor-parallel-size", "-tp", "--model"} {
			if p, _ := tagPresence(tagFlags, f, r.Version.String()); !p {
				t.Errorf("tag %s: %s not read", r.Version, f)
			}
		}
		if p, _ := tagPresence(tagEnvs, "VLLM_HOST_IP", r.Version.String()); !p {
			t.Errorf("tag %s: VLLM_HOST_IP not read", r.Version)
		}
	}
}

// TestFlagSpansAtTags compares every flag's span with the tags' own
// source (tag_flags_table.go): a flag a release tag accepts must be
// accepted for that release, and a flag the tag does not have must not be
// certain there (a generator would write it into a bundle the release
// refuses). Issue #23: spans recorded from the release a source first
// showed a flag in made lint wrong on every earlier release.
func TestFlagSpansAtTags(t *testing.T) {
	rs := tagCheckedReleases(t)
	checked := 0
	for _, n := range flagNames() {
		checked++
		for _, r := range rs {
			p, _ := tagPresence(tagFlags, "--"+n, r.Version.String())
			_, accepted := r.Flag("--" + n)
			_, certain := r.CertainFlag(n)
			if p && !accepted {
				t.Errorf("--%s: the v%s tag accepts it, vlaunch refuses it", n, r.Version)
			}
			if !p && certain {
				t.Errorf("--%s: the v%s tag lacks it, vlaunch is certain of it", n, r.Version)
			}
		}
	}
	t.Logf("%d flags checked against %d release tags", checked, len(rs))
}

// TestEnvSpansAtTags is TestFlagSpansAtTags for the variables vLLM owns:
// registered in the tag's vllm/envs.py or not. A variable no tag up to
// 0.24.0 registers is left out (newer, or read outside envs.py).
func TestEnvSpansAtTags(t *testing.T) {
	rs := tagCheckedReleases(t)
	checked := 0
	for _, n := range envNames() {
		if _, ever := tagEnvs[n]; !ever {
			continue
		}
		checked++
		for _, r := range rs {
			p, _ := tagPresence(tagEnvs, n, r.Version.String())
			e, accepted := r.Env(n)
			certain := accepted && e.Certain(r.Version)
			if p && !accepted {
				t.Errorf("%s: the v%s tag registers it, vlaunch does not know it there", n, r.Version)
			}
			if !p && certain {
				t.Errorf("%s: the v%s tag does not register it, vlaunch is certain of it", n, r.Version)
			}
		}
	}
	t.Logf("%d variables checked against %d release tags", checked, len(rs))
}

// flagNames lists the table's canonical flag names once each, sorted.
func flagNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range flagTable {
		if !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// envNames lists the vLLM-owned variables once each, sorted.
func envNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range envTable {
		if e.Owner == "vllm" && !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	sort.Strings(out)
	return out
}

// formsNotRead are spellings the tag reader cannot see, with why: vlaunch
// keeps them on other evidence.
var formsNotRead = map[string]string{
	// FlexibleArgumentParser rewrites -O<n> / -O.<key> itself
	// (vllm/utils/argparse_utils.py), not an add_argument alias.
	"-O": "rewritten by FlexibleArgumentParser",
}

// TestFlagFormsAtTags checks the other spellings of each flag a release
// tag accepts: argparse builds --no-x only for a BooleanOptionalAction
// (vlaunch: Kind Bool; store_true has no --no-x), and each short alias
// must be registered at the tag.
func TestFlagFormsAtTags(t *testing.T) {
	for _, r := range tagCheckedReleases(t) {
		v := r.Version.String()
		for _, n := range flagNames() {
			if p, _ := tagPresence(tagFlags, "--"+n, v); !p {
				continue
			}
			f, ok := r.Flag("--" + n)
			if !ok {
				continue // TestFlagSpansAtTags reports it
			}
			if np, _ := tagPresence(tagFlags, "--no-"+n, v); np != (f.Kind == Bool) {
				t.Errorf("--%s at v%s: the tag has --no-%s = %v, vlaunch kind %s", n, v, n, np, f.Kind)
			}
			for _, a := range f.Aliases {
				if ap, _ := tagPresence(tagFlags, a, v); !ap && formsNotRead[a] == "" {
					t.Errorf("--%s at v%s: vlaunch accepts alias %s, the tag does not register it", n, v, a)
				}
			}
			for _, h := range FlagHistory(n) { // an alias of another entry
				for _, a := range h.Aliases {
					if ap, _ := tagPresence(tagFlags, a, v); ap {
						if g, ok := r.Flag(a); !ok || g.Name != n {
							t.Errorf("--%s at v%s: the tag registers alias %s, vlaunch does not take it", n, v, a)
						}
					}
				}
			}
		}
	}
}
