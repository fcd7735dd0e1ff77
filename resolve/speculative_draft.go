package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// drafter describes the proposer of method s.Method: the target's MTP
// layers, an EAGLE head (from its config, or assumed one target-shaped
// layer), a draft model (from its config), or none (ngram).
//
// Sharing follows vLLM's EagleProposer.load_model (the proposer of EAGLE,
// EAGLE-3 and MTP in V1): the token embedding is the target's when PP = 1
// and the shapes match; the LM head is the target's except for EAGLE-3,
// which brings its own; DeepSeek's MTP layer keeps the shared_head.head its
// checkpoint ships (the proposer only re-points its top-level lm_head).
func (d *Deployment) drafter(s *spec.Speculative, draft *catalog.Model) (*Drafter, error) {
	t := d.Model
	switch s.Method {
	case SpecNgram:
		return nil, nil
	case SpecMTP:
		if t.NumNextNPredictLayers < 1 {
			return nil, fmt.Errorf("mtp needs a model with multi-token-prediction layers (num_nextn_predict_layers); %s has none", t.ID)
		}
		return mtpDrafter(t, d.Engine.WeightsDType.Value), nil
	case SpecEagle, SpecEagle3:
		return eagleDrafter(t, draft, s.Method == SpecEagle3), nil
	case SpecDraftModel:
		if draft == nil {
			return nil, fmt.Errorf("draft_model needs the draft's architecture: draft_model.name (a catalog id) or draft_model.config")
		}
		return modelDrafter(draft), nil
	}
	return nil, fmt.Errorf("unknown speculative method %q", s.Method)
}

// layersOnly copies m without its vocabulary (no embedding, no LM head) and
// with n decoder layers.
func layersOnly(m *catalog.Model, n int) *catalog.Model {
	c := *m
	c.NumLayers, c.VocabSize, c.NumNextNPredictLayers, c.Unmodelled, c.LayerTypes = n, 0, 0, nil, nil
	if len(m.LayerTypes) >= n {
		c.LayerTypes = m.LayerTypes[:n]
	}
	return &c
}

// mtpDrafter: DeepSeek's MTP module per layer is one decoder layer of
// the target's shape (catalog.Model.MTPLayersModel: MoE for DeepSeek,
// dense for Step-3.x), enorm and hnorm (2 × hidden), eh_proj (2·hidden →
// hidden, a plain nn.Linear in vLLM's deepseek_mtp.py, so 16-bit and
// replicated) and shared_head (a norm and an LM head).
func mtpDrafter(t *catalog.Model, weights string) *Drafter {
	n := t.NumNextNPredictLayers
	l := t.MTPLayersModel(n)
	h := float64(t.HiddenSize)
	return &Drafter{Layers: l, FuseParams: float64(n) * (2*h*h + 3*h), HeadVocab: t.VocabSize, HeadCopies: n, EmbedVocab: t.VocabSize,
		SharesEmbedding: true, WeightsDType: weights,
		Why: fmt.Sprintf("%d MTP layer(s) of the target (num_nextn_predict_layers), each reused for every draft", n)}
}

// eagleDrafter: an EAGLE head's layers from its config.json, or — without
// one — one decoder layer shaped like the target's (hidden size, heads, KV
// heads, dense intermediate), as EAGLE heads are built. EAGLE's fc maps
// [embedding; hidden] (2·hidden) to hidden; EAGLE-3's maps three of the
// target's hidden states (3·hidden) and its first layer's q/k/v read
// [embedding; hidden] (2·hidden), so they carry hidden × q/k/v widths more.
func eagleDrafter(t, draft *catalog.Model, three bool) *Drafter {
	why := "EAGLE head from its config"
	if draft == nil {
		draft = assumedEagleLayer(t)
		why = "assumed: one decoder layer shaped like the target's (no draft_model.config given)"
	}
	h := float64(draft.HiddenSize)
	fuse := 2 * h * h
	vocab, copies := t.VocabSize, 0
	if three {
		hd := float64(draft.HeadDim)
		fuse = 3*h*h + h*(float64(draft.NumHeads)+2*float64(draft.NumKVHeads))*hd
		vocab, copies = draft.VocabSize, 1
		if draft.DraftVocabSize > 0 {
			vocab = draft.DraftVocabSize
		}
	}
	return &Drafter{Layers: layersOnly(draft, draft.NumLayers), FuseParams: fuse, HeadVocab: vocab, HeadCopies: copies, EmbedVocab: draft.VocabSize,
		SharesEmbedding: draft.VocabSize == t.VocabSize && draft.HiddenSize == t.HiddenSize,
		WeightsDType:    draft.CheckpointDType(), Why: why}
}

// assumedEagleLayer is one dense GQA decoder layer of the target's width.
func assumedEagleLayer(t *catalog.Model) *catalog.Model {
	kv, hd := t.NumKVHeads, t.HeadDim
	if t.IsMLA() { // EAGLE heads of MLA models are plain attention layers
		kv, hd = t.NumHeads, t.QKNopeHeadDim+t.QKRopeHeadDim
	}
	inter := t.IntermediateSize
	if inter <= 0 {
		inter = 4 * t.HiddenSize
	}
	return &catalog.Model{ID: "assumed EAGLE layer", ModelType: "llama", HiddenSize: t.HiddenSize, NumLayers: 1,
		NumHeads: t.NumHeads, NumKVHeads: kv, HeadDim: hd, IntermediateSize: inter, VocabSize: t.VocabSize,
		MaxPositionEmbeddings: t.MaxPositionEmbeddings, TorchDType: t.TorchDType}
}

// modelDrafter: a whole smaller model with its own embedding and LM head
// (one matrix when its embeddings are tied).
func modelDrafter(m *catalog.Model) *Drafter {
	copies := 1
	if m.TieWordEmbeddings {
		copies = 0 // the LM head is the embedding the drafter already holds
	}
	return &Drafter{Layers: layersOnly(m, m.NumLayers), HeadVocab: m.VocabSize, HeadCopies: copies, EmbedVocab: m.VocabSize,
		WeightsDType: m.CheckpointDType(), Why: "draft model " + m.ID}
}
