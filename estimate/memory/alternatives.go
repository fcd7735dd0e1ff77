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

// Alternatives evaluates the checkpoint's own format (input.Input.
// CheckpointDType: a pre-quantized copy model.path names counts) and BF16
// next to the chosen one (whose report is cur), when they differ. A copy's
// format is evaluated only where its name is enough to size it (namedSized).
func Alternatives(in *input.Input, cur *Report) []AltWeights {
	ckpt := in.CheckpointDType()
	dtypes := []string{in.WeightsDType}
	for _, d := range []string{ckpt, "bf16"} {
		if d == ckpt && !namedSized(in, d) {
			continue
		}
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

// namedSized reports whether format ckpt can be sized: the model's own
// checkpoint's always (its config is read); a copy model.path names only
// in FP8 or INT8 (one byte a weight whatever its scales); a 4-bit copy's
// group size and exclusions are in its config, which vlaunch has not read.
func namedSized(in *input.Input, ckpt string) bool {
	return ckpt == in.Model.CheckpointDType() || ckpt == "fp8" || ckpt == "int8"
}
