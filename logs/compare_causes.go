package logs

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// inputDiffs lists the settings where the log and the spec disagree; each
// is a candidate cause of a figure's difference.
func inputDiffs(e *Engine, p Prediction) []string {
	var out []string
	if !catalog.MatchesAny(e.Model, p.ModelNames) {
		out = append(out, fmt.Sprintf("the log serves %s, the spec deploys %s: these are different models", e.Model, strings.Join(p.ModelNames, " / ")))
	}
	if e.Version != "" && p.Version != "" && !untaggedBuild(e.Version) && majorMinorPatch(e.Version) != majorMinorPatch(p.Version) {
		out = append(out, fmt.Sprintf("the log is vLLM %s, the spec %s", e.Version, p.Version))
	}
	if e.GPUTotalGiB != nil && p.DeviceGiB > 0 && math.Abs(*e.GPUTotalGiB-p.DeviceGiB) > 0.005*p.DeviceGiB {
		out = append(out, fmt.Sprintf("the GPU reports %.2f GiB, the spec's GPU %.2f GiB", *e.GPUTotalGiB, p.DeviceGiB))
	}
	if e.GPUMemoryUtilization != nil && math.Abs(*e.GPUMemoryUtilization-p.Utilization) > 1e-9 {
		out = append(out, fmt.Sprintf("gpu_memory_utilization %.2f logged, %.2f in the spec", *e.GPUMemoryUtilization, p.Utilization))
	}
	if e.DCP != nil && max(1, *e.DCP) != p.dcp() {
		out = append(out, fmt.Sprintf("the log ran decode context parallel %d, the spec %d: vLLM logs a rank's KV tokens × that size, so the token figures differ by ×%.3g before anything else",
			max(1, *e.DCP), p.dcp(), float64(max(1, *e.DCP))/float64(p.dcp())))
	}
	return out
}

func majorMinorPatch(v string) string {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 4)
	if len(parts) > 3 {
		parts = parts[:3]
	}
	for i, s := range parts {
		n := 0
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		parts[i] = s[:n]
	}
	return strings.Join(parts, ".")
}

// layoutCause: weights and non-torch memory depend on how the model is
// split and which process groups a GPU is in.
func (c comparer) layoutCause() []string {
	var out []string
	for _, d := range []struct {
		name   string
		logged *int
		spec   int
	}{{"tensor", c.e.TP, c.p.TP}, {"pipeline", c.e.PP, c.p.PP}, {"data", c.e.DP, c.p.DP}} {
		if d.logged != nil && d.spec > 0 && *d.logged != d.spec {
			out = append(out, fmt.Sprintf("the log ran %s parallel %d, the spec %d", d.name, *d.logged, d.spec))
		}
		if d.logged == nil && d.spec > 1 {
			// An unstated setting is not a matching one: the figure
			// may differ because the log ran another value of it.
			out = append(out, fmt.Sprintf("the log does not state its %s parallel size; the prediction assumes the spec's %d", d.name, d.spec))
		}
	}
	return append(out, c.inputs...)
}

// weightsFit: when the log does not state its tensor parallel size, the
// TP size whose split of the spec's weights the logged per-GPU figure
// fits. A GPU holds about 1/TP of the layers' weights (vLLM shards the
// linear and vocabulary-embedding weights over the TP group; only small
// norms are replicated), so the predicted figure × the spec's TP is the
// engine's weights in all and that ÷ the logged figure is the TP the log
// fits. Named only when it is within 10% of a whole size other than the
// spec's.
func (c comparer) weightsFit() []string {
	if c.e.TP != nil || c.e.WeightsGiB == nil || *c.e.WeightsGiB <= 0 || c.p.TP < 1 || c.p.WeightsGiB <= 0 {
		return nil
	}
	total := c.p.WeightsGiB * float64(c.p.TP)
	ratio := total / *c.e.WeightsGiB
	k := math.Round(ratio)
	if k < 1 || int(k) == c.p.TP || math.Abs(ratio-k) > 0.1*k {
		return nil
	}
	per := total / k
	return []string{fmt.Sprintf("the logged %.2f GiB fits tensor parallel %d: %.2f GiB predicted per GPU × the spec's TP %d = %.2f GiB of weights, %.2f GiB per GPU over TP %d (%+.1f%% of the logged figure)",
		*c.e.WeightsGiB, int(k), c.p.WeightsGiB, c.p.TP, total, per, int(k), (per-*c.e.WeightsGiB) / *c.e.WeightsGiB * 100)}
}

// quantCause: the checkpoint format sets the bytes per parameter.
func (c comparer) quantCause() []string {
	if c.e.Quantization != "" && c.e.Quantization != "None" {
		return []string{fmt.Sprintf("the checkpoint is loaded with quantization %s: check that the spec's model.weights matches it", c.e.Quantization)}
	}
	return nil
}

// activationCause: the profiling batch is max_num_batched_tokens long.
func (c comparer) activationCause() []string {
	out := c.layoutCause()
	if b, ok := c.e.Args["max_num_batched_tokens"]; ok && c.p.MaxNumBatchedTokens > 0 && b != fmt.Sprint(c.p.MaxNumBatchedTokens) {
		out = append(out, fmt.Sprintf("max_num_batched_tokens %s logged, %d predicted", b, c.p.MaxNumBatchedTokens))
	}
	if c.e.MaxModelLen != nil && c.p.MaxModelLen > 0 && *c.e.MaxModelLen != c.p.MaxModelLen {
		out = append(out, fmt.Sprintf("max_model_len %d logged, %d in the spec", *c.e.MaxModelLen, c.p.MaxModelLen))
	}
	return out
}

// kvCause: bytes per token follow the KV dtype and the layers on the GPU;
// a sequence's share follows max_model_len and the block size.
func (c comparer) kvCause() []string {
	var out []string
	if kv := c.e.KVCacheDType; kv != "" && kv != "auto" && fp8Family(kv) != fp8Family(c.p.KVCacheDType) {
		out = append(out, fmt.Sprintf("kv_cache_dtype %s logged, %s predicted", kv, c.p.KVCacheDType))
	}
	if c.e.ConcurrencyTokens != nil && c.p.MaxModelLen > 0 && *c.e.ConcurrencyTokens != c.p.MaxModelLen {
		out = append(out, fmt.Sprintf("the log's concurrency is for %d tokens, the spec's max_model_len is %d", *c.e.ConcurrencyTokens, c.p.MaxModelLen))
	}
	if c.e.BlockSize != nil && c.p.BlockSize > 0 && *c.e.BlockSize != c.p.BlockSize {
		out = append(out, fmt.Sprintf("block size %d logged, %d predicted", *c.e.BlockSize, c.p.BlockSize))
	}
	return append(out, c.layoutCause()...)
}

// fp8Family folds fp8_e4m3 and fp8_e5m2 into fp8: one byte per value.
func fp8Family(s string) string {
	if strings.HasPrefix(s, "fp8") {
		return "fp8"
	}
	return s
}
