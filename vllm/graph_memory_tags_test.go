package vllm

import (
	"strings"
	"testing"
)

// TestUtilizationDefaultAtTags: vllm/config/cache.py's default
// gpu_memory_utilization is 0.9 at the v0.19.1 tag and 0.92 from the v0.20.0
// tag (PR #38284, srcGraphMemTags). vlaunch recorded 0.92 only from 0.22.0,
// so a 0.20.x/0.21.x deployment without the flag was sized at 0.9.
func TestUtilizationDefaultAtTags(t *testing.T) {
	for v, want := range map[string]float64{
		"0.18.1": 0.9, "0.19.0": 0.9, "0.19.1": 0.9,
		"0.20.0": 0.92, "0.20.1": 0.92, "0.20.2": 0.92, "0.21.0": 0.92, "0.22.0": 0.92, "0.24.0": 0.92,
	} {
		if got := rel(t, v).Defaults().GPUMemoryUtilization; got != want {
			t.Errorf("%s: default gpu_memory_utilization %v, want %v", v, got, want)
		}
		f, ok := rel(t, v).Flag("gpu-memory-utilization")
		if !ok || !f.Certain(mustVersion(v)) {
			t.Errorf("%s: --gpu-memory-utilization not certain (ok %v)", v, ok)
		}
	}
}

// TestGraphMemoryVariableFirstRelease: PR #30515 (merged 2026-03-07) is in
// the v0.18.0 tag and not in v0.17.1, whose envs.py has no
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS; vlaunch had it from 0.17.0.
// Setting it on 0.17.x does nothing.
func TestGraphMemoryVariableFirstRelease(t *testing.T) {
	for v, want := range map[string]Presence{
		"0.16.0": Absent, "0.17.0": Absent, "0.17.1": Absent,
		"0.18.0": Present, "0.18.1": Present, "0.19.0": Present, "0.20.0": Present,
	} {
		if got := rel(t, v).GraphMemoryProfiling().VariableIn; got != want {
			t.Errorf("%s: variable %s, want %s", v, got, want)
		}
	}
	if rel(t, "0.17.1").GraphMemoryProfiling().Subtracts("1", true) {
		t.Error("0.17.1 with the variable set to 1: subtracts, but that release does not read it")
	}
}

// TestGraphMemoryDefaultFromTag: the default flipped with the same commit
// at v0.20.0 (envs.py "1"), not at 0.21.0 as vLLM's own log line says; the
// source names the tags read.
func TestGraphMemoryDefaultFromTag(t *testing.T) {
	if rel(t, "0.19.1").GraphMemoryProfiling().DefaultOn != Absent || rel(t, "0.20.0").GraphMemoryProfiling().DefaultOn != Present {
		t.Error("graph-memory profiling default: want off at 0.19.1, on at 0.20.0")
	}
	g := rel(t, "0.20.0").GraphMemoryProfiling()
	for _, s := range []string{"v0.19.1 b1388b1fb", "v0.20.0 88d34c640", "96a85c575"} {
		if !strings.Contains(g.Source, s) {
			t.Errorf("source lacks %q", s)
		}
	}
}
