package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// Diagnostic codes of the memory verdicts.
const (
	CodeNoKVMemory     = codes.EstNoKVMemory     // nothing left for the KV cache
	CodeSeqTooLong     = codes.EstSeqTooLong     // one max_model_len sequence does not fit (vLLM refuses to start)
	CodeShareNoFit     = codes.EstShareNoFit     // the per-rank share of the concurrency does not fit at once: it queues
	CodeGraphHeadroom  = codes.EstGraphHeadroom  // CUDA graphs may not fit outside the budget
	CodeAboveMaxSeqs   = codes.EstAboveMaxSeqs   // per-rank share above max_num_seqs: the excess queues
	CodeUpcastWeights  = codes.EstUpcastWeights  // weights differ from the checkpoint (up-cast or online quantization)
	CodeLenAboveConfig = codes.EstLenAboveConfig // max_model_len above the model's max_position_embeddings
	CodeKnownGap       = codes.EstKnownGap       // fits as predicted, not at the low end of the band a known gap opens
)

// Findings turns the memory verdicts into diagnostics.
func Findings(in *input.Input, m *Report) diag.Diagnostics {
	var ds diag.Diagnostics
	c, p := m.Capacity, m.PerGPU
	add := func(code diag.Code, sev diag.Severity, path, msg, hint string) {
		ds = append(ds, diag.Diagnostic{Code: code, Severity: sev, Path: path, Message: msg, Hint: hint})
	}
	switch {
	case p.KVGiven && p.KVCacheGiB > givenRoomGiB(p):
		add(CodeNoKVMemory, diag.Error, "vllm.extra_args",
			fmt.Sprintf("The KV cache given (--kv-cache-memory-bytes, %.2f GiB per GPU) does not fit: %.2f GiB device − %.2f weights − %.2f activation − %.2f other − %.2f CUDA graphs leaves %.2f GiB (vLLM reserves the given size without checking it and fails with CUDA out of memory at start-up)",
				p.KVCacheGiB, p.DeviceGiB, p.WeightsGiB, p.ActivationGiB, p.OtherGiB, p.CUDAGraphGiB, givenRoomGiB(p)),
			fmt.Sprintf("give at most %.2f GiB (--kv-cache-memory-bytes %d), or drop the flag and let gpu_memory_utilization size it", max(0, givenRoomGiB(p)), int64(max(0, givenRoomGiB(p))*GiB)))
	case p.KVCacheGiB <= 0 || m.NumBlocks == 0:
		add(CodeNoKVMemory, diag.Error, "model.weights",
			fmt.Sprintf("No available memory for the cache blocks: %.2f GiB usable − %.2f weights − %.2f activation − %.2f other leaves none, short by %.2f GiB per GPU (vLLM fails at start-up)",
				p.UsableGiB, p.WeightsGiB, p.ActivationGiB, p.OtherGiB, max(0, -p.KVCacheGiB)), noKVHint(in, p))
	case !c.OneSequenceFits:
		add(CodeSeqTooLong, diag.Error, "workload.max_model_len",
			fmt.Sprintf("To serve at least one request with the model's max seq len (%d), %.2f GiB KV cache is needed, which is larger than the available KV cache memory (%.2f GiB). Based on the available memory, the estimated maximum model length is %d (vLLM refuses to start)",
				in.MaxModelLen, float64(c.MaxLenSeqBytes)/GiB, c.AvailableGiB, c.LargestMaxModelLen),
			fmt.Sprintf("set max_model_len ≤ %d, or %s", c.LargestMaxModelLen, shrinkHint(in)))
	case !c.Fits:
		ds = append(ds, shareNoFit(in, &c))
	}
	if d := ppKVCheckFinding(in, m); d != nil && p.KVCacheGiB > 0 && m.NumBlocks > 0 {
		ds = append(ds, *d)
	}
	ds = append(ds, advisoryFindings(in, m)...)
	if c.Fits && len(m.Gaps) > 0 && !c.FitsLow {
		add(CodeKnownGap, diag.Warning, "workload.concurrency",
			fmt.Sprintf("fits as predicted (%.2f GiB of KV per GPU, %d sessions per rank), but not with the %.1f GiB vLLM was seen to use beyond the model here (%.2f GiB, %d per rank; %s)",
				p.KVCacheGiB, c.MaxSeqsPerRank, gapGiB(m.Gaps), p.KVCacheLowGiB, max(c.MaxSeqsPerRankLow, 0), m.Gaps[0].Source),
			"leave that much headroom: raise gpu_memory_utilization, lower max_model_len or max_num_seqs, or use a later vLLM release")
	}
	return ds
}

