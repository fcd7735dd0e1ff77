package catalog

// LoRASlotSource cites what vLLM pre-allocates for one LoRA adapter slot.
const LoRASlotSource = "vLLM v0.20.0 vllm/lora/model_manager.py (_create_lora_modules: from_layer(module, self.lora_slots, …) for every " +
	"module utils.get_supported_lora_modules names: every LinearBase and FusedMoE, and the model class's embedding_modules) and " +
	"vllm/lora/layers/base_linear.py (create_lora_weights: lora_a_stacked (max_loras, 1, rank, input_size) and lora_b_stacked " +
	"(max_loras, 1, output_size, rank) per slice, rank/tp for column-parallel A and output/tp for row-parallel B with " +
	"fully_sharded_loras), vocal_parallel_embedding.py (lora_a (max_loras, org_vocab_size, rank), lora_b (max_loras, 1, " +
	"embedding_dim, rank)), logits_processor.py (lora_a (max_loras, 1, rank, hidden), lora_b (max_loras, 1, vocab_size, rank)); " +
	"MoE: the router (ReplicatedLinear, replicated_linear.py: A (rank, hidden), B (experts, rank)) and, from v0.11.1, the routed " +
	"experts (vllm/lora/layers/fused_moe.py FusedMoEWithLoRA at v0.11.1, v0.12.0, v0.14.0, v0.18.0, v0.20.0, v0.22.0, v0.24.0: w1/w3 " +
	"A (local_experts, rank, hidden) and B (local_experts, intermediate/moe_tp, rank), w2 A (local_experts, rank, intermediate/moe_tp) " +
	"and B (local_experts, hidden, rank); from v0.12.0 fully_sharded_loras divides w1/w3 A's rank and w2 B's hidden by moe_tp)"

// LoRA experts rules: what a release's LoRA manager allocates for a MoE
// layer's routed experts (LoRASlot.Experts).
const (
	// LoRAExpertsNone: no FusedMoE LoRA layer (before v0.11.1: vllm/lora/
	// layers/fused_moe.py is absent at v0.11.0); the experts take no slots.
	LoRAExpertsNone = iota
	// LoRAExpertsWhole: v0.11.1's FusedMoEWithLoRA, whose w1/w3 A keep the
	// whole rank and w2 B the whole hidden size with fully_sharded_loras.
	LoRAExpertsWhole
	// LoRAExpertsSharded: v0.12.0 on (read to v0.24.0), fully_sharded_loras
	// dividing w1/w3 A's rank and w2 B's hidden size over the MoE TP size.
	LoRAExpertsSharded
)

// loraEmbeddingSince are the dense standard-attention classes whose vLLM
// model class declares embedding_modules (embed_tokens, lm_head), so that
// their embedding and LM head take LoRA slots too, with the first release
// whose class was read declaring them: llama.py (MistralForCausalLM
// subclasses LlamaForCausalLM), granite.py, nemotron.py and solar.py at
// v0.9.0, v0.11.0, v0.20.0 and v0.24.0; qwen3.py from v0.16.0 (absent at
// every release tag v0.11.0 … v0.15.1, present v0.16.0 … v0.24.0). qwen2.py
// declares none at those releases; other classes' were not read: their
// slots are counted without the two (an undercount for those that do).
// MoE classes (read at v0.9.0, v0.10.0, v0.11.0, v0.11.1, v0.12.0, v0.14.0,
// v0.15.1, v0.16.0, v0.20.0 and v0.24.0): mixtral.py declares them at every
// one, qwen3_moe.py from v0.16.0.
var loraEmbeddingSince = map[string]string{
	"LlamaForCausalLM": "0.9.0", "MistralForCausalLM": "0.9.0", "GraniteForCausalLM": "0.9.0",
	"NemotronForCausalLM": "0.9.0", "SolarForCausalLM": "0.9.0", "Qwen3ForCausalLM": "0.16.0",
	"MixtralForCausalLM": "0.9.0", "Qwen3MoeForCausalLM": "0.16.0",
}

// loraMoEClasses are the MoE classes whose LoRA slots are derived: every
// decoder layer a MoE layer of gated experts (FusedMoEWithLoRA, two w13
// slices: not vLLM's 3D-packed models, gpt_oss.py, qwen3_5.py,
// qwen3_vl_moe.py at v0.24.0), a ReplicatedLinear router named gate
// (mixtral.py, qwen3_moe.py at v0.11.1 and v0.24.0), no shared experts,
// standard attention.
var loraMoEClasses = map[string]bool{"MixtralForCausalLM": true, "Qwen3MoeForCausalLM": true}

