package vllm

import (
	"math"
	"testing"
)

func TestFlagRanges(t *testing.T) {
	gmu, ok := FlagRange("gpu-memory-utilization")
	if !ok || gmu.String() != "(0, 1]" {
		t.Fatalf("gpu-memory-utilization range %v %v", gmu, ok)
	}
	for x, want := range map[float64]bool{-0.1: false, 0: false, 0.01: true, 0.9: true, 1: true, 1.01: false} {
		if gmu.Contains(x) != want {
			t.Errorf("(0, 1] contains %v = %v", x, !want)
		}
	}
	port, _ := FlagRange("port")
	if port.String() != "[1, 65535]" || port.Contains(0) || !port.Contains(65535) || port.Contains(65536) {
		t.Errorf("port range %v", port)
	}
	seqs, _ := FlagRange("max-num-seqs")
	if seqs.String() != "[1, ∞)" || seqs.Contains(0) || !seqs.Contains(1e9) {
		t.Errorf("max-num-seqs range %v", seqs)
	}
	if _, ok := FlagRange("no-such-flag"); ok {
		t.Error("unknown flag has a range")
	}
}

// TestRangesNameRealFlags: every ranged flag is a numeric flag of the
// table, and every range is well formed and sourced.
func TestRangesNameRealFlags(t *testing.T) {
	for _, r := range rangeTable {
		f, ok := KnownFlagEver(r.Flag)
		if !ok {
			t.Errorf("%s: not a known flag", r.Flag)
			continue
		}
		if f.Kind != Int && f.Kind != Float && f.Kind != HumanInt {
			t.Errorf("%s: kind %v is not numeric", r.Flag, f.Kind)
		}
		if !(r.Min < r.Max) || math.IsNaN(r.Min) || r.Source == "" || r.What == "" {
			t.Errorf("%s: malformed range %+v", r.Flag, r)
		}
	}
}
