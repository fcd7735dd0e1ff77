package vllm

import (
	"strings"
	"testing"
)

// Facts the third audit (issue #23, factaudit2) found false, each against
// the release files named in sources_factaudit2.go: the v0.9.0 and v0.11.0
// tag commits, the v0.16.0 release branch, the v0.19.0 commit 2a69949bd,
// and a third-party checkout of 0.21.0.

// TestEnvSpansFactAudit2: whether a release's vllm/envs.py registers the
// variable (Present/Absent where a file was read; Maybe between).
func TestEnvSpansFactAudit2(t *testing.T) {
	for _, tt := range []struct {
		name, v string
		want    Presence
		cite    string
	}{
		// Added after 0.9.0 (PR #19506), removed by PR #39107.
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.9.0", Absent, "587387724"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.8.4", Absent, "587387724"},
		// flagspans45: vllm/envs.py at the v0.9.2 tag registers it (absent at v0.9.1).
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.10.1", Present, "#19506"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.9.1", Absent, "v0.9.2"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.11.0", Present, "b8b302cde434"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.19.0", Present, "2a69949bd"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.21.0", Absent, "#39107"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.20.0", Absent, "v0.20.0"},
		{"VLLM_MOE_DP_CHUNK_SIZE", "0.19.1", Present, "v0.19.1"},
		{"VLLM_RANDOMIZE_DP_DUMMY_INPUTS", "0.9.0", Absent, "#19298"},
		{"VLLM_RANDOMIZE_DP_DUMMY_INPUTS", "0.11.0", Present, "b8b302cde434"},
		// In the v0.11.0 tag already (PR #24845), not only from 0.12.0.
		{"VLLM_DEEPEP_BUFFER_SIZE_MB", "0.11.0", Present, "#24845"},
		{"VLLM_DBO_COMM_SMS", "0.11.0", Present, "#24845"},
		// Not in the v0.11.0 tag.
		{"VLLM_MOE_USE_DEEP_GEMM", "0.11.0", Absent, "#28422"},
		{"VLLM_MOE_USE_DEEP_GEMM", "0.12.0", Present, "#28422"}, // from the v0.11.1 tag (flagspans45)
		{"VLLM_MOE_USE_DEEP_GEMM", "0.16.0", Present, "2d5be1dd5"},
		{"VLLM_RAY_DP_PACK_STRATEGY", "0.11.0", Absent, "#23849"},
		{"VLLM_RAY_DP_PACK_STRATEGY", "0.16.0", Present, "2d5be1dd5"},
		{"VLLM_DEEP_GEMM_WARMUP", "0.11.0", Absent, "b8b302cde434"},
		{"VLLM_DEEP_GEMM_WARMUP", "0.16.0", Present, "#25619"},
		// Not in the v0.16.0 release branch.
		{"VLLM_RAY_EXTRA_ENV_VARS_TO_COPY", "0.16.0", Absent, "#34383"},
		{"VLLM_RAY_EXTRA_ENV_VAR_PREFIXES_TO_COPY", "0.16.0", Absent, "#34383"},
		{"VLLM_RAY_EXTRA_ENV_VAR_PREFIXES_TO_COPY", "0.17.1", Present, "#34383"}, // from the v0.17.0 tag (flagspans45)
		{"VLLM_RAY_EXTRA_ENV_VARS_TO_COPY", "0.19.0", Present, "2a69949bd"},
		{GraphMemoryVariable, "0.12.0", Absent, "#30515"},
		{GraphMemoryVariable, "0.16.0", Absent, "2d5be1dd5"},
		{GraphMemoryVariable, "0.19.0", Present, "2a69949bd"},
		// Gone: no longer registered (vLLM warns "Unknown vLLM environment variable").
		{"VLLM_USE_TRITON_FLASH_ATTN", "0.11.0", Present, "b8b302cde434"},
		{"VLLM_USE_TRITON_FLASH_ATTN", "0.16.0", Absent, "#27611"},
		{"VLLM_TORCH_PROFILER_DIR", "0.11.0", Present, "b8b302cde434"},
		{"VLLM_TORCH_PROFILER_DIR", "0.16.0", Absent, "#33722"},
		{"VLLM_FLASHINFER_FORCE_TENSOR_CORES", "0.9.0", Present, "587387724"},
		{"VLLM_FLASHINFER_FORCE_TENSOR_CORES", "0.11.0", Absent, "#23214"},
	} {
		e, ok := KnownEnvEver(tt.name)
		if !ok {
			t.Fatalf("%s unknown", tt.name)
		}
		got := Absent
		for i := range envTable {
			if envTable[i].Name == tt.name {
				if p := envTable[i].In(mustVersion(tt.v)); p > got {
					got = p
				}
			}
		}
		if got != tt.want {
			t.Errorf("%s at %s: %s, want %s", tt.name, tt.v, got, tt.want)
		}
		if _, in := rel(t, tt.v).Env(tt.name); in != (tt.want != Absent) {
			t.Errorf("%s at %s: Env found = %v", tt.name, tt.v, in)
		}
		if !strings.Contains(e.Source, tt.cite) {
			t.Errorf("%s: source lacks %s: %q", tt.name, tt.cite, e.Source)
		}
	}
}

