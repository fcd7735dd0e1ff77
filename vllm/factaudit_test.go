package vllm

import (
	"strings"
	"testing"
)

// Facts the factaudit pass (issue #23, second audit) found false, each
// against the release file named in the test. The v0.28.0 files were read
// in the third-party checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant at
// 06e9c24a, whose HYQUANT_VLLM_IMPLEMENTATION_ZH.md names its base: the
// v0.28.0 tag commit 2cf0a6915ce544dc493a0990f2ea38d81601128a (the same
// commit coreweave/ml-containers PR #218 gives for the 0.28.0 release).

// TestKVDTypes028: vllm/config/cache.py CacheDType at v0.28.0 has
// int4_per_token_head and nvfp4_4over6; the table refused both from 0.17
// on. The 0.22.1 argparse dump has neither, so 0.22.x still refuses them;
// choices45 read the v0.23.0 and v0.24.0 tags' CacheDType: neither there.
func TestKVDTypes028(t *testing.T) {
	for v, want := range map[string]bool{"0.22.1": false, "0.23.0": false, "0.24.0": false, "0.25.0": true, "0.28.0": true, "0.31.0": true} {
		f, ok := rel(t, v).Flag("--kv-cache-dtype")
		if !ok {
			t.Fatalf("%s: no --kv-cache-dtype", v)
		}
		for _, c := range []string{"int4_per_token_head", "nvfp4_4over6"} {
			if got := f.HasChoice(c); got != want {
				t.Errorf("%s --kv-cache-dtype %s accepted = %v, want %v", v, c, got, want)
			}
		}
		if !f.HasChoice("turboquant_k8v4") || f.HasChoice("int2_per_token_head") {
			t.Errorf("%s: choices %v", v, f.Choices)
		}
	}
	// 0.25-0.27 are unverified: a generated bundle must not rely on them.
	if f, ok := rel(t, "0.25.0").CertainFlag("kv-cache-dtype"); !ok || f.HasChoice("nvfp4_4over6") || !f.HasChoice("nvfp4") {
		t.Errorf("0.25.0 certain kv-cache-dtype choices wrong: %v %v", ok, f)
	}
	if f, ok := rel(t, "0.28.0").CertainFlag("kv-cache-dtype"); !ok || !f.HasChoice("int4_per_token_head") {
		t.Error("0.28.0 (read) must certainly accept int4_per_token_head")
	}
	f, _ := rel(t, "0.28.0").Flag("--kv-cache-dtype")
	for _, cite := range []string{"2cf0a6915ce5", "vllm/config/cache.py", "#45187"} {
		if !strings.Contains(f.Source, cite) {
			t.Errorf("source lacks %s: %q", cite, f.Source)
		}
	}
}

