package catalog

import (
	"strings"
	"testing"
)

// TestBlockSplitProblem holds the block-quantization rule to the layouts
// vLLM refuses and accepts for the two block-FP8 checkpoints of issue #27:
// Qwen3-235B-A22B-FP8 (moe_intermediate_size 1536, 128 × 128 blocks) and
// DeepSeek-V3 (moe_intermediate_size 2048, dense intermediate_size 18432 in
// its first three layers, one shared expert of 2048, MLA).
func TestBlockSplitProblem(t *testing.T) {
	qwen, err := LookupModel("qwen3-235b-a22b-fp8")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	bf16, err := LookupModel("qwen3-235b-a22b")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name            string
		m               *Model
		tp, expertSplit int
		want            string // substring, "" = accepted
	}{
		{"qwen TP8: 1536/8 = 192 per rank (issue #17569)", qwen, 8, 8, "The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128"},
		{"qwen TP4: 384 per rank", qwen, 4, 4, ""},
		{"qwen TP8 with EP: whole experts", qwen, 8, 1, ""},
		{"qwen TP4 × DP2 without EP: experts flattened over 8", qwen, 4, 8, "= 192 is not divisible"},
		{"qwen TP1 × DP8 with EP", qwen, 1, 1, ""},
		{"qwen TP2 × DP4 without EP", qwen, 2, 8, "= 192"},
		{"qwen TP16 with EP: o_proj 8192/16 = 512", qwen, 16, 1, ""},
		{"qwen BF16 checkpoint: no blocks", bf16, 8, 8, ""},
		{"deepseek TP8", ds, 8, 8, ""},
		{"deepseek TP16: 18432/16 = 1152, 2048/16 = 128", ds, 16, 16, ""},
		{"deepseek TP8 × DP4 without EP: experts 2048/32 = 64", ds, 8, 32, "gate's and up's weight = 64"},
		{"deepseek TP8 × DP4 with EP", ds, 8, 1, ""},
		{"deepseek TP32: dense MLP 18432/32 = 576 (issue #12256)", ds, 32, 1, "Weight input_size_per_partition = 576 is not divisible by weight quantization block_k = 128"},
		{"nil model", nil, 8, 8, ""},
	} {
		got := tt.m.BlockSplitProblem(tt.tp, tt.expertSplit)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: BlockSplitProblem(%d, %d) = %q, want %q", tt.name, tt.tp, tt.expertSplit, got, tt.want)
		}
	}
}

// TestBlockSplitDimensions: each checked dimension refuses on its own, so
// a synthetic model with one misfit reports that layer.
func TestBlockSplitDimensions(t *testing.T) {
	base := func() *Model {
		return &Model{NumLayers: 2, NumHeads: 32, NumKVHeads: 8, HeadDim: 128, IntermediateSize: 4096,
			Quant: Quantization{Method: "fp8", WeightBlockSize: []int{128, 128}}}
	}
	dense := base()
	dense.IntermediateSize = 3 * 128 * 4 // 1536: 192 at TP 8
	if got := dense.BlockSplitProblem(8, 8); !strings.Contains(got, "mlp.down_proj") {
		t.Errorf("dense MLP 1536 at TP 8: %q, want the down projection refused", got)
	}
	if got := dense.BlockSplitProblem(4, 4); got != "" {
		t.Errorf("dense MLP 1536 at TP 4: %q, want accepted", got)
	}
	attn := base()
	attn.HeadDim = 64 // o_proj input 2048: 64 per rank at TP 32
	if got := attn.BlockSplitProblem(32, 32); !strings.Contains(got, "self_attn.o_proj") {
		t.Errorf("o_proj 2048 at TP 32: %q, want the attention output refused", got)
	}
	shared := base()
	shared.NumExperts, shared.MoEIntermediateSize, shared.SharedExpertIntermediateSize = 8, 1024, 320
	if got := shared.BlockSplitProblem(2, 1); !strings.Contains(got, "shared_experts") {
		t.Errorf("shared expert 320 at TP 2: %q, want the shared expert refused", got)
	}
	noBlock := base()
	noBlock.Quant.WeightBlockSize = nil
	noBlock.IntermediateSize = 1000
	if got := noBlock.BlockSplitProblem(8, 8); got != "" {
		t.Errorf("per-tensor FP8: %q, want no block rule", got)
	}
}
