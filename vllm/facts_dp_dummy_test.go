package vllm

import (
	"strings"
	"testing"
)

// TestDPDummyRunAheadByRelease: per release, which of the three changes it
// has ((a) #27455, (b) #29311/#30161, (c) #34866; srcDPDummyChanges) and
// the run-ahead that follows, with and without async scheduling. "?" is a
// change no source pins (Maybe), and a run-ahead of -1 one that is unknown
// (returned as 0 with known = Maybe).
func TestDPDummyRunAheadByRelease(t *testing.T) {
	for _, c := range []struct {
		version        string
		a, b, ch       string // "y", "n" or "?"
		async, nonSync int    // -1: unknown
	}{
		{"0.10.2", "n", "n", "n", 0, 0},
		{"0.11.0", "n", "n", "n", 0, 0}, // tag read: blocking index copy
		{"0.11.1", "?", "n", "n", -1, -1},
		{"0.11.2", "?", "?", "n", -1, -1},
		{"0.12.0", "y", "?", "n", -1, 1}, // cut after #29559, same week as #29311
		{"0.13.0", "y", "?", "n", -1, 1},
		{"0.14.0", "y", "y", "n", -1, 1}, // has #27614 (2026-01-02 week): (a), (b), no (c): unbounded
		{"0.14.1", "y", "y", "n", -1, 1},
		{"0.15.0", "y", "y", "?", -1, 1},
		{"0.15.1", "y", "y", "?", -1, 1},
		{"0.16.0", "y", "y", "?", -1, 1},
		{"0.17.0", "y", "y", "?", -1, 1},
		{"0.17.1", "y", "y", "y", 2, 1}, // fork snapshot: synchronize_input_prep in _dummy_run
		{"0.18.0", "y", "y", "y", 2, 1},
		{"0.18.1", "y", "y", "y", 2, 1},
		{"0.19.0", "y", "y", "y", 2, 1}, // main 08ed2b968 read
		{"0.22.1", "y", "y", "y", 2, 1}, // assumed like 0.19.0
	} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exact() {
			t.Fatalf("%s: not a release of the table", c.version)
		}
		pres := map[string]Presence{"y": Present, "n": Absent, "?": Maybe}
		a, b, ch := r.DPDummyChanges()
		if a != pres[c.a] || b != pres[c.b] || ch != pres[c.ch] {
			t.Errorf("%s: changes (a) %v (b) %v (c) %v, want %s %s %s", c.version, a, b, ch, c.a, c.b, c.ch)
		}
		for _, async := range []bool{true, false} {
			want := c.nonSync
			if async {
				want = c.async
			}
			n, known, src := r.DPDummyRunAheadKnown(async)
			switch {
			case want < 0 && (known != Maybe || n != 0):
				t.Errorf("%s async %v: run-ahead %d (%v), want unknown (0, unverified)", c.version, async, n, known)
			case want >= 0 && (known != Present || n != want):
				t.Errorf("%s async %v: run-ahead %d (%v), want %d (present)", c.version, async, n, known, want)
			}
			if n2, src2 := r.DPDummyRunAhead(async); n2 != n || src2 != src {
				t.Errorf("%s async %v: DPDummyRunAhead %d, DPDummyRunAheadKnown %d", c.version, async, n2, n)
			}
			for _, s := range []string{
				"gpu_model_runner.py", "dp_utils.py", "config/vllm.py", "b8b302cde434", "08ed2b968",
				"#27455", "#29311", "#30161", "#34866", "#29559", "#27614",
				"ProtoAI-Bakari/vllm-asahi-vulkan-0.17.1@3cde9c25", "weekly summaries",
			} {
				if !strings.Contains(src, s) {
					t.Errorf("%s: source does not name %q", c.version, s)
				}
			}
		}
	}
}

// TestDPRunAheadDerivation, by hand (srcDPDummyRunAhead): a blocking index
// copy makes each dummy pass wait for its own graph (0); without it the
// NCCL all-reduce at the top of the next pass waits for the previous graph
// (1), unless the all-reduce is gloo's under async scheduling, where the
// prepare_inputs_event wait lets the host be two graphs ahead (2), and
// without that wait nothing cited bounds it (unknown). An unpinned change
// on the way makes the result unknown.
func TestDPRunAheadDerivation(t *testing.T) {
	for _, c := range []struct {
		a, b, ch Presence
		async    bool
		n        int
		known    Presence
	}{
		{Absent, Present, Present, true, 0, Present},
		{Absent, Absent, Absent, false, 0, Present},
		{Present, Absent, Absent, true, 1, Present},
		{Present, Present, Present, false, 1, Present},
		{Present, Maybe, Absent, false, 1, Present},
		{Present, Present, Present, true, 2, Present},
		{Present, Present, Absent, true, 0, Maybe},
		{Present, Present, Maybe, true, 0, Maybe},
		{Present, Maybe, Present, true, 0, Maybe},
		{Maybe, Absent, Absent, false, 0, Maybe},
	} {
		if n, known := dpRunAhead(c.a, c.b, c.ch, c.async); n != c.n || known != c.known {
			t.Errorf("(a) %v (b) %v (c) %v async %v: %d %v, want %d %v", c.a, c.b, c.ch, c.async, n, known, c.n, c.known)
		}
	}
}
