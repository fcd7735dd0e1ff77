package catalog

import "slices"

// MTPLayersModel is n of the model's multi-token-prediction layers as a
// model of n decoder layers, the proposer of speculative method mtp: no
// vocabulary (the proposer's eh_proj, embedding and LM heads are counted
// by its caller) and no vision tower — vLLM's MTP proposers
// (deepseek_mtp.py, step3p5_mtp.py, qwen3_next_mtp.py …) build decoder
// layers, an eh_proj and a head, never a wrapper's encoder, whose copy
// would count the tower twice. Layer j is the target's decoder layer at
// index num_hidden_layers + j:
//
//   - Step-3.x: its layer_types entry and moe_layers_enum's membership,
//     as step3p5_mtp.py builds it (the published enum lists main-model
//     layers only, so the MTP layers are dense MLPs of intermediate_size
//     and take layer_types' sliding attention: catalog/step3p5.go).
//   - MiMo-V2-Flash: a sliding-window layer (the SWA heads and window)
//     with a dense MLP, as vLLM's and SGLang's MiMoV2MTPLayer build it
//     (MiMoV2Attention with the swa_* shapes; MiMoV2MLP), and as the public
//     ports read from the checkpoint (search ids 1075354041, 56686071590).
//   - Qwen3-Next / Qwen3.5: a full-attention layer (qwen3_next_mtp.py builds
//     Qwen3NextDecoderLayer(layer_type="full_attention"): a public port's
//     reading, search id 67264854873) with the target's experts — never
//     the target's first layer type, a Gated DeltaNet layer, whose state
//     the proposer does not keep.
//   - Every other model: a MoE layer of the target's shape (DeepSeek-style
//     MTP layers sit past first_k_dense_replace and route through experts),
//     full attention where the target lists layer types.
func (m *Model) MTPLayersModel(n int) *Model {
	l := *m
	l.NumLayers, l.VocabSize, l.NumNextNPredictLayers, l.Unmodelled, l.LayerTypes, l.Encoder = n, 0, 0, nil, nil, nil
	if s := m.Step3p5; s != nil {
		l.FirstKDenseReplace, l.MoELayerFreq = 0, 1
		l.MoELayers = make([]bool, n)
		for j := range l.MoELayers {
			for _, i := range s.MTPMoELayers {
				l.MoELayers[j] = l.MoELayers[j] || i == m.NumLayers+j
			}
		}
		if len(s.MTPLayerTypes) >= n {
			l.LayerTypes = append([]string(nil), s.MTPLayerTypes[:n]...)
			return &l
		}
	} else {
		l.FirstKDenseReplace, l.MoELayerFreq, l.MoELayers = 0, 1, nil
	}
	if len(m.LayerTypes) == 0 {
		return &l
	}
	kind := "full_attention"
	if m.MiMo != nil {
		kind = "sliding_attention"
		l.MoELayers = make([]bool, n) // dense MLPs
	}
	l.LayerTypes = slices.Repeat([]string{kind}, n)
	return &l
}