// shareNoFit is EST103, a warning: the fullest DP rank's share of the
// concurrency does not fit in its KV cache at once, and vLLM serves it
// anyway. Its V1 scheduler admits a waiting request only when
// kv_cache_manager.allocate_slots finds blocks for it, and otherwise leaves
// it at the head of the queue ("if new_blocks is None: # The request cannot
// be scheduled. break", after waiting.peek_request); a running request whose
// next tokens find no free block preempts the newest running request (or
// the lowest-priority one), which frees its blocks, sets
// num_computed_tokens = 0 and goes back to the front of the waiting queue to
// be recomputed, and no waiting request is admitted in a step that preempted
// (`if not preempted_reqs`). Read in vllm/v1/core/sched/scheduler.py
// Scheduler.schedule at v0.11.0 (b8b302cde434) and at main 00024d314514
// (2026, where the preemption is Scheduler._preempt_request; no later
// release's own file pinned). Nothing refuses to start or refuses the
// requests (EST102 is the start-up refusal), so what the user loses is
// latency and throughput, which the SLO verdicts' simulation carries
// (sim: queueing, recompute preemption); check is infeasible, and plan
// ranks a candidate lower, only where those verdicts fail.
func shareNoFit(in *input.Input, c *Capacity) diag.Diagnostic {
	return diag.Diagnostic{Code: CodeShareNoFit, Severity: diag.Warning, Path: "workload.concurrency",
		Message: fmt.Sprintf("%d concurrent sessions of %d tokens (%s) put ceil(%d/%d) = %d on the fullest DP rank, needing %.2f GiB of KV per GPU; %.2f GiB is available (margin %.2f GiB): vLLM still serves them, but at most %d run at once per rank at full length — it queues the rest and preempts running requests (to recompute them) as their decodes grow",
			c.Concurrency, c.SessionTokens, c.SessionBasis, c.Concurrency, c.DPRanks, c.SeqsPerRank, c.NeededGiBPerRank, c.AvailableGiB, c.MarginGiB, c.MaxSeqsPerRank),
		Hint: fmt.Sprintf("the SLO verdicts simulate the queueing and the preemptions; to run all at once: at most %d such sessions fit (%d per rank × %d), or %s",
			c.MaxConcurrency, c.MaxSeqsPerRank, c.DPRanks, shrinkHint(in))}
}

func advisoryFindings(in *input.Input, m *Report) diag.Diagnostics {
	var ds diag.Diagnostics
	c, p := m.Capacity, m.PerGPU
	if p.CUDAGraphGiB > p.HeadroomGiB {
		ds = append(ds, diag.Diagnostic{Code: CodeGraphHeadroom, Severity: diag.Warning, Path: "vllm.gpu_memory_utilization",
			Message: fmt.Sprintf("CUDA graphs (≈%.1f GiB) are captured after the KV cache is allocated and are not in vLLM's budget; only %.2f GiB is left outside it", p.CUDAGraphGiB, p.HeadroomGiB),
			Hint:    "lower gpu_memory_utilization or set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1"})
	}
	if c.ExceedsMaxNumSeqs {
		ds = append(ds, diag.Diagnostic{Code: CodeAboveMaxSeqs, Severity: diag.Warning, Path: "vllm.max_num_seqs",
			Message: fmt.Sprintf("the fullest rank gets %d sequences but max_num_seqs is %d: the excess waits in the queue", c.SeqsPerRank, in.MaxNumSeqs),
			Hint:    fmt.Sprintf("raise max_num_seqs to at least %d", c.SeqsPerRank)})
	}
	if !in.WeightsFromCheckpoint {
		ds = append(ds, diag.Diagnostic{Code: CodeUpcastWeights, Severity: diag.Info, Path: "model.weights",
			Message: fmt.Sprintf("weights are %s but the checkpoint ships %s: vLLM must load a converted copy", in.WeightsDType, in.CheckpointDType()),
			Hint:    "weights: auto uses the checkpoint as shipped"})
	}
	if mp := in.Model.MaxModelLen(); mp > 0 && in.MaxModelLen > mp && in.Env["VLLM_ALLOW_LONG_MAX_MODEL_LEN"] != "1" {
		ds = append(ds, diag.Diagnostic{Code: CodeLenAboveConfig, Severity: diag.Error, Path: "workload.max_model_len",
			Message: fmt.Sprintf("max_model_len %d is greater than the derived max_model_len (%s = %d): vLLM refuses it", in.MaxModelLen, in.Model.MaxModelLenSource(), mp),
			Hint:    "lower max_model_len, or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 if the model really supports it"})
	}
	return ds
}

