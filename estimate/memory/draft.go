package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// draftPrefix marks the proposer's components in the weights list; they
// are not the target model's parameters (ParamsPerGPU leaves them out).
const draftPrefix = "draft_"

// Components of the proposer besides its decoder layers.
const (
	CompDraftFuse      = draftPrefix + "fuse"
	CompDraftHead      = draftPrefix + "lm_head"
	CompDraftEmbedding = draftPrefix + "embedding"
)

// isDraft reports a proposer component.
func isDraft(component string) bool { return strings.HasPrefix(component, draftPrefix) }

// draftInput is in with the proposer's layers as the model
// (input.DraftInput), on one pipeline stage holding all its layers.
func draftInput(in *input.Input) (*input.Input, Stage, bool) {
	d, ok := input.DraftInput(in)
	if !ok {
		return nil, Stage{}, false
	}
	return d, Stage{First: 0, End: d.Model.NumLayers}, true
}

// draftTerms are the proposer's weights on a GPU of the last stage: its
// decoder layers placed and stored by the target's rules (heads over TP,
// experts over EP), the fuse projections (replicated, 16-bit), its own LM
// head(s) and embedding where vLLM does not share the target's.
func draftTerms(in *input.Input) []WeightTerm {
	din, st, ok := draftInput(in)
	if !ok {
		return nil
	}
	dr := in.Speculative.Draft
	var out []WeightTerm
	for _, sh := range Placement(din, st) {
		if sh.ParamsPerGPU <= 0 {
			continue
		}
		rule := StorageRule(din, sh.Component)
		sh.Component = draftPrefix + sh.Component
		sh.ParamsTotal, sh.Placement = 0, "proposer: "+sh.Placement
		out = append(out, WeightTerm{Share: sh, DTypeRule: rule, GiB: sh.Stored() * rule.BytesPerParam / GiB})
	}
	bf := DTypeRule{DType: in.ActDType(), BytesPerParam: bytesBF16, Why: "16-bit"}
	add := func(comp string, params float64, placement string) {
		if params > 0 {
			out = append(out, WeightTerm{Share: share(comp, 0, params, placement), DTypeRule: bf, GiB: params * bytesBF16 / GiB})
		}
	}
	h := float64(dr.Layers.HiddenSize)
	add(CompDraftFuse, dr.FuseParams, "fuse projections (MTP eh_proj and norms, EAGLE fc): plain linear layers, replicated on every GPU")
	add(CompDraftHead, float64(dr.HeadCopies)*vocabPerRank(dr.HeadVocab, in.Layout.TP)*h,
		fmt.Sprintf("%d LM head(s) of vocabulary %d the proposer loads itself, split over TP=%d", dr.HeadCopies, dr.HeadVocab, in.Layout.TP))
	if !dr.SharesEmbedding || in.Layout.PP > 1 {
		add(CompDraftEmbedding, vocabPerRank(dr.EmbedVocab, in.Layout.TP)*h,
			fmt.Sprintf("token embedding of vocabulary %d: vLLM shares the target's only with PP = 1 and the same shape", dr.EmbedVocab))
	}
	return out
}

// draftKV is the proposer's KV layout on a GPU of the last stage (and a
// formula for it): its attention layers share the target's block pool.
func draftKV(in *input.Input) (KVLayout, string) {
	din, st, ok := draftInput(in)
	if !ok {
		return KVLayout{}, ""
	}
	kv := KVBytes(din, st)
	return kv, fmt.Sprintf("%d proposer layer(s): %s", st.Layers(), kv.Formula)
}

// draftNote says what speculative decoding adds to a GPU's memory.
func draftNote(in *input.Input, m *Report) (Note, bool) {
	s := in.Speculative
	if s == nil {
		return Note{}, false
	}
	if s.Draft == nil {
		return Note{"Speculative decoding", fmt.Sprintf("%s proposes %d token(s) per step on the CPU (prompt lookup): no weights or KV cache on the GPUs; "+
			"each decoding sequence takes %d positions of the step's token budget and KV slots.", s.Method, s.NumTokens, s.NumTokens+1)}, true
	}
	var gib float64
	for _, w := range m.Weights {
		if isDraft(w.Component) {
			gib += w.GiB
		}
	}
	return Note{"Speculative decoding", fmt.Sprintf("%s drafts %d token(s) per step with %s: %.2f GiB of weights on a GPU of the last pipeline stage "+
		"(its layers placed like the target's, the fuse projections replicated, LM head and embedding where vLLM does not share the target's), "+
		"and its attention layers add %d B per token to the KV cache (%d B in all). Each decoding sequence takes %d positions of the step's token budget and KV slots.",
		s.Method, s.NumTokens, s.Draft.Why, gib, m.KV.DraftBytesPerToken+m.KV.JoinedDraftBytesPerToken, m.KVBytesPerToken, s.NumTokens+1)}, true
}
