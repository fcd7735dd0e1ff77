package vllm

import (
	"regexp"
	"strings"
	"testing"
)

// A post release may change the CLI (v0.6.1.post1 dropped --engine-use-ray),
// so it sorts between its base and the next release, while a release
// candidate and a fourth component still count as their base.
func TestVersionOrdersPostReleases(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"0.6.1", "0.6.1.post1", -1},
		{"0.6.1.post1", "0.6.1.post2", -1},
		{"0.6.1.post2", "0.6.2", -1},
		{"0.6.1.post1", "0.6.1.post1+cu121", 0},
		{"0.6.1", "0.6.1.post", -1}, // a bare .post is post 0, still after its base
		{"0.11.1rc2", "0.11.1", 0},
		{"0.10.1.1", "0.10.1", 0},
	} {
		if got := mustVersion(c.a).Compare(mustVersion(c.b)); got != c.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// A post release resolves exactly to its base's row and keeps its suffix,
// so a span ending at that post release still sees it.
func TestResolvePostReleaseKeepsSuffix(t *testing.T) {
	r, warn := Resolve(mustVersion("0.6.1.post1"))
	if !r.Exact() || len(warn) != 0 || r.Version.String() != "0.6.1.post1" {
		t.Fatalf("Resolve(0.6.1.post1) = %s %v %v, want exact 0.6.1.post1", r.Version, r.Match, warn)
	}
	if _, _, _, ok := KVTransferFields(mustVersion("0.6.6.post1")); !ok {
		t.Error("KVTransferFields(0.6.6.post1) found no row; it is row 0.6.6")
	}
	f, ok := KnownFlagEver("--engine-use-ray")
	if !ok {
		t.Fatal("--engine-use-ray unknown")
	}
	for v, want := range map[string]bool{"0.6.1": true, "0.6.1.post1": false, "0.6.2": false} {
		if got := f.Contains(mustVersion(v)); got != want {
			t.Errorf("--engine-use-ray in %s = %v, want %v", v, got, want)
		}
	}
}

// removedInRE finds a Doc's own "removed in X" (not a quoted deprecation
// notice such as 'removed in v0.13.0', which is vLLM's promise, not ours).
var removedInRE = regexp.MustCompile(`(?:^|[^'"])removed in v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)`)

// A flag or variable whose Doc names its removal release must name the
// release its span ends at: lint prints both ("removed in vLLM X" and the
// Doc as the hint), and they said 0.6.2 and 0.6.1.post1.
func TestDocRemovalReleaseIsTheSpans(t *testing.T) {
	check := func(kind, name, doc string, s Span) {
		for _, m := range removedInRE.FindAllStringSubmatch(doc, -1) {
			if s.Removed.IsZero() {
				continue // the Doc tells of an older entry's removal
			}
			if v := mustVersion(m[1]); v.Compare(s.Removed) != 0 || strings.Contains(m[1], "post") != (s.Removed.postRank() > 0) {
				t.Errorf("%s %s: Doc says removed in %s, span ends at %s", kind, name, m[1], s.Removed)
			}
		}
	}
	for _, f := range flagTable {
		check("flag", f.Name, f.Doc, f.Span)
	}
	for _, e := range envTable {
		check("env", e.Name, e.Doc, e.Span)
	}
}
