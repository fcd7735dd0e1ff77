package report

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/memory"
)

// kvRowLabel labels the budget's last row: the KV cache, or, when the
// terms above it leave none, how far short the GPU is — its value is then
// printed as the (positive) shortfall, never as a negative KV cache
// (qa44b F13: "= KV cache -171.22" for Llama-405B BF16 on 4 × L4).
func kvRowLabel(kvGiB float64) string {
	if kvGiB < 0 {
		return "= no KV cache: short by"
	}
	return "= KV cache"
}

// kvRow is the budget's last row for p: kvRowLabel's, or, when the KV
// cache is --kv-cache-memory-bytes, the given size with what the rows
// above would have left (vLLM then skips profiling and ignores
// gpu_memory_utilization).
func kvRow(p memory.PerGPU) (label string, gib float64, detail string) {
	if p.KVGiven {
		return "KV cache as given", p.KVCacheGiB, fmt.Sprintf("kv_cache_memory_bytes (vLLM skips profiling, ignores gpu_memory_utilization); the rows above leave %.2f", p.LeftByUtilizationGiB)
	}
	return kvRowLabel(p.KVCacheGiB), math.Abs(p.KVCacheGiB), ""
}

// kvGiBText is a KV cache size in format f, or "none (short by X GiB)"
// when the weights and the rest leave none (qa44b F13: "KV -62.80 GiB").
func kvGiBText(kvGiB float64, f string) string {
	if kvGiB < 0 {
		return fmt.Sprintf("none (short by %.2f GiB)", -kvGiB)
	}
	return fmt.Sprintf(f, kvGiB)
}
