package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestParseHumanReadableInt: vLLM's human_readable_int (argparse_utils.py
// at v0.24.0): lower-case suffixes decimal (decimals allowed), upper-case
// binary (integers only), else a plain integer.
func TestParseHumanReadableInt(t *testing.T) {
	for s, want := range map[string]int64{
		"1860000000": 1860000000, "2G": 2 << 30, "1.5g": 1500000000, "25.6k": 25600, "1K": 1024, " 3M ": 3 << 20,
	} {
		if got, ok := parseHumanReadableInt(s); !ok || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"1.5G", "abc", "", "2 GB"} {
		if got, ok := parseHumanReadableInt(s); ok {
			t.Errorf("%q: %d accepted; vLLM refuses it", s, got)
		}
	}
}

// TestReadKVCacheMemoryBytes: the flag as argparse reads it (both forms,
// underscores, the --kv-cache-memory prefix vLLM's own advice writes, the
// last value winning), and nothing where the release has no such flag
// (first in vlaunch's table at 0.11.0).
func TestReadKVCacheMemoryBytes(t *testing.T) {
	for _, c := range []struct {
		version string
		args    []string
		want    int64
	}{
		{"0.24.0", []string{"--kv-cache-memory-bytes", "1860000000"}, 1860000000},
		{"0.24.0", []string{"--kv-cache-memory=1879048192"}, 1879048192},
		{"0.24.0", []string{"--kv_cache_memory_bytes=2G", "--max-num-seqs", "4"}, 2 << 30},
		{"0.24.0", []string{"--kv-cache-memory-bytes=1g", "--kv-cache-memory-bytes=2g"}, 2000000000},
		{"0.24.0", []string{"--kv-cache-memory-bytes"}, 0},
		{"0.24.0", nil, 0},
		{"0.10.1", []string{"--kv-cache-memory-bytes", "1860000000"}, 0}, // the flag is from 0.10.2 (read at the tags)
	} {
		r, _, err := vllm.ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := readKVCacheMemoryBytes(r, c.args); got.Value != c.want {
			t.Errorf("%s %v: %d, want %d", c.version, c.args, got.Value, c.want)
		}
	}
}
