package memory

import "github.com/vlaunch/vlaunch/estimate/input"

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

// Alternatives evaluates the checkpoint's own format and BF16 next to the
// chosen one (whose report is cur), when they differ.
func Alternatives(in *input.Input, cur *Report) []AltWeights {
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
			m = Estimate(&alt)
		}
		out = append(out, AltWeights{WeightsDType: d, FromCheckpoint: d == ckpt && (i > 0 || in.WeightsFromCheckpoint), WeightsGiB: m.PerGPU.WeightsGiB, ParamsPerGPU: m.ParamsPerGPU,
			KVCacheGiB: m.PerGPU.KVCacheGiB, KVTokensPerRank: m.KVTokensPerRank, MaxSeqsPerRank: m.Capacity.MaxSeqsPerRank,
			Fits: m.Capacity.Fits, Current: i == 0})
	}
	return out
}
