package vllm

import (
	"math"
	"strings"
	"testing"
)

// The kernel and scheduler facts by release, both sides of each boundary.
func TestKernelPerfFacts(t *testing.T) {
	for _, tt := range []struct {
		version string
		sched   SchedulerKind
	}{
		{"0.7.3", SchedPrefillFirstWhole},
		{"0.8.0", SchedDecodeFirst},
		{"0.22.1", SchedDecodeFirst},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		if k, src := r.Scheduler(); k != tt.sched || !strings.Contains(src, "scheduler.py") {
			t.Errorf("%s: scheduler %v (%s), want %v", tt.version, k, src, tt.sched)
		}
	}
}

// Idle DP ranks run their dummy batch without CUDA graphs from PR #20059
// (0.10.1) until PRs #25407/#25505/#25906 (all in the v0.11.0 tag): both
// sides of each boundary, a patch release inside the window (0.10.1.1, whose
// documentation shows the dispatcher), and 0.19.0 (the PegaInfer H20
// baseline, whose 1-session TPOT is below its 8-session one).
func TestIdleDPRanksSlowByRelease(t *testing.T) {
	for _, tt := range []struct {
		version string
		slow    bool
	}{
		{"0.8.0", false},
		{"0.10.0", false},
		{"0.10.1", true},
		{"0.10.1.1", true},
		{"0.10.2", true},
		{"0.11.0", false},
		{"0.11.1", false},
		{"0.19.0", false},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		slow, src := r.IdleDPRanksSlow()
		if slow != tt.slow {
			t.Errorf("%s: idle DP ranks slow %v, want %v", tt.version, slow, tt.slow)
		}
		for _, cite := range []string{"#20059", "#25407", "#25505", "#25906", "b8b302cde434", "#23752"} {
			if !strings.Contains(src, cite) {
				t.Errorf("%s: source %q does not cite %s", tt.version, src, cite)
			}
		}
	}
}

// DeepEP's fixed latencies: low-latency kernels anywhere, normal kernels
// dearer across nodes, none for NCCL gathers; each cites its table or issue.
func TestA2AFixedLatency(t *testing.T) {
	ll := A2AFixedLatency(TrafficPerExpert, true, 32)
	ht := A2AFixedLatency(TrafficPerNode, true, 32)
	htLocal := A2AFixedLatency(TrafficPerNode, false, 8)
	if !(ll.FixedS > 0 && ht.FixedS > ll.FixedS && htLocal.FixedS == A2AFixedLatency(TrafficPerExpert, false, 8).FixedS) ||
		A2AFixedLatency(TrafficGather, true, 32).FixedS != 0 {
		t.Fatalf("LL %v, HT %v (intranode %v)", ll.FixedS, ht.FixedS, htLocal.FixedS)
	}
	if !strings.Contains(ll.Source, "legacy.md") || !strings.Contains(ht.Source, "#138") {
		t.Errorf("sources: %q, %q", ll.Source, ht.Source)
	}
}

// The low-latency kernels' fixed part against DeepEP's table (docs/legacy.md
// at dd758ca), per phase: the mean of dispatch and combine less their bytes
// (7.586 MB and 14.68 MB per rank: 128 tokens × 8 copies) — other nodes'
// share at 50 GB/s, or within a node the other GPUs' share at 160 GB/s.
// EP 8: 7/8 over NVLink, 41.5 and 80.3 µs; EP 16: half through the NIC,
// 75.9 and 146.8 µs; EP 32: 3/4, 113.8 and 220.2 µs; EP 256 (not fitted):
// 31/32, 147.0 and 284.4 µs. Each within 4 µs.
func TestA2AFixedLatencyByEP(t *testing.T) {
	for _, tt := range []struct {
		ep                  int
		dispatch, combine   float64 // the table's µs
		dispatchB, combineB float64 // their bytes' µs
	}{
		{8, 77, 114, 41.5, 80.3},
		{16, 118, 195, 75.9, 146.8},
		{32, 155, 273, 113.8, 220.2},
		{256, 194, 360, 147.0, 284.4},
	} {
		want := (tt.dispatch - tt.dispatchB + tt.combine - tt.combineB) / 2
		got := A2AFixedLatency(TrafficPerExpert, true, tt.ep).FixedS * 1e6
		if math.Abs(got-want) > 4 {
			t.Errorf("EP %d: %.1f µs per phase, the table leaves %.1f µs", tt.ep, got, want)
		}
	}
	if s := deepEPLLPerDoublingS * 1e6; s < 3 || s > 8 {
		t.Errorf("%.2f µs per doubling of EP, want ≈4.4", s)
	}
	if a, b := A2AFixedLatency(TrafficPerExpert, true, 16).FixedS, A2AFixedLatency(TrafficPerExpert, true, 32).FixedS; b <= a {
		t.Errorf("EP 32 %v s not above EP 16 %v s", b, a)
	}
}
