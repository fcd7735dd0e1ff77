package catalog

import "fmt"

// BlockSplitProblem is the one rule for whether vLLM can split the
// checkpoint's block-quantized weights (quantization_config.
// weight_block_size [block_n, block_k], e.g. FP8 in 128 × 128 blocks) over
// tp tensor-parallel ranks, with each routed expert's intermediate
// dimension split over expertSplit ranks: "" when it can, else what vLLM
// refuses, in its own words. A block's scale covers block_n output rows ×
// block_k input columns, so a rank's shard must hold whole blocks. validate
// (SPEC124), the layout search of `parallelism: auto` and plan all ask it
// through resolve.Layout.BlockSplitProblem, which applies it only to the
// checkpoint's own weights and takes expertSplit from
// resolve.Layout.ExpertSplit (TP × DP without expert parallelism — vLLM
// flattens TP across DP for MoE layers — and 1 with it: each rank holds
// whole experts).
//
// vLLM checks it when it creates the weights
// (vllm/model_executor/layers/quantization/fp8.py at commit 0071b24b,
// Fp8LinearMethod.create_weights and Fp8MoEMethod.create_weights; later
// releases move the linear check into fp8_utils.validate_fp8_block_shape
// with the same messages; issue #17569: Qwen3-235B-A22B-FP8 at TP 8, issue
// #12256: DeepSeek-V3 at TP 32):
//
//   - a row-parallel layer's input shard K/tp must divide by block_k
//     ("Weight input_size_per_partition = … is not divisible by weight
//     quantization block_k"): the attention output projection, the dense
//     MLP's and the shared experts' down projection;
//   - a column-parallel layer's output shard N/tp by block_n ("Weight
//     output_partition_size = … block_n"): MLA's q_b_proj and kv_b_proj;
//   - a routed expert's intermediate shard by block_n ("The output_size of
//     gate's and up's weight = …") and, with tp > 1, by block_k ("The
//     input_size of down's weight = …").
//
// The merged column layers (q/k/v, gate/up) are not checked apart: their
// query and gate/up shards are as wide as the row-parallel input shards
// checked above, and since PR #30836 (MiMo-V2-Flash, December 2025) vLLM
// lets a merged layer's partitions miss the block (the KV heads' share).
func (m *Model) BlockSplitProblem(tp, expertSplit int) string {
	if m == nil || len(m.Quant.WeightBlockSize) != 2 {
		return ""
	}
	bn, bk := m.Quant.WeightBlockSize[0], m.Quant.WeightBlockSize[1]
	if bn < 1 || bk < 1 {
		return ""
	}
	tp, expertSplit = max(tp, 1), max(expertSplit, 1)
	if tp > 1 {
		for _, s := range m.tpSplits() {
			if p := s.problem(tp, bn, bk); p != "" {
				return p
			}
		}
	}
	if !m.IsMoE() || m.MoEIntermediateSize < 1 {
		return ""
	}
	full := m.MoEIntermediateSize
	if full%expertSplit != 0 {
		return fmt.Sprintf("the routed experts' intermediate size %d is not divisible by the %d ranks they are split over", full, expertSplit)
	}
	per := full / expertSplit
	if per%bn != 0 {
		return fmt.Sprintf("The output_size of gate's and up's weight = %d is not divisible by weight quantization block_n = %d (moe_intermediate_size %d over %d ranks)", per, bn, full, expertSplit)
	}
	if tp > 1 && per%bk != 0 {
		return fmt.Sprintf("The input_size of down's weight = %d is not divisible by weight quantization block_k = %d (moe_intermediate_size %d over %d ranks)", per, bk, full, expertSplit)
	}
	return ""
}

// blockSplit is one tensor-parallel weight dimension vLLM checks against
// the quantization block.
type blockSplit struct {
	layer string
	full  int
	row   bool // the split dimension is the input (K): checked against block_k
}

// problem says what vLLM refuses when the dimension is split over tp ranks.
func (s blockSplit) problem(tp, bn, bk int) string {
	if s.full < 1 {
		return ""
	}
	if s.full%tp != 0 {
		return fmt.Sprintf("%s: %d is not divisible by %d", s.layer, s.full, tp)
	}
	per := s.full / tp
	if s.row && per%bk != 0 {
		return fmt.Sprintf("Weight input_size_per_partition = %d is not divisible by weight quantization block_k = %d (%s: %d over %d ranks)", per, bk, s.layer, s.full, tp)
	}
	if !s.row && per%bn != 0 {
		return fmt.Sprintf("Weight output_partition_size = %d is not divisible by weight quantization block_n = %d (%s: %d over %d ranks)", per, bn, s.layer, s.full, tp)
	}
	return ""
}

// tpSplits are the weight dimensions split over the attention's TP ranks:
// attention, the dense MLP of layers without routed experts, and the
// shared experts (vLLM keeps them TP-split beside the routed ones).
func (m *Model) tpSplits() []blockSplit {
	var out []blockSplit
	if m.IsMLA() {
		q := "q_proj"
		if m.QLoraRank > 0 {
			q = "q_b_proj"
		}
		out = append(out,
			blockSplit{"self_attn." + q, m.NumHeads * m.QKHeadDim(), false},
			blockSplit{"self_attn.kv_b_proj", m.NumHeads * (m.QKNopeHeadDim + m.VHeadDim), false},
			blockSplit{"self_attn.o_proj", m.NumHeads * m.VHeadDim, true})
	} else {
		out = append(out, blockSplit{"self_attn.o_proj", m.NumHeads * m.HeadDim, true})
	}
	if m.MoELayerCount() < m.NumLayers {
		out = append(out, blockSplit{"mlp.down_proj (intermediate_size)", m.IntermediateSize, true})
	}
	if w := m.sharedExpertWidth(); w > 0 {
		out = append(out, blockSplit{"shared_experts.down_proj", w, true})
	}
	return out
}

// sharedExpertWidth is the intermediate width of a layer's shared experts
// (0 without them): Qwen2-MoE's one wide shared expert, or DeepSeek's
// n_shared_experts fused into one MLP.
func (m *Model) sharedExpertWidth() int {
	if !m.IsMoE() {
		return 0
	}
	if m.SharedExpertIntermediateSize > 0 {
		return m.SharedExpertIntermediateSize
	}
	return m.NumSharedExperts * m.MoEIntermediateSize
}
