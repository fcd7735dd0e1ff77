package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/vllm"
)

// Pool is one side of the deployment as check models it: its layout,
// memory (weights, KV) and steady capacity at the workload's request.
type Pool struct {
	Role      string `json:"role"`
	Nodes     int    `json:"nodes"`
	GPUs      int    `json:"gpus"`
	Instances int    `json:"instances"`
	TP        int    `json:"tp"`
	PP        int    `json:"pp"`
	DP        int    `json:"dp"`
	EP        bool   `json:"ep"`
	All2All   string `json:"all2all,omitempty"`
	// MaxNumSeqs and MaxNumBatchedTokens are the pool's engine limits.
	MaxNumSeqs          int `json:"max_num_seqs"`
	MaxNumBatchedTokens int `json:"max_num_batched_tokens"`
	// WeightsGiB, KVCacheGiB per GPU and KVTokensPerRank from package memory.
	WeightsGiB      float64 `json:"weights_gib"`
	KVCacheGiB      float64 `json:"kv_cache_gib"`
	KVTokensPerRank int64   `json:"kv_tokens_per_rank"`
	// CapacityPerS is the most requests per second the pool sustains with
	// the workload's request (prefill: steps full of max_num_batched_tokens
	// prompt tokens; decode: every rank's batch full), CapacityBasis how.
	CapacityPerS  float64 `json:"capacity_requests_per_s"`
	CapacityBasis string  `json:"capacity_basis"`
	// Utilization is the operating rate over CapacityPerS (the workload's
	// scenario).
	Utilization float64 `json:"utilization"`
	// Constants says where the step model's constants come from (the
	// global fit or a calibration file).
	Constants string `json:"constants"`
	// Memory is the pool's whole memory report (JSON only).
	Memory memory.Report `json:"memory"`

	in *input.Input
	sm *perf.StepModel
	// reuse is the share of requests whose prompt the pool's engine holds
	// in its prefix cache (PromptReuse; uncached).
	reuse float64
	// hitRate is workload.prefix_cache_hit_rate where the prefill pool's
	// engines apply it (slo.PrefixHitRate; 0 for the decode pool, whose
	// read is priced whole: prefixRate).
	hitRate float64
}

// newPool runs the memory model and builds the step model of one pool.
func newPool(role string, in *input.Input) Pool {
	l := in.Layout
	m := memory.Estimate(in)
	s := perf.SetupFromInput(in)
	return Pool{Role: role, Nodes: poolNodes(in), GPUs: l.TotalGPUs(), Instances: l.ReplicaCount(), TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP,
		All2All: s.A2A.String(), MaxNumSeqs: in.MaxNumSeqs, MaxNumBatchedTokens: in.MaxNumBatchedTokens,
		WeightsGiB: m.PerGPU.WeightsGiB, KVCacheGiB: m.PerGPU.KVCacheGiB, KVTokensPerRank: m.KVTokensPerRank, Memory: m,
		Constants: in.Calibration.Describe(),
		in:        in, sm: perf.NewStepModel(s), hitRate: prefixRate(role, in)}
}

// poolNodes is how many nodes the pool runs on: its deployment's nodes
// (instances smaller than a node share them), else one instance's nodes
// times the instances.
func poolNodes(in *input.Input) int {
	if d := in.Resolved(); d != nil && len(d.Nodes) > 0 {
		return len(d.Nodes)
	}
	return in.Layout.Nodes * in.Layout.ReplicaCount()
}

// ranks is the pool's DP ranks over all its instances.
func (p *Pool) ranks() int { return max(1, p.DP) * max(1, p.Instances) }

// maxChunkSteps bounds the step evaluations of a long prompt's chunks
// (prefillRankRate): beyond it, evenly spaced chunks stand for the rest.
const maxChunkSteps = 256

// prefillRankRate is one prefill rank's prompts per second with every
// rank's steps full: prompts that compute n tokens after cached ones
// (their prefix cache's hit, which each chunk reads and attends over, as
// perf.StepModel.PrefillIdleCached prices it), whole prompts packed
// max_num_batched_tokens to a step (at most max_num_seqs of them), or a
// prompt longer than the budget in chunks of it, every rank alike (the
// lock-step pace); the chunk that ends a prompt is final
// (prefillChunkLoad).
func prefillRankRate(sm *perf.StepModel, n, cached, budget, maxSeqs int) float64 {
	n, budget = max(1, n), max(1, budget)
	pre := float64(max(0, cached))
	if n <= budget {
		k := float64(min(budget/n, max(1, maxSeqs)))
		st := sm.StepUniform(prefillChunkLoad(k, float64(n), pre, true))
		return rate(k, st.TotalS)
	}
	chunks := (n + budget - 1) / budget
	stride := max(1, chunks/maxChunkSteps)
	total := 0.0
	for j := 0; j < chunks-1; j += stride {
		st := sm.StepUniform(prefillChunkLoad(1, float64(budget), pre+float64(j*budget), false))
		total += st.TotalS * float64(min(stride, chunks-1-j))
	}
	p := (chunks - 1) * budget
	total += sm.StepUniform(prefillChunkLoad(1, float64(n-p), pre+float64(p), true)).TotalS
	return rate(1, total)
}

// rate is k per t seconds, 0 when t is not a positive finite time.
func rate(k, t float64) float64 {
	if t <= 0 || math.IsInf(t, 0) || math.IsNaN(t) {
		return 0
	}
	return k / t
}

// prefillCapacity is the prefill pool's requests per second at prompts of n.
func (p *Pool) prefillCapacity(n int) float64 {
	return prefillRankRate(p.sm, p.uncached(max(1, n)), p.cached(n), p.in.MaxNumBatchedTokens, p.in.MaxNumSeqs) * float64(p.ranks())
}

// decodeBatch is one decode rank's batch: max_num_seqs, or the whole
// requests (n + output tokens) its KV cache holds if fewer (sim.RunSlots).
func (p *Pool) decodeBatch(n, out int) int {
	return sim.RunSlots(sim.Config{MaxNumSeqs: p.in.MaxNumSeqs, KVTokensPerRank: int(min(p.KVTokensPerRank, math.MaxInt32)),
		BlockSize: p.in.BlockSize, KV: sim.KVCost(p.Memory.SeqCost()), InputTokens: n, OutputTokens: out})
}

// decodeCapacity is the decode pool's requests per second at prompts of n
// and out output tokens: every rank's batch full, decoding at the mean
// context n + out/2 (perf.StepModel.DecodeAt), each request out tokens.
func (p *Pool) decodeCapacity(n, out int) float64 {
	if p.KVTokensPerRank <= 0 {
		return 0
	}
	conc := p.decodeBatch(n, out) * p.ranks()
	dp, _ := p.sm.DecodeAt(conc, float64(n)+float64(out)/2)
	return dp.OutputTokPerS / float64(max(1, out))
}

// outputTokens is a scenario's output length: the workload's, within what
// vLLM accepts beside the prompt.
func outputTokens(in *input.Input, n int) int {
	return max(1, vllm.MaxCompletionTokens(in.MaxModelLen, n, in.Workload.OutputTokens))
}
