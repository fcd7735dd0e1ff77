package estimate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag/codes"

	"github.com/vlaunch/vlaunch/diag"
)

// Diagnostic codes of the memory verdicts.
const (
	CodeNoKVMemory     = codes.EstNoKVMemory     // nothing left for the KV cache
	CodeSeqTooLong     = codes.EstSeqTooLong     // one max_model_len sequence does not fit (vLLM refuses to start)
	CodeShareNoFit     = codes.EstShareNoFit     // the per-rank share of the concurrency does not fit
	CodeGraphHeadroom  = codes.EstGraphHeadroom  // CUDA graphs may not fit outside the budget
	CodeAboveMaxSeqs   = codes.EstAboveMaxSeqs   // per-rank share above max_num_seqs: the excess queues
	CodeUpcastWeights  = codes.EstUpcastWeights  // weights differ from the checkpoint (up-cast or online quantization)
	CodeLenAboveConfig = codes.EstLenAboveConfig // max_model_len above the model's max_position_embeddings
)

// Report is the whole `vlaunch check` result. The memory half fills Input,
// Memory, Alternatives, Notes and the memory findings; the performance half
// adds its section and SLO verdicts (see perf*.go) and both decide Feasible.
// Package report renders it.
type Report struct {
	Input        InputSummary `json:"input"`
	Memory       MemoryReport `json:"memory"`
	Alternatives []AltWeights `json:"weights_alternatives,omitempty"`
	// Notes derive the key figures and say where common hand calculations
	// go wrong (reference scenario points 1–5).
	Notes []Note `json:"notes"`
	// Performance and SLO are the performance half (perf*.go, slo*.go),
	// filled by AddPerformance.
	Performance *Performance     `json:"performance,omitempty"`
	SLO         []SLOVerdict     `json:"slo,omitempty"`
	Findings    diag.Diagnostics `json:"findings"`
	Feasible    bool             `json:"feasible"`
	// LayoutSearch is set when the spec says `parallelism: auto`: every
	// layout Search evaluated; the rest of the report is for the chosen one.
	LayoutSearch *LayoutSearch `json:"layout_search,omitempty"`
}

// InputSummary echoes the resolved input so a report stands on its own.
type InputSummary struct {
	Model               string   `json:"model"`
	GPU                 string   `json:"gpu"`
	GPUs                int      `json:"gpus"`
	Nodes               int      `json:"nodes"`
	TP                  int      `json:"tp"`
	PP                  int      `json:"pp"`
	DP                  int      `json:"dp"`
	EP                  bool     `json:"ep"`
	WeightsDType        string   `json:"weights_dtype"`
	CheckpointDType     string   `json:"checkpoint_dtype"`
	KVCacheDType        string   `json:"kv_cache_dtype"`
	Utilization         float64  `json:"gpu_memory_utilization"`
	MaxModelLen         int      `json:"max_model_len"`
	MaxNumSeqs          int      `json:"max_num_seqs"`
	MaxNumBatchedTokens int      `json:"max_num_batched_tokens"`
	BlockSize           int      `json:"block_size"`
	Concurrency         int      `json:"concurrency"`
	VLLMVersion         string   `json:"vllm_version"`
	All2AllBackend      string   `json:"all2all_backend,omitempty"`
	CUDAGraphs          bool     `json:"cuda_graphs"`
	Assumptions         []string `json:"assumptions,omitempty"`
}

// AltWeights is the memory outcome with another weights format (the
// checkpoint's own, or BF16), so the user sees both.
type AltWeights struct {
	WeightsDType    string  `json:"weights_dtype"`
	FromCheckpoint  bool    `json:"from_checkpoint"`
	WeightsGiB      float64 `json:"weights_gib"`
	ParamsPerGPU    float64 `json:"params_per_gpu"`
	KVCacheGiB      float64 `json:"kv_cache_gib"`
	KVTokensPerRank int64   `json:"kv_tokens_per_rank"`
	MaxSeqsPerRank  int     `json:"max_seqs_per_rank"`
	Fits            bool    `json:"fits"`
	Current         bool    `json:"current"`
}

