package logs

import (
	"strings"
	"testing"
)

// TestCPUKVSpace reads the KV capacity the CPU backend logs instead of
// "Available KV cache memory", each line built from the format string of
// the vLLM source that logs it:
//
//   - vllm/executor/cpu_executor.py at 4c537ad27d7ecf7af21cd3c7f9dbcbb6cd291a0b:
//     the same line with "(GB)", and "# CPU blocks: %d" (the KV blocks);
//   - vllm/platforms/cpu.py at 0031bf29e940804ee8235f2b2da9536556f231e6:
//     "Environment variable VLLM_CPU_KVCACHE_SPACE (GiB) for CPU backend is
//     not set, using 4 by default." (cpu_kvcache_space_bytes = 4 GiB);
//   - vllm/platforms/cpu.py at f6ff3f0f903ec4dc46b3fae16e830715f52b9223:
//     f"VLLM_CPU_KVCACHE_SPACE not set. Using {kv_cache_space_gib:.2f} GiB for KV cache.";
//     the MPS platform's "... Using %s GiB for KV cache on MPS. Set
//     VLLM_CPU_KVCACHE_SPACE (in GiB) to override.";
//   - vllm/v1/worker/cpu_worker.py at 00efcc3be11c84005fbe701003c513f8f503d57f
//     determine_available_memory: f"Explicitly set ({format_gib(kv_cache_size)}/
//     {format_gib(total_memory)}) GiB for KV cache on node {numa_node}." and
//     f"Auto set (…/…) GiB for KV cache on node N, with R GiB requested memory
//     for the worker. C GiB memory was consumed by non-kv usages."
//
// The worker's line is the size it allocates, so it overrides the
// platform's earlier estimate in the same process and marks the KV step.
func TestCPUKVSpace(t *testing.T) {
	cases := []struct {
		name, log string
		kv        float64
		phase     string
	}{
		{"0.6 default (GB)", "WARNING 12-12 22:52:57 cpu.py:68] Environment variable VLLM_CPU_KVCACHE_SPACE (GB) for CPU backend is not set, using 4 by default.", 4, ""},
		{"0.8 default", "WARNING 03-01 10:00:00 [cpu.py:120] Environment variable VLLM_CPU_KVCACHE_SPACE (GiB) for CPU backend is not set, using 4 by default.", 4, ""},
		{"platform unset", "WARNING 03-30 22:28:09 [cpu.py:136] VLLM_CPU_KVCACHE_SPACE not set. Using 62.64 GiB for KV cache.", 62.64, ""},
		{"mps", "WARNING 03-30 22:28:09 [mps.py:90] VLLM_CPU_KVCACHE_SPACE not set. Using 8.00 GiB for KV cache on MPS. Set VLLM_CPU_KVCACHE_SPACE (in GiB) to override.", 8, ""},
		{"worker explicit", "(EngineCore pid=5) INFO 09-01 10:00:00 [cpu_worker.py:230] Explicitly set (40.00/251.50) GiB for KV cache on node 0.", 40, "kv-cache"},
		{"worker auto after platform", "(EngineCore pid=5) WARNING 09-01 10:00:00 [cpu.py:136] VLLM_CPU_KVCACHE_SPACE not set. Using 62.64 GiB for KV cache.\n" +
			"(EngineCore pid=5) INFO 09-01 10:00:05 [cpu_worker.py:250] Auto set (112.31/251.50) GiB for KV cache on node 1, with 226.35 GiB requested memory for the worker. 114.04 GiB memory was consumed by non-kv usages.", 112.31, "kv-cache"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := NewSource("cpu.log", strings.NewReader(c.log+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Analyze(src)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Engines) != 1 || rep.Engines[0].AvailableKVGiB == nil {
				t.Fatalf("no KV figure: %+v", rep.Engines)
			}
			e := rep.Engines[0]
			if *e.AvailableKVGiB != c.kv {
				t.Errorf("available_kv_gib %v, want %v", *e.AvailableKVGiB, c.kv)
			}
			if c.phase != "" && e.Phase != c.phase {
				t.Errorf("phase %q, want %q", e.Phase, c.phase)
			}
		})
	}
}

// TestCPUBlocks: the V0 CPU executor logs its KV cache's blocks as
// "# CPU blocks: %d" alone (cpu_executor.py initialize_cache at 4c537ad2);
// with the engine's block_size the tokens follow. A GPU engine's
// "# GPU blocks: N, # CPU blocks: M" keeps N (M is swap space).
func TestCPUBlocks(t *testing.T) {
	for _, c := range []struct {
		log    string
		blocks int64
	}{
		{"INFO 12-12 22:53:01 cpu_executor.py:186] # CPU blocks: 21845", 21845},
		{"INFO 08-02 08:50:03 gpu_executor.py:83] # GPU blocks: 27895, # CPU blocks: 2048", 27895},
	} {
		src, _ := NewSource("x.log", strings.NewReader(c.log+"\n"))
		rep, err := Analyze(src)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Engines) != 1 || rep.Engines[0].NumGPUBlocks == nil || *rep.Engines[0].NumGPUBlocks != c.blocks {
			t.Errorf("%q: blocks %+v, want %d", c.log, rep.Engines, c.blocks)
		}
	}
}