// LoRAEmbeddingSince is the first release read whose model class for m
// makes the embedding and LM head LoRA-capable ("" when none read does);
// resolve compares it with the deployment's release (resolve.LoRA.Embeddings).
func (m *Model) LoRAEmbeddingSince() string {
	if m == nil {
		return ""
	}
	return loraEmbeddingSince[m.Architecture]
}

// LoRASlot is what one GPU's LoRA slot depends on besides the model: the
// tensor-parallel size, the decoder layers on the GPU's pipeline stage,
// whether the stage holds the embedding (first) and the LM head (last),
// whether the release's model class makes those two LoRA-capable
// (Embeddings: LoRAEmbeddingSince), the largest adapter rank
// (--max-lora-rank) and --fully-sharded-loras.
type LoRASlot struct {
	TP, Layers   int
	First, Last  bool
	Embeddings   bool
	Rank         int
	FullySharded bool
	// ExtraVocab is lora_extra_vocab_size (256 by default up to v0.11.2,
	// removed at v0.12.0: 0), with Embeddings only.
	ExtraVocab int
	// Experts is the release's rule for routed experts (LoRAExpertsNone,
	// LoRAExpertsWhole, LoRAExpertsSharded).
	Experts int
	// MoERanks is the ranks a MoE layer spans (TP × DP, vLLM's
	// FusedMoEParallelConfig) and EP whether they split the experts
	// (each holds MoERanks-th of them, whole) rather than each expert's
	// intermediate dimension (every rank holds every expert, 1/MoERanks
	// wide). 0 reads as TP.
	MoERanks int
	EP       bool
	// MLA says the release's DeepSeek MLA and MoE modules were read for
	// their LoRA classes (v0.20.0 to v0.24.0, later releases taken as
	// v0.24.0: resolve.LoRA.MLA); false leaves MLA models not derived.
	MLA bool
}

// loraVocabPadding is lora_vocab_padding_size on CUDA up to v0.11.2 (vLLM
// v0.11.0 vllm/platforms/interface.py get_lora_vocab_padding_size: 256),
// the multiple the LM head's B was padded to alongside the extra vocab.
const loraVocabPadding = 256

// LoRASlotParams is the number of LoRA slot elements one GPU holds per
// adapter slot (vLLM allocates max_loras of them at load, in lora_dtype),
// and false when the model is not of the shape derived here. The shape is
// a dense model with standard attention, per decoder layer (LoRASlotSource):
//
//	column-parallel qkv (3 slices) and gate_up (2 slices): A rank × hidden
//	  each (rank/tp fully sharded), B q/tp + 2·kv/tp (at least one KV head
//	  per rank: vLLM replicates KV heads when tp > kv heads) and 2·inter/tp
//	  outputs × rank;
//	row-parallel o and down: A rank × their input shard (q/tp, inter/tp),
//	  B hidden (hidden/tp fully sharded) × rank;
//
// plus, with s.Embeddings (LoRAEmbeddingSince), the embedding on
// the first stage (A vocab × rank, B hidden × rank, whole on every rank)
// and the LM head on the last (A rank × hidden, B vocab × rank). A MoE
// model of loraMoEClasses takes, in place of the dense MLP, its router
// (replicated: A rank × hidden, B experts × rank) and, with s.Experts, its
// routed experts (loraExpertParams). Other MoE shapes (shared experts,
// dense layers, latent or non-gated experts, 3D-packed experts), MLA and
// linear-attention layers are not derived: false. Up to v0.11.2 (s.ExtraVocab > 0)
// the embedding's A also had extra-vocab rows and the LM head's B was
// padded to 256 rows, and each held an embeddings_tensors of extra × hidden
// per slot (vLLM v0.11.0 vllm/lora/layers/vocal_parallel_embedding.py and
// logits_processor.py create_lora_weights; gone at v0.12.0).
func (m *Model) LoRASlotParams(s LoRASlot) (float64, bool) {
	if m == nil || m.HiddenSize <= 0 || m.NumHeads <= 0 || s.Rank <= 0 {
		return 0, false
	}
	if m.LinearLayerCount() > 0 || m.Mamba != nil || m.HasLayerAttention() {
		return 0, false // per-layer shapes differ from the uniform one derived here
	}
	attn, ok := m.loraAttention(s)
	if !ok {
		return 0, false
	}
	dense, moe := 0.0, 0.0
	denseLayers, moeLayers := max(s.Layers, 0), 0
	switch {
	case m.NumExperts == 0:
		if m.IntermediateSize <= 0 {
			return 0, false
		}
		dense = m.loraMLP(s, m.IntermediateSize)
	case m.loraMoEDerived():
		denseLayers, moeLayers = 0, max(s.Layers, 0)
		moe = m.loraMoE(s)
	case m.loraDeepseekMoEDerived(s):
		// first_k_dense_replace dense layers open the model, so they are
		// on the first pipeline stage (vLLM's stages are contiguous).
		if s.First {
			denseLayers = min(m.FirstKDenseReplace, max(s.Layers, 0))
		} else {
			denseLayers = 0
		}
		moeLayers = max(s.Layers, 0) - denseLayers
		dense = m.loraMLP(s, m.IntermediateSize)
		moe = m.loraMoE(s)
		if m.NumSharedExperts > 0 {
			moe += m.loraMLP(s, m.MoEIntermediateSize*m.NumSharedExperts)
		}
	default:
		return 0, false
	}
	out := attn*float64(max(s.Layers, 0)) + dense*float64(denseLayers) + moe*float64(moeLayers)
	h, r := float64(m.HiddenSize), float64(s.Rank)
	if s.Embeddings && m.VocabSize > 0 {
		v, e := float64(m.VocabSize), float64(max(s.ExtraVocab, 0))
		head := v
		if s.ExtraVocab > 0 {
			head = float64((m.VocabSize + loraVocabPadding - 1) / loraVocabPadding * loraVocabPadding)
		}
		if s.First {
			out += (v+e)*r + h*r + e*h
		}
		if s.Last {
			out += r*h + head*r + e*h
		}
	}
	return out, true
}

