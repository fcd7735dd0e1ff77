package lint

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/vllm"
)

// oldSide is the newest release that counts as the old side of a rule that
// holds for every release: 0.9.0, the first release whose `vllm serve` has
// the multi-node data-parallel flags (--data-parallel-size-local,
// -address, -rpc-port, -start-rank, --headless: absent from the v0.8.5
// tag, present at v0.9.0, read by tools/flagspans), before the later
// launch changes. 0.8.x only has --data-parallel-size (from 0.8.3).
var oldSide = mustRelease("0.9.0")

func mustRelease(v string) vllm.Version {
	r, _, err := vllm.ResolveString(v)
	if err != nil {
		panic(err)
	}
	return r.Version
}

// TestErrorRulesBothSides: every error-level rule states the releases it
// holds for (Rule.needs, holdsFrom) and is tested on both sides of that
// range: a fixture inside the range that expects the finding, and either a
// clean fixture below the range (where the construct is not this rule's
// error) or, for a rule of every release, a fixture at the oldest release
// and one at the newest, both expecting it.
func TestErrorRulesBothSides(t *testing.T) {
	newest := vllm.Newest().Version
	for _, r := range Rules {
		if codes.Severity(r.Code) != diag.Error || r.check == nil {
			continue
		}
		from := r.holdsFrom()
		pos, below := fixtureVersions(t, string(r.Code), from)
		switch {
		case from.Compare(vllm.Oldest().Version) > 0:
			if !containsAtLeast(pos, from) || len(below) == 0 {
				t.Errorf("%s holds from %s: want a fixture at >= %s expecting it (have %v) and a clean* fixture below %s (have %v)", r.Code, from, from, pos, from, below)
			}
		default:
			if !containsAtMost(pos, oldSide) || !containsAtLeast(pos, newest) {
				t.Errorf("%s holds for every release: want fixtures expecting it at %s and at %s (have %v)", r.Code, oldSide, newest, pos)
			}
		}
	}
}

// fixtureVersions lists the releases the rule's positive fixtures are
// linted for, and those of its clean* fixtures below from.
func fixtureVersions(t *testing.T, code string, from vllm.Version) (pos, below []vllm.Version) {
	for _, path := range fixtures(t, filepath.Join("testdata/rules", code)) {
		fx := loadFixture(t, path)
		v := vllm.Newest().Version
		if fx.version != "" {
			rel, _, err := vllm.ResolveString(fx.version)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			v = rel.Version
		}
		expects := false
		for _, w := range fx.wants() {
			expects = expects || w.code == code
		}
		switch {
		case expects:
			pos = append(pos, v)
		case strings.HasPrefix(filepath.Base(path), "clean") && v.Less(from):
			below = append(below, v)
		}
	}
	sort.Slice(pos, func(i, j int) bool { return pos[i].Less(pos[j]) })
	return pos, below
}

func containsAtLeast(vs []vllm.Version, v vllm.Version) bool {
	for _, x := range vs {
		if x.AtLeast(v) {
			return true
		}
	}
	return false
}

func containsAtMost(vs []vllm.Version, v vllm.Version) bool {
	for _, x := range vs {
		if !v.Less(x) {
			return true
		}
	}
	return false
}