// TestFlashInferSamplerDefault: VLLM_USE_FLASHINFER_SAMPLER unset is opt-in
// at the v0.19.0 commit (envs.py: None; "Users must opt in explicitly") and
// on at 0.21.0 (envs.py: True; PR #40376); 0.20.x was not read.
func TestFlashInferSamplerDefault(t *testing.T) {
	for v, want := range map[string]Presence{"0.11.0": Present, "0.18.1": Absent, "0.19.0": Absent, "0.20.2": Maybe, "0.21.0": Present, "0.28.0": Present} {
		if got := rel(t, v).ProfileSampler(1024, "", false).FlashInfer; got != want {
			t.Errorf("%s: FlashInfer default %s, want %s", v, got, want)
		}
	}
	src := rel(t, "0.21.0").ProfileSampler(1024, "", false).Source
	for _, cite := range []string{"2a69949bd", "535947a1", "ae9bec9f", "#40376"} {
		if !strings.Contains(src, cite) {
			t.Errorf("source lacks %s", cite)
		}
	}
}

// TestFlagSpansFactAudit2: flags read in vllm/engine/arg_utils.py and
// FrontendArgs at the v0.11.0 tag, the v0.16.0 release branch and the
// v0.19.0 commit. Present/Absent where a file was read; Maybe between.
func TestFlagSpansFactAudit2(t *testing.T) {
	for _, tt := range []struct {
		v, flag string
		want    Presence
		cite    string
	}{
		// False before: -dpe is a flag only from PR #23691; 0.11.0 infers
		// external LB from --data-parallel-rank.
		{"0.11.0", "--data-parallel-external-lb", Absent, "#23691"},
		{"0.10.1", "-dpe", Absent, "#23691"},
		{"0.12.0", "-dpe", Present, "#23691"}, // arg_utils.py from the v0.11.1 tag (flagspans45)
		{"0.16.0", "--data-parallel-external-lb", Present, "2d5be1dd5"},
		// Present at 0.11.0 (the table began at 0.11.1).
		{"0.11.0", "--kv-cache-memory-bytes", Present, "b8b302cde434"},
		// Removed flags.
		{"0.11.0", "--rope-scaling", Present, "#28006"},
		{"0.16.0", "--rope-scaling", Absent, "#28006"},
		{"0.16.0", "--rope-theta", Absent, "#28006"},
		{"0.16.0", "--logits-processor-pattern", Present, "#34400"},
		{"0.19.0", "--logits-processor-pattern", Absent, "#34400"},
		{"0.11.0", "--preemption-mode", Absent, "#25334"},
		{"0.16.0", "--disable-frontend-multiprocessing", Present, "#37612"},
		{"0.19.0", "--disable-frontend-multiprocessing", Absent, "#37612"},
		// Added: absent where read, present from the first read release.
		{"0.19.0", "--reasoning-config", Present, "#20859"},
		{"0.19.0", "-dpm", Absent, "2a69949bd"},
		{"0.19.0", "--data-parallel-supervisor-port", Absent, "2a69949bd"},
		{"0.19.0", "--spec-method", Absent, "2a69949bd"},
		{"0.16.0", "--moe-backend", Absent, "#33807"},
		{"0.19.0", "--moe-backend", Present, "#33807"},
		{"0.16.0", "--performance-mode", Absent, "#34936"},
		{"0.19.0", "--performance-mode", Present, "#34936"},
		{"0.16.0", "--dcp-comm-backend", Absent, "#34883"},
		{"0.19.0", "--dcp-comm-backend", Present, "#34883"},
		{"0.16.0", "--enable-ep-weight-filter", Absent, "#37351"},
		{"0.19.0", "--enable-ep-weight-filter", Present, "#37351"},
		{"0.11.0", "--enable-mm-embeds", Absent, "#27204"},
		{"0.16.0", "--enable-mm-embeds", Present, "#27204"},
		{"0.11.0", "--disable-nccl-for-dp-synchronization", Absent, "#25768"},
		{"0.16.0", "--disable-nccl-for-dp-synchronization", Present, "#25768"},
		// Unknown-before-seen stretches shortened by a read release.
		{"0.16.0", "--attention-backend", Present, "2d5be1dd5"},
		{"0.11.0", "--expert-placement-strategy", Present, "b8b302cde434"},
		{"0.16.0", "--stream-interval", Present, "2d5be1dd5"},
		{"0.16.0", "--mamba-cache-mode", Present, "2d5be1dd5"},
		{"0.16.0", "--default-chat-template-kwargs", Present, "2d5be1dd5"},
		{"0.11.0", "--disable-hybrid-kv-cache-manager", Present, "b8b302cde434"},
		{"0.11.0", "--data-parallel-hybrid-lb", Present, "b8b302cde434"},
	} {
		if got, _ := rel(t, tt.v).FlagIn(tt.flag); got != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.v, tt.flag, got, tt.want)
		}
		f, ok := KnownFlagEver(tt.flag)
		if !ok || !strings.Contains(f.Source, tt.cite) {
			t.Errorf("%s: source lacks %s", tt.flag, tt.cite)
		}
	}
}

