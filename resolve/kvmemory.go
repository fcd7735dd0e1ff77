package resolve

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// readKVCacheMemoryBytes is --kv-cache-memory-bytes from extra_args as
// vLLM's argparse reads it: the last value wins, "--flag value" and
// "--flag=value", underscores as dashes, and the prefix --kv-cache-memory
// that vLLM's own start-up advice writes ("Replace gpu_memory_utilization
// config with `--kv-cache-memory=…`"; argparse takes an unambiguous
// prefix). The value is a human-readable integer (parseHumanReadableInt).
// 0 when unset, unparsable, or when release r has no such flag. When set,
// vLLM's worker reserves exactly that many bytes per GPU for the KV cache
// and skips memory profiling: determine_available_memory returns
// kv_cache_memory_bytes after a profile run that only compiles, "This does
// not respect the gpu_memory_utilization config" (vllm/v1/worker/
// gpu_worker.py at v0.11.0 and v0.24.0).
func readKVCacheMemoryBytes(r vllm.Release, args []string) Setting[int64] {
	out := set(int64(0), SourceRelease, "vLLM's default: the KV cache is what gpu_memory_utilization leaves after profiling")
	if _, ok := r.Flag("kv-cache-memory-bytes"); !ok {
		return out
	}
	for i, a := range args {
		a = strings.TrimSpace(a)
		name, val, inline := strings.Cut(a, "=")
		name = "--" + strings.ReplaceAll(strings.TrimPrefix(name, "--"), "_", "-")
		if name != "--kv-cache-memory-bytes" && name != "--kv-cache-memory" {
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				continue
			}
			val = args[i+1]
		}
		if n, ok := parseHumanReadableInt(val); ok && n > 0 {
			out = set(n, SourceSpec, "")
		}
	}
	return out
}

var humanReadableInt = regexp.MustCompile(`^(\d+(?:\.\d+)?)([kKmMgGtT])$`)

// parseHumanReadableInt reads an integer as vLLM's human_readable_int does
// (vllm/utils/argparse_utils.py at v0.24.0): a plain integer, or a number
// with a decimal suffix k, m, g, t (10^3 … 10^12, decimals allowed) or a
// binary one K, M, G, T (2^10 … 2^40, integers only).
func parseHumanReadableInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if m := humanReadableInt.FindStringSubmatch(s); m != nil {
		exp := map[byte]float64{'k': 3, 'm': 6, 'g': 9, 't': 12, 'K': 10, 'M': 20, 'G': 30, 'T': 40}[m[2][0]]
		if strings.ContainsAny(m[2], "kmgt") {
			f, err := strconv.ParseFloat(m[1], 64)
			return int64(f * math.Pow(10, exp)), err == nil
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		return n << uint(exp), err == nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