// loraShard is a column-parallel layer's A rank and a row-parallel layer's
// B output at TP tp: whole, or over TP with fully_sharded_loras.
func loraShard(s LoRASlot, r, h float64) (aRank, bOut float64) {
	if s.FullySharded {
		tp := float64(max(s.TP, 1))
		return r / tp, h / tp
	}
	return r, h
}

// loraAttention is one decoder layer's attention slot elements on one GPU:
// standard attention (qkv column-parallel in 3 slices, o row-parallel), or
// DeepSeek MLA (loraMLA); false for other attention.
func (m *Model) loraAttention(s LoRASlot) (float64, bool) {
	if m.IsMLA() {
		return m.loraMLA(s)
	}
	tp := float64(max(s.TP, 1))
	hd := m.HeadDim
	if hd <= 0 {
		hd = m.HiddenSize / m.NumHeads
	}
	h, r := float64(m.HiddenSize), float64(s.Rank)
	q := float64(m.NumHeads*hd) / tp
	kv := float64(max(1, m.NumKVHeads/max(s.TP, 1)) * hd)
	aRank, bOut := loraShard(s, r, h)
	return 3*aRank*h + r*(q+2*kv) + r*q + bOut*r, true
}

// loraMLP is one gated MLP's slot elements on one GPU (gate_up column-
// parallel in 2 slices, down row-parallel) at width inter split over TP.
func (m *Model) loraMLP(s LoRASlot, inter int) float64 {
	tp := float64(max(s.TP, 1))
	h, r := float64(m.HiddenSize), float64(s.Rank)
	in := float64(inter) / tp
	aRank, bOut := loraShard(s, r, h)
	return 2*aRank*h + r*2*in + r*in + bOut*r
}

// loraMoE is one MoE layer's router (ReplicatedLinearWithLoRA, whole on
// every GPU, no sharded variant: A rank × hidden, B experts × rank) and
// routed experts (loraExpertParams).
func (m *Model) loraMoE(s LoRASlot) float64 {
	h, r := float64(m.HiddenSize), float64(s.Rank)
	return r*h + float64(m.NumExperts)*r + m.loraExpertParams(s)
}

// loraMoEDerived: m is a MoE model whose LoRA slots LoRASlotParams derives
// (loraMoEClasses: every layer MoE, gated experts, no shared or latent
// experts).
func (m *Model) loraMoEDerived() bool {
	return loraMoEClasses[m.Architecture] && m.MoEIntermediateSize > 0 && m.MoELayerCount() == m.NumLayers &&
		m.NumSharedExperts == 0 && m.SharedExpertIntermediateSize == 0 && m.MoELatentSize == 0 && !m.NonGatedFFN
}

// loraMLAClasses are the MLA classes whose LoRA slots are derived:
// deepseek_v2.py's DeepseekV2ForCausalLM and its DeepseekV3ForCausalLM
// subclass (Kimi-K2's architecture too), read at v0.20.0, v0.22.0 and
// v0.24.0; neither declares embedding_modules.
var loraMLAClasses = map[string]bool{"DeepseekV2ForCausalLM": true, "DeepseekV3ForCausalLM": true}