// TestBatchDefaults028: vllm/engine/arg_utils.py get_batch_defaults at
// v0.28.0 gives a GPU of at least 160 GiB max_num_batched_tokens 16384 and
// max_num_seqs 1024 for the OpenAI server as well (B200 182636 MiB = 178.4
// GiB; MI300X 192 GiB, issue #53961); 70-160 GiB GPUs other than A100 keep
// 8192 for the server, 16384 offline; A100 and small GPUs 2048 / 8192 with
// 256 sequences. The table gave B200 8192 at 0.28.
func TestBatchDefaults028(t *testing.T) {
	for _, c := range []struct {
		v, gpu       string
		gib          float64
		api          bool
		seqs, tokens int
	}{
		{"0.28.0", "NVIDIA B200", 182636.0 / 1024, true, 1024, 16384},
		{"0.28.0", "NVIDIA B200", 182636.0 / 1024, false, 1024, 16384},
		{"0.28.0", "AMD Instinct MI300X", 192, true, 1024, 16384},
		{"0.31.0", "NVIDIA B300 SXM6 AC", 275040.0 / 1024, true, 1024, 16384},
		// AMD after 0.28.x: undecided (ROCm may have been taken out of
		// the tier), so the table keeps its earlier default.
		{"0.29.0", "AMD Instinct MI355X", 288, true, 1024, 8192},
		{"0.28.0", "NVIDIA H200", 143771.0 / 1024, true, 1024, 8192},
		{"0.28.0", "NVIDIA H200", 143771.0 / 1024, false, 1024, 16384},
		{"0.28.0", "NVIDIA A100-SXM4-80GB", 79.2, true, 256, 2048},
		{"0.28.0", "NVIDIA L40S", 44.4, false, 256, 8192},
		{"0.27.1", "NVIDIA B200", 182636.0 / 1024, true, 1024, 8192},
		{"0.22.1", "NVIDIA B200", 182636.0 / 1024, true, 1024, 8192},
	} {
		s, tok := rel(t, c.v).BatchDefaults(c.gpu, c.gib, c.api)
		if s != c.seqs || tok != c.tokens {
			t.Errorf("%s %s %.1f GiB api=%v: %d seqs / %d tokens, want %d / %d", c.v, c.gpu, c.gib, c.api, s, tok, c.seqs, c.tokens)
		}
	}
	for _, cite := range []string{"2cf0a6915ce5", "get_batch_defaults", "#51726"} {
		if !strings.Contains(srcHugeGPUDefaults, cite) {
			t.Errorf("source lacks %s", cite)
		}
	}
}

// TestAsyncSchedulingWithPP: pipeline parallelism stopped turning the
// async-scheduling default off with PR #32359 (after 0.14.0; 0.15.0 has
// it, read at its tag); the table kept PP synchronous in every release. The fact is
// recorded; AsyncSchedulingFor follows it only with the switch on.
func TestAsyncSchedulingWithPP(t *testing.T) {
	for v, want := range map[string]Presence{"0.14.0": Absent, "0.15.0": Present, "0.16.0": Present, "0.28.0": Present} {
		if got, src := rel(t, v).AsyncSchedulingWithPP(); got != want || !strings.Contains(src, "#32359") {
			t.Errorf("%s: async scheduling with PP %s, want %s", v, got, want)
		}
	}
	defer func(old bool) { UseAsyncSchedulingWithPP = old }(UseAsyncSchedulingWithPP)
	for _, on := range []bool{false, true} {
		UseAsyncSchedulingWithPP = on
		for v, want := range map[string]bool{"0.14.0": false, "0.15.0": on, "0.22.1": on} {
			if got := rel(t, v).AsyncSchedulingFor(nil, 2, ""); got != want {
				t.Errorf("switch %v, %s PP 2: async %v, want %v", on, v, got, want)
			}
		}
		if rel(t, "0.22.1").AsyncSchedulingFor(nil, 2, "ngram") {
			t.Errorf("switch %v: CPU n-gram keeps async off", on)
		}
	}
}

// TestConfirmedAt028: facts the audit found true at v0.28.0's
// vllm/engine/arg_utils.py and vllm/config/cache.py, kept so that a later
// table edit cannot undo them.
func TestConfirmedAt028(t *testing.T) {
	r := rel(t, "0.28.0")
	if d := r.Defaults(); d.GPUMemoryUtilization != 0.92 || d.HasSwapSpace {
		t.Errorf("0.28.0 defaults %+v", d)
	}
	for _, f := range []string{"num-redundant-experts", "cuda-graph-sizes", "swap-space"} {
		if _, ok := r.Flag(f); ok {
			t.Errorf("0.28.0 has no --%s", f)
		}
	}
	for _, f := range []string{"-dpm", "-dph", "-dpe", "-dpn", "-dcp", "-pcp", "-n", "-r", "-sc", "-cc", "-ac", "enable-elastic-ep", "enable-ep-weight-filter",
		"moe-backend", "spec-method", "spec-tokens", "performance-mode", "kv-cache-memory-bytes", "aggregate-engine-logging", "max-cudagraph-capture-size"} {
		if p, _ := r.FlagIn(f); p != Present {
			t.Errorf("0.28.0 --%s: %s, want present", f, p)
		}
	}
}
