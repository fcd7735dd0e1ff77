package vllm

import "testing"

func TestEnvLifecycles(t *testing.T) {
	has := func(v, name string) bool { _, ok := rel(t, v).Env(name); return ok }
	for _, tt := range []struct {
		version, name string
		want          bool
	}{
		// versioned vllm.envs pages: listed in 0.12.0, gone in 0.16.0
		{"0.12.0", "VLLM_ALL2ALL_BACKEND", true},
		{"0.16.0", "VLLM_ALL2ALL_BACKEND", false},
		{"0.9.0", "VLLM_ALLOW_RUNTIME_LORA_UPDATING", true},
		{"0.16.0", "VLLM_ALLOW_RUNTIME_LORA_UPDATING", true},
		{"0.11.0", "VLLM_USE_V1", true},
		// PR #28204 removed it: vllm/envs.py has it at v0.11.1rc7, not at
		// v0.11.1 (git grep VLLM_USE_V1 v0.11.1 -- vllm/envs.py: 0 hits)
		{"0.11.1", "VLLM_USE_V1", false},
		{"0.11.2", "VLLM_USE_V1", false},
		{"0.12.0", "VLLM_USE_V1", false},
		{"0.5.4", "VLLM_RPC_PORT", true},
		{"0.5.5", "VLLM_RPC_PORT", false},
		// not read from 0.16.0 (PR #32812 before PR #33535, which the
		// 0.16.0 envs page reflects); issue #23: still read at 0.21 here
		{"0.14.1", "VLLM_ATTENTION_BACKEND", true},
		{"0.14.1", "VLLM_ATTENTION_BACKEND", true},
		// flagspans45: vllm/envs.py at the v0.15.0 and v0.15.1 tags no longer registers it
		{"0.15.1", "VLLM_ATTENTION_BACKEND", false},
		{"0.16.0", "VLLM_ATTENTION_BACKEND", false},
		{"0.21.0", "VLLM_ATTENTION_BACKEND", false},
		{"0.26.0", "VLLM_ATTENTION_BACKEND", false},
		{"0.9.0", "VLLM_WORKER_MULTIPROC_METHOD", true},
		{"0.30.0", "VLLM_ENABLE_V1_MULTIPROCESSING", true},
		{"0.9.0", "NCCL_IB_DISABLE", true},
		{"0.30.0", "NCCL_CUMEM_ENABLE", true},
		{"0.30.0", "CUDA_DEVICE_MAX_CONNECTIONS", true},
		// PR #25619: 0.10.2's warm-up has no modes, 0.11.2's reads it.
		{"0.10.2", "VLLM_DEEP_GEMM_WARMUP", false},
		{"0.11.2", "VLLM_DEEP_GEMM_WARMUP", true},
		{"0.20.1", "VLLM_DEEP_GEMM_WARMUP", true},
	} {
		if got := has(tt.version, tt.name); got != tt.want {
			t.Errorf("%s: Env(%s) = %v, want %v", tt.version, tt.name, got, tt.want)
		}
	}
	if e, _ := KnownEnvEver("VLLM_ATTENTION_BACKEND"); e == nil || e.Deprecated.String() != "0.14.0" {
		t.Errorf("VLLM_ATTENTION_BACKEND deprecation = %v", e)
	}
	e, _ := Newest().Env("NCCL_P2P_DISABLE")
	if e == nil || !contains(e.Choices, "1") || contains(e.Choices, "true") {
		t.Errorf("NCCL_P2P_DISABLE choices = %v", e)
	}
	// "skip" is LOG196's warm-up workaround; vllm/envs.py registers the
	// variable from the v0.11.1 tag (flagspans45), not at v0.11.0.
	if e, _ := rel(t, "0.11.2").Env("VLLM_DEEP_GEMM_WARMUP"); e == nil || !contains(e.Choices, "skip") || e.Default != "relax" ||
		e.Span.Contains(mustVersion("0.11.0")) || !e.Span.Certain(mustVersion("0.11.1")) {
		t.Errorf("VLLM_DEEP_GEMM_WARMUP = %+v", e)
	}
	// NCCL_DEBUG is parsed case-insensitively by NCCL; exact choices would
	// flag "info" falsely.
	if e, _ := Newest().Env("NCCL_DEBUG"); e == nil || len(e.Choices) != 0 {
		t.Errorf("NCCL_DEBUG must have no exact-match choices: %v", e)
	}
}

// TestEnvTableConsistency: one name, disjoint spans (Env scans newest entry
// first, so an older overlapping entry would resurrect a removed variable).
func TestEnvTableConsistency(t *testing.T) {
	seen := map[string][]*EnvVar{}
	for i := range envTable {
		e := &envTable[i]
		if e.Doc == "" || e.Source == "" || e.Owner == "" {
			t.Errorf("env %s: missing doc, source or owner", e.Name)
		}
		if e.Owner == "vllm" && e.Since.IsZero() {
			t.Errorf("env %s: vLLM variable without a first release", e.Name)
		}
		for _, o := range seen[e.Name] {
			if e.Owner != "vllm" || spansOverlap(o.Span, e.Span) {
				t.Errorf("env %s: overlapping entries", e.Name)
			}
		}
		seen[e.Name] = append(seen[e.Name], e)
	}
}
