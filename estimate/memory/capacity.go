package memory

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// Capacity turns a GPU's KV budget into sessions: how many sessions of the
// workload's length one rank holds, the share of the SLO concurrency one
// rank must hold, and the verdict. vLLM admits requests by their blocks, not
// by max_model_len, which only limits one request (and must fit once for
// vLLM to start).
type Capacity struct {
	MaxModelLen int `json:"max_model_len"`
	// SessionTokens is one session's context in the KV cache and
	// SessionBasis where it comes from (input.Input.SessionTokens).
	SessionTokens int    `json:"session_tokens"`
	SessionBasis  string `json:"session_basis"`
	Concurrency   int    `json:"concurrency"`
	// InFlight says Concurrency is an open loop's mean requests in flight
	// (its simulation's, Little's law), not sessions the spec states.
	InFlight bool `json:"in_flight,omitempty"`
	// DPRanks are the ranks that share the sessions: DP × Replicas
	// (independent replicas each hold their own share).
	DPRanks  int `json:"dp_ranks"`
	Replicas int `json:"replicas,omitempty"`
	// SeqsPerRank is ceil(concurrency / DP): requests are not split, so the
	// fullest rank sets the need, not the average.
	SeqsPerRank int `json:"seqs_per_rank"`
	// SeqBytes is one running session on one GPU (KVLayout.RunCost:
	// block-rounded, sliding-window layers at the window a decoding
	// sequence keeps).
	SeqBytes int64 `json:"seq_bytes"`
	// ReserveGiB is what the pool sets aside for the prompt chunks in
	// flight in sliding-window layers (SeqCost.Reserve); 0 without them.
	ReserveGiB float64 `json:"reserve_gib,omitempty"`
	// NeededGiBPerRank = SeqsPerRank × SeqBytes + ReserveGiB.
	NeededGiBPerRank float64 `json:"needed_gib_per_rank"`
	// NeededGBTotal is concurrency × SeqBytes × GPUs per rank in decimal GB
	// (the figure a whole-cluster analysis would quote).
	NeededGBTotal float64 `json:"needed_gb_total"`
	AvailableGiB  float64 `json:"available_gib"`
	// MarginGiB = available − needed on the fullest rank (negative: short).
	MarginGiB float64 `json:"margin_gib"`
	// MaxSeqsPerRank is how many sessions fit on one rank.
	MaxSeqsPerRank      int     `json:"max_seqs_per_rank"`
	MaxSeqsPerRankExact float64 `json:"max_seqs_per_rank_exact"`
	// MaxConcurrency is MaxSeqsPerRank × DP: the most sessions the
	// deployment holds with an even spread.
	MaxConcurrency int `json:"max_concurrency"`
	// OneSequenceFits: one max_model_len request fits at vLLM's start-up
	// charge (KVLayout.SequenceBytes; else vLLM refuses to start).
	OneSequenceFits bool `json:"one_sequence_fits"`
	// MaxLenSeqBytes is that request at vLLM's start-up charge.
	MaxLenSeqBytes int64 `json:"max_len_seq_bytes"`
	// LargestMaxModelLen is the longest max_model_len one sequence could
	// have (vLLM's "estimated maximum model length").
	LargestMaxModelLen int `json:"largest_max_model_len"`
	// ExceedsMaxNumSeqs is true when the per-rank share is above
	// max_num_seqs (the excess queues instead of running).
	ExceedsMaxNumSeqs bool `json:"exceeds_max_num_seqs"`
	Fits              bool `json:"fits"`
	// MaxSeqsPerRankLow and FitsLow are the same at the low end of the KV
	// band when known gaps apply (Report.Gaps); zero and false otherwise.
	MaxSeqsPerRankLow int  `json:"max_seqs_per_rank_low,omitempty"`
	FitsLow           bool `json:"fits_low,omitempty"`
}

