package vllm

import (
	"strings"
	"testing"
)

// TestKVConnectorIn: confirmed boundaries decide (Absent), inferred ones
// leave the release unverified (Maybe), a V0 name is certainly gone once a
// later release is cut from main after its removal.
func TestKVConnectorIn(t *testing.T) {
	for _, c := range []struct {
		name, rel string
		want      Presence
	}{
		{"NixlConnector", "0.8.5", Absent},
		{"NixlConnector", "0.9.0", Present},
		{"PyNcclConnector", "0.9.0", Present},
		{"PyNcclConnector", "0.10.1", Maybe}, // removal release inferred
		{"PyNcclConnector", "0.11.0", Absent},
		{"MooncakeConnector", "0.12.0", Maybe},
		{"MooncakeConnector", "0.13.0", Present},
		// #44854: v0.24.0's release notes list the removal, v0.23.0's do not.
		{"P2pNcclConnector", "0.23.0", Present},
		{"P2pNcclConnector", "0.24.0", Absent},
		{"P2pNcclConnector", "0.31.0", Absent},
		// #35264: v0.24.0's release notes list it, v0.23.0's do not.
		{"NixlPushConnector", "0.23.0", Absent},
		{"NixlPushConnector", "0.24.0", Present},
		{"NixlPushConnector", "0.26.0", Present},
		{"NixlPullConnector", "0.23.0", Absent},
		{"NixlPullConnector", "0.24.0", Present},
		{"NoSuchConnector", "0.13.0", Absent},
	} {
		if got := rel(t, c.rel).KVConnectorIn(c.name); got != c.want {
			t.Errorf("%s in %s: %s, want %s", c.name, c.rel, got, c.want)
		}
	}
}

// TestConnectorEngine: MooncakeConnector is the V0 engine's before its
// removal and the V1 engine's after it came back.
func TestConnectorEngine(t *testing.T) {
	c, ok := KVConnector("MooncakeConnector")
	if !ok {
		t.Fatal("MooncakeConnector unknown")
	}
	if !c.V0In(mustVersion("0.8.0")) || c.V0In(mustVersion("0.13.0")) || c.V0In(mustVersion("0.11.0")) {
		t.Errorf("MooncakeConnector: V0 in 0.8.0 %v, 0.13.0 %v, 0.11.0 %v; want true, false, false",
			c.V0In(mustVersion("0.8.0")), c.V0In(mustVersion("0.13.0")), c.V0In(mustVersion("0.11.0")))
	}
}

// TestConnectorsCited: every connector names a pull request, has a span and
// spans that do not overlap, in order.
func TestConnectorsCited(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range connectorTable {
		if seen[c.Name] {
			t.Errorf("%s listed twice", c.Name)
		}
		seen[c.Name] = true
		if !strings.Contains(c.Source, "#") && !strings.Contains(c.Source, "factory.py") {
			t.Errorf("%s: source %q names no pull request", c.Name, c.Source)
		}
		if len(c.Spans) == 0 {
			t.Errorf("%s: no span", c.Name)
		}
		for i, s := range c.Spans {
			if !s.Removed.IsZero() && !s.Since.Less(s.Removed) {
				t.Errorf("%s: span %d empty", c.Name, i)
			}
			if i > 0 && (c.Spans[i-1].Removed.IsZero() || s.Since.Less(c.Spans[i-1].Removed)) {
				t.Errorf("%s: span %d overlaps the one before", c.Name, i)
			}
		}
	}
}