// noKVHint is EST101's hint: only the levers that can close a shortfall
// of −KVCacheGiB per GPU. An FP8 KV cache frees nothing when there is no
// KV cache; a higher gpu_memory_utilization (to 0.95) and FP8 weights
// (at most half the weights) are offered when they could close it; more
// GPUs always (check appends how many, MinLayoutHint). qa44b F13:
// Llama-405B BF16 on 4 × L4, 171 GiB short per GPU, was offered both.
func noKVHint(in *input.Input, p PerGPU) string {
	short := -p.KVCacheGiB
	var levers []string
	if (in.WeightsDType == "bf16" || in.WeightsDType == "fp16") && p.WeightsGiB/2 >= short {
		if ck := in.CheckpointDType(); ck != in.WeightsDType {
			levers = append(levers, checkpointLever(in, ck))
		} else {
			levers = append(levers, "FP8 weights")
		}
	}
	levers = append(levers, moreGPUsLever)
	if u := in.GPUMemoryUtilization; u > 0 && u < 0.95 && (0.95-u)*p.DeviceGiB >= short {
		levers = append(levers, "a higher gpu_memory_utilization")
	}
	return joinOr(levers)
}

// shrinkHint lists the levers that free KV memory for this input.
func shrinkHint(in *input.Input) string {
	var levers []string
	if in.WeightsDType == "bf16" || in.WeightsDType == "fp16" {
		if ck := in.CheckpointDType(); ck != in.WeightsDType {
			levers = append(levers, checkpointLever(in, ck))
		} else {
			levers = append(levers, "FP8 weights")
		}
	}
	if in.KVCacheDType != "fp8" {
		levers = append(levers, "kv_cache_dtype fp8")
	}
	levers = append(levers, "more GPUs per replica (TP/EP/PP)")
	if in.GPUMemoryUtilization < 0.95 {
		levers = append(levers, "a higher gpu_memory_utilization")
	}
	return joinOr(levers)
}

// checkpointLever is how a spec serves the checkpoint's own narrower
// format ck: weights auto for the model's own checkpoint; for a copy
// model.path names (input.Input.CheckpointDType), weights set to its
// format where vlaunch has that value (fp8, int8), else model.config, which
// makes vlaunch read the copy's quantization_config.
func checkpointLever(in *input.Input, ck string) string {
	switch {
	case ck == in.Model.CheckpointDType():
		return "use the " + ck + " checkpoint (weights: auto)"
	case ck == "fp8" || ck == "int8":
		return "use the " + ck + " checkpoint model.path names (weights: " + ck + ")"
	}
	return "use the " + ck + " checkpoint model.path names (model.config: its config.json)"
}

func joinOr(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " or " + s[len(s)-1]
}

// givenRoomGiB is what a GPU has left for a KV cache given with
// --kv-cache-memory-bytes: the whole device less the weights, the forward
// pass's peak, the memory outside PyTorch and the CUDA graphs. vLLM skips
// the utilization budget for a given size (gpu_worker.py
// determine_available_memory at v0.11.0 and v0.24.0 returns it as is), so
// the device, not gpu_memory_utilization, is the bound; the forward pass
// and the graph capture of start-up still need their memory beside it.
func givenRoomGiB(p PerGPU) float64 {
	return p.DeviceGiB - p.WeightsGiB - p.ActivationGiB - p.OtherGiB - p.CUDAGraphGiB
}