// CapacityFor derives capacity for the binding stage b.
func CapacityFor(in *input.Input, b StageMemory) Capacity {
	c := Capacity{MaxModelLen: in.MaxModelLen, Concurrency: max(in.Workload.Concurrency, 1), DPRanks: in.Layout.DP * in.Layout.ReplicaCount()}
	if r := in.Layout.ReplicaCount(); r > 1 {
		c.Replicas = r
	}
	c.SeqsPerRank = ceilDiv(c.Concurrency, c.DPRanks)
	c.SessionTokens, c.SessionBasis = in.SessionTokens()
	run := b.KV.RunCost(in.BlockSize)
	c.SeqBytes = run.Bytes(c.SessionTokens)
	c.ReserveGiB = float64(run.Reserve) / GiB
	c.NeededGiBPerRank = float64(c.SeqsPerRank)*float64(c.SeqBytes)/GiB + c.ReserveGiB
	gpusPerRank := float64(in.Layout.TP * in.Layout.PP)
	c.NeededGBTotal = (float64(c.Concurrency)*float64(c.SeqBytes) + float64(run.Reserve)*float64(c.DPRanks)) * gpusPerRank / 1e9
	poolBytes := float64(b.NumBlocks) * float64(in.BlockSize) * float64(b.KV.BytesPerToken)
	c.AvailableGiB = max(b.AvailableKVGiB, 0)
	c.MarginGiB = poolBytes/GiB - c.NeededGiBPerRank
	if c.SeqBytes > 0 {
		c.MaxSeqsPerRankExact = max(poolBytes-float64(run.Reserve), 0) / float64(c.SeqBytes)
		c.MaxSeqsPerRank = int(math.Floor(c.MaxSeqsPerRankExact))
	}
	c.MaxConcurrency = c.MaxSeqsPerRank * c.DPRanks
	c.MaxLenSeqBytes = b.KV.SequenceBytes(in.MaxModelLen, in.BlockSize)
	c.OneSequenceFits = float64(c.MaxLenSeqBytes) <= poolBytes && poolBytes > 0
	c.LargestMaxModelLen = largestLen(b.KV, int64(poolBytes), in.BlockSize, max(in.MaxModelLen, in.Model.MaxModelLen()))
	c.ExceedsMaxNumSeqs = c.SeqsPerRank > in.MaxNumSeqs
	c.Fits = c.OneSequenceFits && c.MaxSeqsPerRank >= 1 && c.MarginGiB >= 0
	return c
}

// SequencesFit is how many sequences of n tokens one rank's KV pool holds,
// counted as vLLM holds them running (KVLayout.RunCost: whole blocks, a
// hybrid's per-sequence state, a sliding window's resident blocks, the
// chunks in flight set aside). The
// pool's tokens ÷ n would overcount every layout with a per-sequence
// state or packed caches (a Qwen3.5 or Nemotron-H hybrid, DeepSeek-V4):
// the performance half's decode curve reads this figure so that it marks
// KV capacity where the capacity section does.
func (r *Report) SequencesFit(n int) int {
	run := r.SeqCost()
	seq := run.Bytes(max(n, 1))
	if seq <= 0 || r.NumBlocks <= 0 {
		return 0
	}
	pool := float64(r.NumBlocks)*float64(r.BlockSize)*float64(r.KVBytesPerToken) - float64(run.Reserve)
	return int(math.Floor(max(pool, 0) / float64(seq)))
}

// SeqCost is what a running sequence costs of one rank's KV pool at each
// length (the binding stage's KVLayout.RunCost): the simulation's admission
// (sim.Config.KV) counts with it, so that it runs as many sequences as
// SequencesFit says fit.
func (r *Report) SeqCost() SeqCost { return r.KV.RunCost(r.BlockSize) }

// AtMaxModelLen is how many max_model_len sequences fit in one rank's KV
// pool at vLLM's start-up charge (KVLayout.SequenceBytes: a windowed group
// the window − 1 plus the tokens in flight): vLLM's "Maximum concurrency
// for N tokens per request" line, a bound the running count (SequencesFit)
// exceeds for sliding-window models.
func AtMaxModelLen(in *input.Input, b StageMemory) float64 {
	seq := b.KV.SequenceBytes(in.MaxModelLen, in.BlockSize)
	if seq <= 0 {
		return 0
	}
	return float64(b.NumBlocks) * float64(in.BlockSize) * float64(b.KV.BytesPerToken) / float64(seq)
}

// largestLen is the longest sequence whose KV fits in pool bytes (binary
// search over SequenceBytes, which grows with length), capped at limit.
func largestLen(kv KVLayout, pool int64, block, limit int) int {
	if kv.SequenceBytes(block, block) > pool {
		return 0
	}
	lo, hi := block, max(limit, block)
	if kv.SequenceBytes(hi, block) <= pool {
		return hi
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if kv.SequenceBytes(mid, block) <= pool {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo / block * block
}
