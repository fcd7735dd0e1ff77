package vllm

import (
	"fmt"
	"math"
)

// Range is the numeric values vLLM accepts for a flag: [Min, Max], with
// either end open when MinOpen / MaxOpen, and no upper bound when Max is
// +Inf. The spec schema repeats these bounds for the keys that map to the
// flags; a test in package schemas keeps the two equal.
type Range struct {
	Flag             string
	Min, Max         float64
	MinOpen, MaxOpen bool
	// What the value is, for messages ("a fraction").
	What     string
	Verified bool
	Source   string
}

const (
	srcUtilRange = "docs.vllm.ai/en/stable/api/vllm/config/cache (CacheConfig.gpu_memory_utilization Field(gt=0, le=1)); vllm-facts.md §1.3 \"must be in (0, 1]\"; " +
		"the releases whose own check rejects 0 (v0.10.2 declares a plain float) are unverified"
	srcBlockSize = "docs.vllm.ai/en/v0.9.2/api/vllm/config and v0.10.2 config/cache (BlockSize Literal, smallest 1); docs.vllm.ai/en/v0.26.0/api/vllm/config/cache (block_size Field(gt=0))"
	srcSchedCfg  = "docs.vllm.ai/en/v0.11.2/api/vllm/config/scheduler and v0.13.0 (Field(ge=1)); v0.10.2 declares no bound"
	srcEPLBCfg   = "docs.vllm.ai/en/v0.11.2/api/vllm/config/parallel and v0.12.0 (EPLBConfig.num_redundant_experts Field(ge=0)); v0.10.2 declares no bound"
	srcCount     = "a number of GPUs or processes, so at least one; vLLM's own bound unverified (v0.10.1.1 ParallelConfig declares plain ints)"
	srcTCPPort   = "TCP port numbers; whether vLLM rejects 0 (any free port) itself is unverified"
)

var inf = math.Inf(1)

var rangeTable = []Range{
	{Flag: "gpu-memory-utilization", Min: 0, MinOpen: true, Max: 1, What: "a fraction", Source: srcUtilRange},
	{Flag: "max-num-seqs", Min: 1, Max: inf, What: "a count", Verified: true, Source: srcSchedCfg},
	{Flag: "max-num-batched-tokens", Min: 1, Max: inf, What: "a count", Verified: true, Source: srcSchedCfg},
	{Flag: "block-size", Min: 1, Max: inf, What: "a count of tokens", Verified: true, Source: srcBlockSize},
	{Flag: "num-redundant-experts", Min: 0, Max: inf, What: "a count", Verified: true, Source: srcEPLBCfg},
	{Flag: "tensor-parallel-size", Min: 1, Max: inf, What: "a count", Source: srcCount},
	{Flag: "pipeline-parallel-size", Min: 1, Max: inf, What: "a count", Source: srcCount},
	{Flag: "data-parallel-size", Min: 1, Max: inf, What: "a count", Source: srcCount},
	{Flag: "api-server-count", Min: 1, Max: inf, What: "a count", Source: srcCount},
	{Flag: "decode-context-parallel-size", Min: 1, Max: inf, What: "a count", Source: srcCount},
	{Flag: "port", Min: 1, Max: 65535, What: "a TCP port", Source: srcTCPPort},
	{Flag: "data-parallel-rpc-port", Min: 1, Max: 65535, What: "a TCP port", Source: srcTCPPort},
}

// FlagRange returns the numeric range of a flag (canonical name without
// dashes), when vlaunch knows one.
func FlagRange(flag string) (Range, bool) {
	for _, r := range rangeTable {
		if r.Flag == flag {
			return r, true
		}
	}
	return Range{}, false
}

// Contains reports whether x is inside the range.
func (r Range) Contains(x float64) bool {
	lo := x > r.Min || (!r.MinOpen && x == r.Min)
	hi := x < r.Max || (!r.MaxOpen && x == r.Max)
	return lo && hi
}

// String writes the range in interval notation: "(0, 1]", "[1, 65535]",
// "[1, ∞)".
func (r Range) String() string {
	open, closeB := "[", "]"
	if r.MinOpen {
		open = "("
	}
	if r.MaxOpen || math.IsInf(r.Max, 1) {
		closeB = ")"
	}
	hi := "∞"
	if !math.IsInf(r.Max, 1) {
		hi = fmt.Sprint(r.Max)
	}
	return fmt.Sprintf("%s%v, %s%s", open, r.Min, hi, closeB)
}
