package catalog

import "fmt"

// Llama 4 (llama4_text, inside the llama4 multimodal wrapper) as vLLM's
// vllm/model_executor/models/llama4.py builds it: GQA attention without
// biases whose optional QK norm is an L2 norm without weights; MoE layers
// where (layer + 1) % interleave_moe_layer_step == 0 (every layer for
// Scout, every other for Maverick) with num_local_experts experts of
// intermediate_size, top-k routing, one shared expert of the same width and
// a router without bias; the other layers a dense MLP of
// intermediate_size_mlp. Three of four layers use chunked local attention
// (attention_chunk_size); see llama4ChunkNote for how their KV is sized.

// llama4ChunkNote says why chunked local attention is sized as full
// attention.
const llama4ChunkNote = "chunked local attention layers (attention_chunk_size %d) are sized as full attention: vLLM disables its hybrid KV-cache manager for chunked local attention unless VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 (the default was False in the vllm/envs.py read; a later copy has True, release not established), and without it every layer holds KV for the whole sequence"

// fillLlama4 applies Llama 4's layer rules to m.
func (c *hfConfig) fillLlama4(m *Model) {
	if c.ModelType != "llama4_text" {
		return
	}
	// The QK norm is weightless (L2Norm), so it adds no parameters.
	m.QKNorm = false
	if c.IntermediateSizeMLP > 0 {
		m.IntermediateSize = c.IntermediateSizeMLP
	}
	if m.IsMoE() {
		m.NumSharedExperts = 1
		step := c.InterleaveMoELayerStep
		m.MoELayers = make([]bool, m.NumLayers)
		for i := range m.MoELayers {
			m.MoELayers[i] = step > 0 && (i+1)%step == 0
		}
		m.FirstKDenseReplace, m.MoELayerFreq = 0, 1
	}
	if c.AttentionChunkSize > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf(llama4ChunkNote, c.AttentionChunkSize))
	}
}

// llama4Keys are the unmodelledKeys a Llama 4 config carries and vlaunch
// models for it (chunked layers as full attention, NoPE layers have no
// weights).
var llama4Keys = map[string]bool{"attention_chunk_size": true, "no_rope_layers": true}
