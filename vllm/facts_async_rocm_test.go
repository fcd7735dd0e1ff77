package vllm

import (
	"strings"
	"testing"
)

// TestAsyncSchedulingRows: the engines of the rows perf.UseAsyncOverlap
// turned fast (issue #28) scheduled asynchronously by their release's
// source: gpt-oss-120b on one MI300X (vLLM 0.17.0, TP1, no speculation,
// uni executor) and DeepSeek-V4-Flash on 8 × H100 (0.31.1rc1.dev50, whose
// rules 0.31.0's stand in for, as in published/throughput.yaml; TP8,
// mp executor, no speculation).
func TestAsyncSchedulingRows(t *testing.T) {
	for _, v := range []string{"0.17.0", "0.31.0"} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		if !r.AsyncSchedulingFor(nil, 1, "") {
			t.Errorf("%s TP only: async scheduling off, want on", v)
		}
	}
}

// TestAsyncSchedulingOnROCm: no release tag read keeps the default off on
// ROCm; the DeepEP high-throughput DBO condition is unknown after 0.24.0,
// and nothing is on before the default.
func TestAsyncSchedulingOnROCm(t *testing.T) {
	for _, c := range []struct {
		v    string
		dbo  bool
		want Presence
	}{
		{"0.13.0", false, Absent},
		{"0.13.0", true, Absent},
		{"0.17.0", false, Present},
		{"0.17.0", true, Present},
		{"0.24.0", true, Present},
		{"0.28.0", false, Present},
		{"0.28.0", true, Maybe},
	} {
		got, src := rel(t, c.v).AsyncSchedulingOnROCm(c.dbo)
		if got != c.want {
			t.Errorf("%s DBO %v: %s, want %s", c.v, c.dbo, got, c.want)
		}
		if !strings.Contains(src, "b31e9326a") || !strings.Contains(src, "000fc94b") {
			t.Errorf("source lacks the v0.17.0 tag or main commit: %s", src)
		}
	}
}