// loraMLA is one DeepSeek MLA layer's slot elements on one GPU, module by
// module as vLLM v0.20.0-v0.24.0's deepseek_v2.py builds them and the LoRA
// manager wraps them (every LinearBase; the first class whose
// can_replace_layer accepts it): with q_lora_rank, fused_qkv_a_proj (a
// DeepSeekV2FusedQkvAProjLinear, MergedColumnParallelLinear built with
// disable_tp, so MergedColumnParallelLinearWithLoRA at TP size 1: two A of
// rank × hidden, B q_lora_rank + kv_lora_rank + rope × rank) and q_b_proj
// (ColumnParallelLinear: A rank × q_lora_rank, B heads/TP × qk_head_dim ×
// rank); without, q_proj (column: A rank × hidden, B heads/TP × qk_head_dim
// × rank) and kv_a_proj_with_mqa (ReplicatedLinear: A rank × hidden, B
// kv_lora_rank + rope × rank); then kv_b_proj (column: A rank ×
// kv_lora_rank, B heads/TP × (nope + v) × rank) and o_proj (row: A rank ×
// heads/TP × v, B hidden × rank). A module the MLA attention also holds
// (kv_b_proj, fused_qkv_a_proj) is wrapped once (model_manager.py's
// wrapped_by_id). Sparse MLA (an indexer) and gated MLA output are not
// derived.
func (m *Model) loraMLA(s LoRASlot) (float64, bool) {
	if !s.MLA || !loraMLAClasses[m.Architecture] || m.IsSparseAttention() || m.mlaOutputGate(1) != 0 {
		return 0, false
	}
	tp := float64(max(s.TP, 1))
	h, r := float64(m.HiddenSize), float64(s.Rank)
	nh := float64(m.NumHeads) / tp
	qk := float64(m.QKNopeHeadDim + m.QKRopeHeadDim)
	kvl, rope := float64(m.KVLoraRank), float64(m.QKRopeHeadDim)
	aRank, bOut := loraShard(s, r, h)
	var q float64
	if ql := float64(m.QLoraRank); ql > 0 {
		q = 2*r*h + (ql+kvl+rope)*r + aRank*ql + r*nh*qk
	} else {
		q = aRank*h + r*nh*qk + r*h + (kvl+rope)*r
	}
	kvB := aRank*kvl + r*nh*float64(m.QKNopeHeadDim+m.VHeadDim)
	o := r*nh*float64(m.VHeadDim) + bOut*r
	return q + kvB + o, true
}

// loraDeepseekMoEDerived: m is a DeepSeek MoE (loraMLAClasses) whose slots
// LoRASlotParams derives: first_k_dense_replace dense layers and MoE layers
// after them (moe_layer_freq 1), gated experts (GateLinear router, a
// ReplicatedLinear; FusedMoEWithLoRA), shared experts as one DeepseekV2MLP
// of n_shared_experts × moe_intermediate_size, split over TP. With expert
// parallelism over DP ranks vLLM may run the MoE sequence-parallel
// (use_sequence_parallel_moe), its shared experts then replicated: not
// derived.
func (m *Model) loraDeepseekMoEDerived(s LoRASlot) bool {
	if !s.MLA || !loraMLAClasses[m.Architecture] || m.MoEIntermediateSize <= 0 || m.SharedExpertIntermediateSize > 0 ||
		m.MoELatentSize > 0 || m.NonGatedFFN || m.MoELayerFreq > 1 {
		return false
	}
	if m.FirstKDenseReplace > 0 && m.IntermediateSize <= 0 || m.MoELayerCount() != m.NumLayers-m.FirstKDenseReplace {
		return false
	}
	return !(s.EP && s.MoERanks > max(s.TP, 1))
}

// loraExpertParams is one MoE layer's routed-expert slot elements on one
// GPU (FusedMoEWithLoRA, LoRASlotSource): per local expert, w1 and w3 A
// (rank × hidden) and B (intermediate/moe_tp × rank), w2 A (rank ×
// intermediate/moe_tp) and B (hidden × rank). With EP a rank holds
// experts/MoERanks whole experts (moe_tp 1); without, every expert at
// 1/MoERanks of its width. fully_sharded_loras from v0.12.0 divides w1/w3
// A's rank and w2 B's hidden by moe_tp.
func (m *Model) loraExpertParams(s LoRASlot) float64 {
	if s.Experts == LoRAExpertsNone {
		return 0
	}
	ranks := s.MoERanks
	if ranks <= 0 {
		ranks = max(s.TP, 1)
	}
	experts, moeTP := float64(m.NumExperts), float64(ranks)
	if s.EP {
		experts, moeTP = float64(m.NumExperts)/float64(ranks), 1
	}
	h, r := float64(m.HiddenSize), float64(s.Rank)
	inter := float64(m.MoEIntermediateSize) / moeTP
	aRank, bOut := r, h
	if s.FullySharded && s.Experts == LoRAExpertsSharded {
		aRank, bOut = r/moeTP, h/moeTP
	}
	return experts * (2*aRank*h + 2*inter*r + r*inter + bOut*r)
}
