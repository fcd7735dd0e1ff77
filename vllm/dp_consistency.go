package vllm

// dpSameFlags are the engine flags every DP rank of one deployment must
// pass with the same value. Releases with the DP configuration check
// (EngineStartup().ConfigMismatchCheck, which cites when it came) refuse a
// mismatch with MismatchMessage; before it, ranks with different settings
// hung. The hash leaves out per-rank fields (rank, address, port, local
// size), which are not listed here (vllm-facts.md §4.1 DP-12).
var dpSameFlags = []string{"tensor-parallel-size", "pipeline-parallel-size", "enable-expert-parallel",
	"max-model-len", "kv-cache-dtype", "quantization", "dtype", "enable-eplb", "eplb-config",
	"speculative-config", "compilation-config", "block-size", "trust-remote-code", "enable-dbo",
	"data-parallel-backend", "max-num-seqs", "max-num-batched-tokens", "gpu-memory-utilization"}

// DPSameFlags returns the canonical names of the flags that must match on
// every DP rank (see dpSameFlags).
func DPSameFlags() []string { return append([]string(nil), dpSameFlags...) }
