package vllm

import (
	"strings"
	"testing"
)

// TestExternalLBLaunch: a per-rank launch is absent at 0.9.0 (its tag lacks
// --data-parallel-rank) and 0.9.1 (released before PR #19790 was merged),
// unknown for 0.9.2-0.10.2 (released after it, tags not read), present
// from 0.11.0 (read at the tag); the refusal's "since" is 0.11.0.
func TestExternalLBLaunch(t *testing.T) {
	for v, want := range map[string]Presence{"0.8.5": Absent, "0.9.0": Absent, "0.9.1": Absent, "0.9.2": Maybe, "0.10.0": Maybe, "0.10.1": Maybe, "0.10.1.1": Maybe, "0.10.2": Maybe,
		"0.11.0": Present, "0.16.0": Present, Newest().Version.String(): Present} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		p, why, since := r.ExternalLBLaunch()
		if p != want || since.String() != "0.11.0" || !strings.Contains(why, v) {
			t.Errorf("%s: %v (%s), since %s; want %v since 0.11.0", v, p, why, since, want)
		}
	}
}

// TestExtLBFlagsWritable: every flag the generator writes on a rank is one
// the flag table has, certain, wherever the launch is Present, so the
// generator's checked argument list never refuses it; the flags it leaves
// out are named with why.
func TestExtLBFlagsWritable(t *testing.T) {
	written := 0
	for _, r := range Releases() {
		if p, _, _ := r.ExternalLBLaunch(); p != Present {
			continue
		}
		for _, f := range ExtLBFlags {
			if !f.Written {
				if !strings.HasPrefix(f.Use, "not written") {
					t.Errorf("%s: left out without saying why: %q", f.Name, f.Use)
				}
				continue
			}
			written++
			if _, ok := r.CertainFlag(f.Name); !ok {
				t.Errorf("vLLM %s: --%s is written on every rank but not certain in the flag table", r.Version, f.Name)
			}
		}
	}
	if written == 0 {
		t.Fatal("no release with a per-rank launch")
	}
}
