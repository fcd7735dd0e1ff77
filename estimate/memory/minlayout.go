package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// MinLayout is the smallest tensor × pipeline layout of one replica whose
// KV cache, by Estimate, holds at least one max_model_len sequence, with
// the spec's weights, KV dtype and gpu_memory_utilization: TP a power of
// two dividing the attention heads and at most a node's GPUs (or the
// spec's TP), PP at most the layers (and maxMinLayoutGPUs GPUs in all).
// Fewest GPUs first, then the larger TP. ok is false when none fits.
// It re-runs the memory model per layout, so check calls it for a
// replica that cannot start (EST101), never plan's per-candidate scoring.
func MinLayout(in *input.Input) (tp, pp int, ok bool) {
	m := in.Model
	maxTP := max(in.Layout.TP, in.Layout.GPUsPerNode, 1)
	best := 0
	for t := 1; t <= maxTP; t *= 2 {
		if m.NumHeads > 0 && m.NumHeads%t != 0 {
			break
		}
		for p := 1; p <= max(1, m.NumLayers) && t*p <= maxMinLayoutGPUs; p++ {
			if best > 0 && t*p > best {
				break
			}
			if !fitsWith(in, t, p) {
				continue
			}
			if best == 0 || t*p < best || (t*p == best && t > tp) {
				best, tp, pp = t*p, t, p
			}
			break
		}
	}
	return tp, pp, best > 0
}

// maxMinLayoutGPUs bounds MinLayout's search (a replica's GPUs).
const maxMinLayoutGPUs = 1024

func fitsWith(in *input.Input, tp, pp int) bool {
	alt := *in
	alt.Layout.TP, alt.Layout.PP, alt.Layout.DP, alt.Layout.Replicas = tp, pp, 1, 1
	r := Estimate(&alt)
	return r.PerGPU.KVCacheGiB > 0 && r.NumBlocks > 0 && r.Capacity.OneSequenceFits
}

// MinLayoutHint is the EST101 hint's closing lever: the fewest GPUs one
// replica needs by the memory model (MinLayout), or "" when none fits.
func MinLayoutHint(in *input.Input) string {
	tp, pp, ok := MinLayout(in)
	if !ok {
		return ""
	}
	return fmt.Sprintf("at least %d GPUs per replica with these settings (TP %d × PP %d is the smallest layout the memory model fits)", tp*pp, tp, pp)
}

// kvLeftText is what the budget leaves for the KV cache, a shortfall
// named as one rather than a negative size (qa44b F13).
func kvLeftText(kvGiB float64) string {
	if kvGiB < 0 {
		return fmt.Sprintf("leaving nothing for the KV cache: %.2f GiB short", -kvGiB)
	}
	return fmt.Sprintf("leaving %.2f GiB for the KV cache", kvGiB)
}

// AddMinLayout names, in each EST101 finding's hint, the fewest GPUs one
// replica needs (MinLayoutHint): "more GPUs" alone left the user to guess
// 8 or 40 (qa44b F13: Llama-405B BF16 needs about 811 GB of weights
// against 20 GiB usable per L4).
func AddMinLayout(in *input.Input, ds diag.Diagnostics) {
	for i := range ds {
		if ds[i].Code != CodeNoKVMemory {
			continue
		}
		if h := MinLayoutHint(in); h != "" {
			ds[i].Hint = strings.Replace(ds[i].Hint, moreGPUsLever, moreGPUsLever+", "+h, 1)
		}
	}
}

// moreGPUsLever is the hint's more-GPUs lever, which AddMinLayout details.
const moreGPUsLever = "more GPUs per replica (TP/EP/PP)"
