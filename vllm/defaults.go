package vllm

import "strings"

// Defaults are the release-dependent values vLLM uses when a flag is not given.
type Defaults struct {
	// GPUMemoryUtilization is 0.9 up to 0.19.1 and 0.92 from 0.20.0 (PR
	// #38284; vllm/config/cache.py read at the v0.19.1 and v0.20.0 tags).
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

// hugeGPUMinGiB is the memory from which vLLM 0.28.0 gives both usage
// contexts the largest defaults (EngineArgs.get_batch_defaults: "for GPUs
// like B200/B300 with >= 160GB memory, use the largest defaults",
// max_num_batched_tokens 16384 for the LLM class and the OpenAI server,
// max_num_seqs 1024). The test is on total memory alone, so MI300X (192
// GiB) falls in it too (issue #53961).
const hugeGPUMinGiB = 160

// srcHugeGPUDefaults: where the ≥160 GiB tier comes from and when.
// vllm/engine/arg_utils.py get_batch_defaults at the v0.28.0 tag
// 2cf0a6915ce5 (third-party checkout
// bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a, base commit named in its
// HYQUANT_VLLM_IMPLEMENTATION_ZH.md); PR #51726 (opened 2026-08-10)
// added it; issue #53961 (2026-08-26) shows it in force for MI300X. 0.27.x
// (0.27.1 published 2026-08-13) is unverified and keeps the 8192 default
// here; whether a later release keeps ROCm out of the tier (PRs #54043,
// #54205, proposed 2026-08-27/28) is unverified, so from 0.29.0 AMD GPUs
// keep the table's earlier defaults (undecided, unchanged) and NVIDIA
// GPUs follow 0.28.0 (every proposal keeps B200/B300 in the tier).
const srcHugeGPUDefaults = "vllm/engine/arg_utils.py get_batch_defaults at the v0.28.0 tag 2cf0a6915ce5 (bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a): " +
	">= 160 GiB -> max_num_batched_tokens 16384 (LLM and OpenAI server), max_num_seqs 1024; PR #51726 (opened 2026-08-10); issue #53961 (MI300X caught); " +
	"0.27.x unverified; AMD from 0.29.0 unverified (PRs #54043/#54205 keep ROCm out; release not read)"

// hugeGPUDefaultsSince is the first release read with the ≥160 GiB tier.
var hugeGPUDefaultsSince = v0280

// BatchDefaults returns vLLM's default max_num_seqs and
// max_num_batched_tokens per DP rank for a GPU with memGiB of total memory.
// apiServer selects the OpenAI server defaults (vllm serve) rather than the
// offline LLM class. From 0.28.0 a GPU of at least 160 GiB gets 16384
// tokens in both contexts (srcHugeGPUDefaults). Not here: the batched-DP
// MoE cap (BatchedDPMoEDefault) and the max_num_seqs cap
// (SeqsCappedByBatchedTokens), which depend on the deployment (resolve
// applies them); --performance-mode throughput, which doubles both
// defaults (0.28.0's _set_default_max_num_seqs_and_batched_tokens_args),
// is not modelled.
func (r Release) BatchDefaults(gpuName string, memGiB float64, apiServer bool) (maxNumSeqs, maxNumBatchedTokens int) {
	upper := strings.ToUpper(gpuName)
	if memGiB >= hugeGPUMinGiB && r.Version.AtLeast(hugeGPUDefaultsSince) {
		// 0.28.x gates on memory alone (read); later releases are
		// followed for NVIDIA only, since PRs #54043/#54205 proposed
		// keeping ROCm out and which release (if any) did is not read.
		if !isAMD(upper) || r.Version.Less(mustVersion("0.29.0")) {
			return largeSeqs, largeTokensLLM
		}
	}
	large := memGiB >= largeGPUMinGiB && !strings.Contains(upper, "A100")
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

// BatchDefaultsUnverified says what BatchDefaults does not know for this
// GPU (an AMD GPU of at least 160 GiB from 0.29.0: whether the release
// keeps ROCm out of the 16384-token tier is not read, so the table's
// earlier defaults stand in), "" where its defaults were read.
func (r Release) BatchDefaultsUnverified(gpuName string, memGiB float64) string {
	if memGiB < hugeGPUMinGiB || !isAMD(strings.ToUpper(gpuName)) || r.Version.Less(mustVersion("0.29.0")) {
		return ""
	}
	return "unverified: whether this release keeps AMD GPUs out of the 16384-token tier of GPUs with 160 GiB or more, PRs #54043/#54205, is not read; the earlier defaults stand in"
}

// isAMD reports an upper-cased GPU name of AMD's.
func isAMD(upper string) bool {
	return strings.Contains(upper, "AMD") || strings.Contains(upper, "INSTINCT")
}

// srcBatchedDPMoE: PR #39107 ([MoE Refactor] Remove MoE DP chunking,
// merged 2026-04-14) replaced the MoE DP chunking (VLLM_MOE_DP_CHUNK_SIZE)
// with a scheduler cap: ParallelConfig.use_batched_dp_moe (all2all_backend
// deepep_low_latency or nixl_ep, expert parallelism on, DP > 1) makes
// EngineArgs default max_num_batched_tokens to
// SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP = 256, and
// an unset max_num_seqs is then min(its default, max_num_batched_tokens).
// Read in _set_default_max_num_seqs_and_batched_tokens_args at the v0.28.0
// tag; the PR's commit e1e318af0 is an ancestor of the v0.20.0 tag and not
// of v0.19.1, and v0.20.0's arg_utils.py applies the cap (line 2355) and
// scheduler.py holds the 256 (line 43) (kzwrime/vllm tags).
const srcBatchedDPMoE = "vllm/engine/arg_utils.py _set_default_max_num_seqs_and_batched_tokens_args (parallel_config.use_batched_dp_moe → " +
	"SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP; max_num_seqs = min(max_num_seqs, max_num_batched_tokens)) at the v0.28.0 tag 2cf0a6915ce5 " +
	"(checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a); vllm/config/parallel.py use_batched_dp_moe and vllm/config/scheduler.py (= 256) " +
	"in PR #39107 (merged 2026-04-14, upstream main e1e318af0), an ancestor of the v0.20.0 tag and not of v0.19.1; " +
	"vllm/engine/arg_utils.py:2355 and vllm/config/scheduler.py:43 at the v0.20.0 tag (kzwrime/vllm); absent at " + srcFA019

// BatchedDPTokens is SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP.
const BatchedDPTokens = 256

// UseBatchedDPMoEDefault applies BatchedDPMoEDefault where resolve derives
// the engine's default batch limits.
var UseBatchedDPMoEDefault = true

// BatchedDPMoEDefault says whether the release caps the default
// max_num_batched_tokens at BatchedDPTokens for a deployment with the
// all-to-all backend, expert parallelism ep and DP size dp (the unset
// max_num_seqs then follows: min(default, the cap)).
func (r Release) BatchedDPMoEDefault(all2all string, ep bool, dp int) (Presence, string) {
	if !ep || dp <= 1 || (all2all != BackendDeepEPLowLatency && all2all != BackendNixlEP) {
		return Absent, srcBatchedDPMoE
	}
	switch {
	case r.Version.Less(v0200):
		return Absent, srcBatchedDPMoE
	}
	return Present, srcBatchedDPMoE
}

// srcSeqsCap: EngineArgs sets an unset max_num_seqs to
// min(its default, max_num_batched_tokens), whether the token limit was
// set or defaulted: "self.max_num_seqs = min(default_max_num_seqs
// [usage_context], self.max_num_batched_tokens or sys.maxsize)" at the
// v0.11.0 tag, "self.max_num_seqs = min(self.max_num_seqs,
// self.max_num_batched_tokens)" at the v0.16.0 branch, 0.19.0 and the
// v0.28.0 tag; the v0.9.0 tag assigns the default alone. PR #21270 (merged
// 2025-07-26) brought the min; 0.10.x not read.
const srcSeqsCap = "vllm/engine/arg_utils.py _set_default_args at " + srcFA090 + " (max_num_seqs = default, no cap) and " + srcFA0110 + ", " + srcFA016 + ", " + srcFA019 +
	" and the v0.28.0 tag 2cf0a6915ce5 (min with max_num_batched_tokens); PR #21270 (merged 2025-07-26); 0.10.x unverified"

// SeqsCappedByBatchedTokens says whether the release caps an unset
// max_num_seqs at max_num_batched_tokens.
func (r Release) SeqsCappedByBatchedTokens() (Presence, string) {
	switch {
	case !r.Version.AtLeast(v091):
		return Absent, srcSeqsCap // the v0.9.0 tag: no cap
	case r.Version.Less(v0110):
		return Maybe, srcSeqsCap
	}
	return Present, srcSeqsCap
}

// BatchLimits are an engine's max_num_seqs and max_num_batched_tokens.
type BatchLimits struct{ Seqs, Tokens int }

// CappedBatchDefaults applies EngineArgs' caps to the release's default
// batch limits def (BatchDefaults) in its order, for an engine whose
// all-to-all backend, expert parallelism and DP size are given and where
// seqsSet / tokensSet say the user set that limit (a set limit is kept):
// from 0.21.0 the batched-DP MoE token default (BatchedDPMoEDefault, under
// UseBatchedDPMoEDefault), then, from 0.11.0, an unset max_num_seqs capped
// at max_num_batched_tokens (SeqsCappedByBatchedTokens). why names each cap
// applied ("" none). resolve and the published-run replay both derive an
// engine's limits through it, so they cannot disagree.
func (r Release) CappedBatchDefaults(def, set BatchLimits, seqsSet, tokensSet bool, all2all string, ep bool, dp int) (out BatchLimits, tokensWhy, seqsWhy string) {
	out = def
	if seqsSet {
		out.Seqs = set.Seqs
	}
	if tokensSet {
		out.Tokens = set.Tokens
	} else if p, _ := r.BatchedDPMoEDefault(all2all, ep, dp); UseBatchedDPMoEDefault && p == Present {
		out.Tokens = BatchedDPTokens
		tokensWhy = "default with " + all2all + ", EP and DP > 1 (batched DP MoE)"
	}
	if !seqsSet {
		if p, _ := r.SeqsCappedByBatchedTokens(); p == Present && out.Tokens < out.Seqs {
			out.Seqs = out.Tokens
			seqsWhy = "capped at max_num_batched_tokens"
		}
	}
	return out, tokensWhy, seqsWhy
}