// TestBackendsAndConnectorsFactAudit2: the All2AllBackend Literal of the
// v0.16.0 release branch has neither nixl_ep nor the FlashInfer NVLink
// one-/two-sided kernels (0.19.0 has all three; mori is in both); the
// KV connector factory of 0.19.0 registers ExampleHiddenStatesConnector
// (the table had it from 0.23) and not HF3FSKVConnector (the table had it
// from 0.19).
func TestBackendsAndConnectorsFactAudit2(t *testing.T) {
	for _, tt := range []struct {
		v, name string
		want    Presence
	}{
		{"0.16.0", "nixl_ep", Absent},
		{"0.16.0", "flashinfer_nvlink_one_sided", Absent},
		{"0.16.0", "flashinfer_nvlink_two_sided", Absent},
		{"0.17.1", "nixl_ep", Absent},  // choices45: the v0.17.1 tag's --all2all-backend lacks it
		{"0.18.1", "nixl_ep", Present}, // v0.18.0 tag on
		{"0.19.0", "nixl_ep", Present},
		{"0.19.0", "flashinfer_nvlink_two_sided", Present},
		{"0.16.0", "mori", Present},
		{"0.16.0", "flashinfer_all2allv", Present},
	} {
		if got, _ := rel(t, tt.v).BackendIn(tt.name); got != tt.want {
			t.Errorf("%s all2all %s: %s, want %s", tt.v, tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		v, name string
		want    Presence
	}{
		{"0.19.0", "ExampleHiddenStatesConnector", Present},
		{"0.16.0", "ExampleHiddenStatesConnector", Maybe}, // "unknown before": never an error
		{"0.19.0", "HF3FSKVConnector", Maybe},
		{"0.20.0", "HF3FSKVConnector", Present},
		{"0.16.0", "MoRIIOConnector", Present},
		{"0.16.0", "DecodeBenchConnector", Present},
	} {
		if got := rel(t, tt.v).KVConnectorIn(tt.name); got != tt.want {
			t.Errorf("%s connector %s: %s, want %s", tt.v, tt.name, got, tt.want)
		}
	}
}

// TestSparseMLAPriority: at the v0.19.0 commit Blackwell tries FlashInfer's
// sparse MLA first for an FP8 KV cache or at most 16 heads per rank; the
// v0.16.0 release branch has no such backend. MLABackend follows only with
// UseFlashInferSparseMLA on (off: no kernel model for it).
func TestSparseMLAPriority(t *testing.T) {
	for _, tt := range []struct {
		v     string
		sm    int
		fp8   bool
		heads int
		want  Presence
	}{
		{"0.19.0", 10, true, 128, Present},
		{"0.19.0", 10, false, 16, Present}, // DeepSeek-V3.2's 128 heads at TP 8
		{"0.19.0", 10, false, 128, Absent},
		{"0.19.0", 10, false, 0, Maybe},
		{"0.19.0", 9, true, 16, Absent}, // Hopper: FLASHMLA_SPARSE only
		{"0.18.1", 10, true, 128, Maybe},
		{"0.16.0", 10, true, 128, Absent},
		{"0.28.0", 10, true, 128, Present},
	} {
		if got, src := rel(t, tt.v).SparseMLAPrefersFlashInfer(tt.sm, tt.fp8, tt.heads); got != tt.want || !strings.Contains(src, "2a69949bd") {
			t.Errorf("%s sm%d fp8 %v heads %d: %s, want %s", tt.v, tt.sm, tt.fp8, tt.heads, got, tt.want)
		}
	}
	defer func(old bool) { UseFlashInferSparseMLA = old }(UseFlashInferSparseMLA)
	for _, on := range []bool{false, true} {
		UseFlashInferSparseMLA = on
		want := MLAFlashMLASparse
		if on {
			want = MLAFlashInferSparse
		}
		if got, _ := rel(t, "0.19.0").MLABackend(10, true, true); got != want {
			t.Errorf("switch %v: 0.19.0 Blackwell sparse FP8: %s, want %s", on, got, want)
		}
		if got, _ := rel(t, "0.16.0").MLABackend(10, true, true); got != MLAFlashMLASparse {
			t.Errorf("switch %v: 0.16.0: %s", on, got)
		}
		if got, _ := rel(t, "0.19.0").MLABackend(9, true, true); got != MLAFlashMLASparse {
			t.Errorf("switch %v: Hopper: %s", on, got)
		}
	}
}

// TestAsyncSchedulingExecutor: the Ray executor keeps async scheduling off
// by default at the v0.16.0 branch and the v0.19.0 commit; mp keeps the
// release's default.
func TestAsyncSchedulingExecutor(t *testing.T) {
	for _, tt := range []struct {
		v, backend string
		want       Presence
	}{
		{"0.16.0", "ray", Absent},
		{"0.19.0", "ray", Absent},
		{"0.16.0", "mp", Present},
		{"0.19.0", "", Present},
		{"0.13.0", "mp", Absent}, // default off before 0.14
	} {
		got, src := rel(t, tt.v).AsyncSchedulingWithExecutor(tt.backend)
		if got != tt.want || !strings.Contains(src, "2d5be1dd5") || !strings.Contains(src, "2a69949bd") {
			t.Errorf("%s %q: %s, want %s", tt.v, tt.backend, got, tt.want)
		}
	}
	if p, _ := rel(t, "0.14.0").AsyncSchedulingByDefault(); p == Present {
		if got, _ := rel(t, "0.14.0").AsyncSchedulingWithExecutor("ray"); got != Maybe {
			t.Errorf("0.14.0 ray: %s, want unverified", got)
		}
	}
}

// TestSparseMLAHopper: the v0.28.0 tag tries FLASH_ATTN_MLA_SPARSE first on
// Hopper; the v0.19.0 commit has FLASHMLA_SPARSE alone. MLABackend follows
// only with UseFlashAttnSparseMLA on.
func TestSparseMLAHopper(t *testing.T) {
	for _, tt := range []struct {
		v    string
		sm   int
		fp8  bool
		want Presence
	}{
		{"0.19.0", 9, false, Absent},
		{"0.22.1", 9, false, Maybe},
		{"0.28.0", 9, false, Present},
		{"0.28.0", 9, true, Maybe},
		{"0.28.0", 10, false, Absent},
	} {
		if got, src := rel(t, tt.v).SparseMLAHopperPrefersFlashAttn(tt.sm, tt.fp8); got != tt.want || !strings.Contains(src, "2cf0a6915ce5") {
			t.Errorf("%s sm%d fp8 %v: %s, want %s", tt.v, tt.sm, tt.fp8, got, tt.want)
		}
	}
	defer func(old bool) { UseFlashAttnSparseMLA = old }(UseFlashAttnSparseMLA)
	for _, on := range []bool{false, true} {
		UseFlashAttnSparseMLA = on
		want := MLAFlashMLASparse
		if on {
			want = MLAFlashAttnSparse
		}
		if got, _ := rel(t, "0.28.0").MLABackend(9, false, true); got != want {
			t.Errorf("switch %v: 0.28.0 Hopper sparse BF16: %s, want %s", on, got, want)
		}
		if got, _ := rel(t, "0.28.0").MLABackend(9, true, true); got != MLAFlashMLASparse {
			t.Errorf("switch %v: 0.28.0 Hopper sparse FP8: %s", on, got)
		}
	}
}

// TestBatchedDPMoEDefault: from PR #39107 (in 0.20.0, read at the v0.20.0
// and v0.28.0 tags) deepep_low_latency or nixl_ep with EP and DP > 1 defaults
// max_num_batched_tokens to 256.
func TestBatchedDPMoEDefault(t *testing.T) {
	for _, tt := range []struct {
		v, backend string
		ep         bool
		dp         int
		want       Presence
	}{
		{"0.28.0", BackendDeepEPLowLatency, true, 8, Present},
		{"0.21.0", "nixl_ep", true, 2, Present},
		{"0.20.0", BackendDeepEPLowLatency, true, 8, Present}, // v0.20.0 arg_utils.py:2355
		{"0.19.1", BackendDeepEPLowLatency, true, 8, Absent},
		{"0.19.0", BackendDeepEPLowLatency, true, 8, Absent},
		{"0.28.0", BackendDeepEPHighThroughput, true, 8, Absent},
		{"0.28.0", BackendDeepEPLowLatency, true, 1, Absent},
		{"0.28.0", BackendDeepEPLowLatency, false, 8, Absent},
	} {
		got, src := rel(t, tt.v).BatchedDPMoEDefault(tt.backend, tt.ep, tt.dp)
		if got != tt.want || !strings.Contains(src, "2cf0a6915ce5") || !strings.Contains(src, "#39107") {
			t.Errorf("%s %s ep %v dp %d: %s, want %s", tt.v, tt.backend, tt.ep, tt.dp, got, tt.want)
		}
	}
	if BatchedDPTokens != 256 {
		t.Error("SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP is 256")
	}
}
