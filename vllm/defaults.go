package vllm

import "strings"

// Defaults are the release-dependent values vLLM uses when a flag is not given.
type Defaults struct {
	// GPUMemoryUtilization is 0.9 up to 0.21.x and 0.92 from 0.22.0 (switch
	// release unverified; 0.9 verified in 0.10.2, 0.92 in 0.22.1+).
	GPUMemoryUtilization float64
	// APIServerCount is the default number of API servers: 1 (also in
	// 0.9.0, which has no --api-server-count), or 0 with APIServerCountAuto
	// meaning "DP size for internal LB" (0.15.0+).
	APIServerCount     int
	APIServerCountAuto bool
	// All2AllBackend is what vLLM uses when nothing selects one: naive up to
	// 0.10.x, allgather_reducescatter from 0.11.0 (PR #23964, committed
	// 2025-09-18, after 0.10.2; see the backend table's sources).
	All2AllBackend string
	// All2AllVia is how to select another backend.
	All2AllVia Mechanism
	// DataParallelRPCPort is vLLM's default --data-parallel-rpc-port.
	DataParallelRPCPort int
	// MultiNodeEngine says how one engine (TP x PP) spans nodes: "nnodes"
	// (--nnodes/--node-rank/--master-addr, mp executor) or "ray".
	MultiNodeEngine string
	// HasSwapSpace is false from 0.18.0, when --swap-space was removed.
	HasSwapSpace bool
	// OFlag is the flag -O stands for: compilation-config up to 0.11.x,
	// optimization-level from 0.12.0.
	OFlag string
}

// Defaults returns the release's defaults, derived from the flag table so
// that both always agree.
func (r Release) Defaults() Defaults {
	d := Defaults{GPUMemoryUtilization: 0.9, APIServerCount: 1, All2AllBackend: BackendNaive, All2AllVia: r.All2AllVia(),
		DataParallelRPCPort: 29550, MultiNodeEngine: "ray", OFlag: "compilation-config"}
	if f, ok := r.Flag("gpu-memory-utilization"); ok && f.Default == "0.92" {
		d.GPUMemoryUtilization = 0.92
	}
	if f, ok := r.Flag("api-server-count"); ok && f.Default == "" {
		d.APIServerCount, d.APIServerCountAuto = 0, true
	}
	if _, ok := r.All2AllBackend(BackendAllgatherReducescatter); ok {
		d.All2AllBackend = BackendAllgatherReducescatter
	}
	// --nnodes only where a source confirms it: a bundle must not rely on
	// a flag the release may lack.
	if f, ok := r.Flag("nnodes"); ok && f.Certain(r.Version) {
		d.MultiNodeEngine = "nnodes"
	}
	_, d.HasSwapSpace = r.Flag("swap-space")
	if f, ok := r.Flag("-O"); ok {
		d.OFlag = f.Name
	}
	return d
}

// Scheduler-default thresholds from vLLM's arg_utils (`_set_default_args`,
// vllm-facts.md §4.9): GPUs with at least 70 GiB that are not A100 get the
// large defaults. Applied from 0.9.0; the rule's history before 0.10 is
// unverified.
const (
	largeGPUMinGiB = 70
	largeSeqs      = 1024
	smallSeqs      = 256
	largeTokensAPI = 8192
	largeTokensLLM = 16384
	smallTokensAPI = 2048
	smallTokensLLM = 8192
)

// BatchDefaults returns vLLM's default max_num_seqs and
// max_num_batched_tokens per DP rank for a GPU with memGiB of total memory.
// apiServer selects the OpenAI server defaults (vllm serve) rather than the
// offline LLM class.
func (r Release) BatchDefaults(gpuName string, memGiB float64, apiServer bool) (maxNumSeqs, maxNumBatchedTokens int) {
	large := memGiB >= largeGPUMinGiB && !strings.Contains(strings.ToUpper(gpuName), "A100")
	switch {
	case large && apiServer:
		return largeSeqs, largeTokensAPI
	case large:
		return largeSeqs, largeTokensLLM
	case apiServer:
		return smallSeqs, smallTokensAPI
	default:
		return smallSeqs, smallTokensLLM
	}
}