// Note is one derivation shown to the user.
type Note struct {
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Check runs the memory half of `vlaunch check`. Feasible reflects memory
// only; the performance half ANDs in its SLO verdicts.
func Check(in *Input) Report {
	r := Report{Input: summarize(in), Memory: Memory(in)}
	r.Alternatives = alternatives(in, &r.Memory)
	r.Notes = memoryNotes(in, &r)
	r.Findings = memoryFindings(in, &r.Memory)
	r.Feasible = !r.Findings.HasErrors()
	return r
}

func summarize(in *Input) InputSummary {
	l := in.Layout
	return InputSummary{Model: in.ModelSource, GPU: in.GPU.Name, GPUs: l.GPUs(), Nodes: l.Nodes, TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP,
		WeightsDType: in.WeightsDType, CheckpointDType: in.Model.CheckpointDType(), KVCacheDType: in.KVCacheDType,
		Utilization: in.GPUMemoryUtilization, MaxModelLen: in.MaxModelLen, MaxNumSeqs: in.MaxNumSeqs,
		MaxNumBatchedTokens: in.MaxNumBatchedTokens, BlockSize: in.BlockSize, Concurrency: max(in.Workload.Concurrency, 1),
		VLLMVersion: in.VLLMVersion, All2AllBackend: in.All2AllBackend, CUDAGraphs: in.CUDAGraphs, Assumptions: in.Assumptions}
}

// alternatives evaluates the checkpoint's own format and BF16 next to the
// chosen one (whose report is cur), when they differ.
func alternatives(in *Input, cur *MemoryReport) []AltWeights {
	ckpt := in.Model.CheckpointDType()
	dtypes := []string{in.WeightsDType}
	for _, d := range []string{ckpt, "bf16"} {
		if d != dtypes[0] && (len(dtypes) < 2 || dtypes[1] != d) {
			dtypes = append(dtypes, d)
		}
	}
	if len(dtypes) == 1 {
		return nil
	}
	var out []AltWeights
	for i, d := range dtypes {
		m := *cur
		if i > 0 {
			alt := *in
			alt.WeightsDType, alt.WeightsFromCheckpoint = d, d == ckpt
			m = Memory(&alt)
		}
		out = append(out, AltWeights{WeightsDType: d, FromCheckpoint: d == ckpt && (i > 0 || in.WeightsFromCheckpoint), WeightsGiB: m.PerGPU.WeightsGiB, ParamsPerGPU: m.ParamsPerGPU,
			KVCacheGiB: m.PerGPU.KVCacheGiB, KVTokensPerRank: m.KVTokensPerRank, MaxSeqsPerRank: m.Capacity.MaxSeqsPerRank,
			Fits: m.Capacity.Fits, Current: i == 0})
	}
	return out
}

// memoryFindings turns the memory verdicts into diagnostics.
func memoryFindings(in *Input, m *MemoryReport) diag.Diagnostics {
	var ds diag.Diagnostics
	c, p := m.Capacity, m.PerGPU
	add := func(code diag.Code, sev diag.Severity, path, msg, hint string) {
		ds = append(ds, diag.Diagnostic{Code: code, Severity: sev, Path: path, Message: msg, Hint: hint})
	}
	switch {
	case p.KVCacheGiB <= 0 || m.NumBlocks == 0:
		add(CodeNoKVMemory, diag.Error, "model.weights",
			fmt.Sprintf("No available memory for the cache blocks: %.2f GiB usable − %.2f weights − %.2f activation − %.2f other = %.2f GiB per GPU (vLLM fails at start-up)",
				p.UsableGiB, p.WeightsGiB, p.ActivationGiB, p.OtherGiB, p.KVCacheGiB), shrinkHint(in))
	case !c.OneSequenceFits:
		add(CodeSeqTooLong, diag.Error, "workload.max_model_len",
			fmt.Sprintf("To serve at least one request with the model's max seq len (%d), %.2f GiB KV cache is needed, which is larger than the available KV cache memory (%.2f GiB). Based on the available memory, the estimated maximum model length is %d (vLLM refuses to start)",
				in.MaxModelLen, float64(c.SeqBytes)/GiB, c.AvailableGiB, c.LargestMaxModelLen),
			fmt.Sprintf("set max_model_len ≤ %d, or %s", c.LargestMaxModelLen, shrinkHint(in)))
	case !c.Fits:
		add(CodeShareNoFit, diag.Error, "workload.concurrency",
			fmt.Sprintf("%d concurrent %d-token sequences put ceil(%d/%d) = %d on the fullest DP rank, needing %.2f GiB of KV per GPU; %.2f GiB is available (%d fit, margin %.2f GiB)",
				c.Concurrency, c.MaxModelLen, c.Concurrency, c.DPRanks, c.SeqsPerRank, c.NeededGiBPerRank, c.AvailableGiB, c.MaxSeqsPerRank, c.MarginGiB),
			fmt.Sprintf("at most %d full-length sessions fit (%d per rank × %d); or %s", c.MaxConcurrency, c.MaxSeqsPerRank, c.DPRanks, shrinkHint(in)))
	}
	ds = append(ds, advisoryFindings(in, m)...)
	return ds
}

func advisoryFindings(in *Input, m *MemoryReport) diag.Diagnostics {
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
			Message: fmt.Sprintf("weights are %s but the checkpoint ships %s: vLLM must load a converted copy", in.WeightsDType, in.Model.CheckpointDType()),
			Hint:    "weights: auto uses the checkpoint as shipped"})
	}
	if mp := in.Model.MaxPositionEmbeddings; mp > 0 && in.MaxModelLen > mp && in.Env["VLLM_ALLOW_LONG_MAX_MODEL_LEN"] != "1" {
		ds = append(ds, diag.Diagnostic{Code: CodeLenAboveConfig, Severity: diag.Error, Path: "workload.max_model_len",
			Message: fmt.Sprintf("max_model_len %d is greater than the derived max_model_len (max_position_embeddings=%d): vLLM refuses it", in.MaxModelLen, mp),
			Hint:    "lower max_model_len, or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 if the model really supports it"})
	}
	return ds
}

// shrinkHint lists the levers that free KV memory for this input.
func shrinkHint(in *Input) string {
	var levers []string
	if in.WeightsDType == "bf16" || in.WeightsDType == "fp16" {
		if ck := in.Model.CheckpointDType(); ck != in.WeightsDType {
			levers = append(levers, "use the "+ck+" checkpoint (weights: auto)")
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
