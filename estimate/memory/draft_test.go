package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
)

// TestMTPDraftMemory: DeepSeek MTP adds one MoE decoder layer placed like
// the target's (16 of 256 experts per GPU at EP16, FP8), eh_proj in BF16
// replicated, its own LM head, and one MLA layer of KV per token; the
// target's parameters and the rest of the budget are unchanged.
func TestMTPDraftMemory(t *testing.T) {
	with := testinput.Example(t, "deepseek-v3-fp8-mtp-2x8h200")
	without := with
	without.Speculative = nil
	a, b := Estimate(&with), Estimate(&without)
	if a.ParamsPerGPU != b.ParamsPerGPU {
		t.Errorf("target parameters changed: %v vs %v", a.ParamsPerGPU, b.ParamsPerGPU)
	}
	draft := map[string]float64{}
	var sum float64
	for _, w := range a.Weights {
		if isDraft(w.Component) {
			draft[w.Component] = w.ParamsPerGPU
			sum += w.GiB
		}
	}
	h := 7168.0
	want := map[string]float64{
		CompDraftFuse:               2*h*h + 3*h,
		CompDraftHead:               129280 * h, // vocabulary padded to 64 per rank: already a multiple
		draftPrefix + CompRouted:    16 * 3 * h * 2048,
		draftPrefix + CompMLACopies: 512 * 128 * 256, // FP8 kv_b_proj: de-quantized copies
		draftPrefix + CompAttention: 0,               // checked > 0 below
		draftPrefix + CompDenseMLP:  -1,              // absent: the MTP layer is MoE
		CompDraftEmbedding:          -1,
		draftPrefix + CompRedundant: -1,
		draftPrefix + CompShared:    3 * h * 2048,
	}
	for comp, w := range want {
		got, ok := draft[comp]
		switch {
		case w < 0 && ok:
			t.Errorf("%s present (%v)", comp, got)
		case w == 0 && !(got > 0):
			t.Errorf("%s missing", comp)
		case w > 0 && math.Abs(got-w) > 1:
			t.Errorf("%s: %v params per GPU, want %v", comp, got, w)
		}
	}
	if d := a.PerGPU.WeightsGiB - b.PerGPU.WeightsGiB; math.Abs(d-sum) > 1e-9 {
		t.Errorf("weights grew by %.3f GiB, the draft terms sum to %.3f", d, sum)
	}
	if a.KV.DraftBytesPerToken != 1152 || a.KVBytesPerToken != b.KVBytesPerToken+1152 {
		t.Errorf("KV per token %d (draft %d), without %d", a.KVBytesPerToken, a.KV.DraftBytesPerToken, b.KVBytesPerToken)
	}
}
