package vllm

import (
	"fmt"
	"strings"
	"testing"
)

// primaryMarkers are what a citation of vLLM's own material (or of the
// library that owns a variable) looks like: a versioned docs page, a
// repository file, a PR or issue, a logged argparse Namespace.
var primaryMarkers = []string{"docs.vllm.ai/en/v", "PR #", "issue #", "vllm/", "Namespace", "raw.githubusercontent.com", "docs.nvidia.com"}

// placeholders are secondary summaries: never enough on their own for an
// entry marked Verified.
var placeholders = []string{srcFacts, srcDump, srcEnvs, srcEnvMain, srcNCCLEnv, srcUnknown}

// unverifiedReasons are the words an unverified entry's Source uses to say
// what is not pinned.
var unverifiedReasons = []string{"unverified", "not read", "earliest read", "disputed", "secondary", "not seen"}

func explainsUnverified(src string) bool {
	for _, w := range unverifiedReasons {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

func citesPrimary(src string) bool {
	for _, p := range placeholders {
		src = strings.ReplaceAll(src, p, "")
	}
	for _, m := range primaryMarkers {
		if strings.Contains(src, m) {
			return true
		}
	}
	return false
}

// entry is any table row with a citation.
type entry struct {
	kind, name string
	span       Span
	spanned    bool
	verified   bool
	source     string
}

func allEntries() []entry {
	var es []entry
	for _, f := range flagTable {
		es = append(es, entry{"flag", f.Name, f.Span, true, f.Verified, f.Source})
	}
	for _, e := range envTable {
		es = append(es, entry{"env", e.Name, e.Span, e.Owner == "vllm", e.Verified, e.Source})
	}
	for _, b := range backendTable {
		es = append(es, entry{"backend", b.Name, b.Span, true, b.Verified, b.Source})
	}
	for _, r := range knownReleases {
		es = append(es, entry{"release", r.String(), Span{}, false, r.Verified, r.Source})
	}
	return es
}

// TestEveryEntryCited is the rule the tables live by: every entry names its
// source; an entry marked Verified cites vLLM's own material (not only a
// secondary summary) and has its first release pinned (no unconfirmed
// stretch); every other entry says what is unverified.
func TestEveryEntryCited(t *testing.T) {
	for _, e := range allEntries() {
		id := e.kind + " " + e.name
		switch {
		case e.kind == "release":
			if e.verified && !citesPrimary(e.source) {
				t.Errorf("%s: verified without a primary citation: %q", id, e.source)
			}
		case strings.TrimSpace(e.source) == "":
			t.Errorf("%s: no source", id)
		case e.verified && !citesPrimary(e.source):
			t.Errorf("%s: verified but cites only placeholders: %q", id, e.source)
		case e.verified && e.spanned && !e.span.Confirmed.IsZero():
			t.Errorf("%s: verified but its first release is not confirmed (Confirmed %s)", id, e.span.Confirmed)
		case !e.verified && e.spanned && !explainsUnverified(e.source):
			t.Errorf("%s: unverified without saying why: %q", id, e.source)
		}
		if e.spanned && !e.span.Confirmed.IsZero() && !e.span.Since.Less(e.span.Confirmed) {
			t.Errorf("%s: Confirmed %s must be after Since %s", id, e.span.Confirmed, e.span.Since)
		}
		if e.spanned && !e.span.Confirmed.IsZero() && !e.span.Removed.IsZero() && !e.span.Confirmed.Less(e.span.Removed) {
			t.Errorf("%s: Confirmed %s must be before Removed %s", id, e.span.Confirmed, e.span.Removed)
		}
	}
}

// TestVerificationCounts prints the verified/unverified counts per kind
// (the numbers the data's report quotes) and keeps the verified share from
// silently collapsing.
func TestVerificationCounts(t *testing.T) {
	type count struct{ verified, total int }
	counts := map[string]*count{}
	for _, e := range allEntries() {
		c := counts[e.kind]
		if c == nil {
			c = &count{}
			counts[e.kind] = c
		}
		c.total++
		if e.verified {
			c.verified++
		}
	}
	var b strings.Builder
	for _, k := range []string{"flag", "env", "backend", "release"} {
		c := counts[k]
		fmt.Fprintf(&b, "%s: %d verified / %d unverified / %d total; ", k, c.verified, c.total-c.verified, c.total)
		if c.verified == 0 {
			t.Errorf("%s: no verified entries", k)
		}
	}
	t.Log(b.String())
}
