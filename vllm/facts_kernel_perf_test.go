package vllm

import (
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
		if slow, src := r.IdleDPRanksSlow(); slow != r.Version.AtLeast(v080) || !strings.Contains(src, "#23752") {
			t.Errorf("%s: idle DP ranks slow %v (%s)", tt.version, slow, src)
		}
	}
}

// DeepEP's fixed latencies: low-latency kernels anywhere, normal kernels
// dearer across nodes, none for NCCL gathers; each cites its table or issue.
func TestA2AFixedLatency(t *testing.T) {
	ll := A2AFixedLatency(TrafficPerExpert, true)
	ht := A2AFixedLatency(TrafficPerNode, true)
	htLocal := A2AFixedLatency(TrafficPerNode, false)
	if !(ll.FixedS > 0 && ht.FixedS > ll.FixedS && htLocal.FixedS == ll.FixedS) || A2AFixedLatency(TrafficGather, true).FixedS != 0 {
		t.Fatalf("LL %v, HT %v (intranode %v)", ll.FixedS, ht.FixedS, htLocal.FixedS)
	}
	if !strings.Contains(ll.Source, "legacy.md") || !strings.Contains(ht.Source, "#138") {
		t.Errorf("sources: %q, %q", ll.Source, ht.Source)
	}
}
