package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Speculative methods as a spec names them (vllm.speculative.method).
const (
	SpecMTP        = "mtp"
	SpecEagle      = "eagle"
	SpecEagle3     = "eagle3"
	SpecNgram      = "ngram"
	SpecDraftModel = "draft_model"
)

// SpecMethods are the methods a spec may name, in the schema's order
// (schemas tests hold the schema's enum equal to it).
var SpecMethods = []string{SpecMTP, SpecEagle, SpecEagle3, SpecNgram, SpecDraftModel}

// Speculative is speculative decoding as the deployment runs it.
type Speculative struct {
	// Method is vllm.speculative.method as written.
	Method string
	// VLLMMethod is the "method" the release's --speculative-config takes
	// (deepseek_mtp before 0.11.0 for mtp).
	VLLMMethod string
	// NumTokens is num_speculative_tokens: drafts per sequence per step;
	// the target verifies NumTokens + 1 positions.
	NumTokens int
	// Acceptance is the mean acceptance length: tokens a sequence emits per
	// verify step, the bonus token included.
	Acceptance Setting[float64]
	// PerPosition is the chance that a draft is accepted given the one
	// before it was: the chain model 1 + p + … + p^N = Acceptance.
	PerPosition float64
	// Draft is the proposer's architecture; nil for ngram (it proposes on
	// the CPU from the prompt).
	Draft *Drafter
	// DraftPath is what vLLM loads as the proposer ("" for mtp and ngram).
	DraftPath string
}

// Drafter is what the memory and step-time models need about a proposer.
type Drafter struct {
	// Layers holds the decoder layers one draft pass runs, without
	// embedding or LM head (VocabSize 0).
	Layers *catalog.Model
	// FuseParams are the weights that combine the target's hidden states
	// with the token embeddings (MTP's eh_proj and norms, EAGLE's fc):
	// plain 16-bit linear layers, replicated on every GPU.
	FuseParams float64
	// HeadVocab is the vocabulary of the LM head a draft pass samples from;
	// HeadCopies how many LM heads the proposer holds besides its embedding
	// (0: it samples with the target's, or with its own tied embedding).
	HeadVocab, HeadCopies int
	// EmbedVocab is the vocabulary of the proposer's token embedding.
	EmbedVocab int
	// SharesEmbedding: the proposer's token embedding has the target's
	// shape, so vLLM uses the target's when PP = 1 (with PP > 1, or when
	// the shapes differ, the proposer holds its own).
	SharesEmbedding bool
	// WeightsDType is how the proposer's linear layers are stored.
	WeightsDType string
	// Why says where the architecture comes from.
	Why string
}

// DraftModel resolves vllm.speculative.draft_model's architecture: the
// catalog entry it names or its config.json (relative to the spec file);
// nil when neither is given.
func DraftModel(d *spec.Deployment) (*catalog.Model, error) {
	s := d.VLLM.Speculative
	if s == nil || s.DraftModel == nil {
		return nil, nil
	}
	dm := s.DraftModel
	switch {
	case dm.Name != "":
		return catalog.LookupModel(dm.Name)
	case dm.Config == "":
		return nil, nil
	}
	path := configPathFor(d, dm.Config)
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	m, err := catalog.ParseHFConfig(data)
	if err == nil {
		err = m.Modelled()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.ID = dm.Config
	return m, nil
}

// resolveSpeculative sets Engine.Speculative from vllm.speculative (nil:
// off): the release's method name, the acceptance (the spec's, else the
// method's published figure) and the proposer. validate reports every
// problem with its position first; the errors here serve callers that
// build deployments without validate.
func (d *Deployment) resolveSpeculative(s *spec.Speculative, draft *catalog.Model) error {
	d.Engine.Speculative = nil
	if s == nil {
		return nil
	}
	if s.NumSpeculativeTokens < 1 {
		return fieldErr("vllm.speculative.num_speculative_tokens", "num_speculative_tokens must be at least 1", "")
	}
	acc, err := SpeculativeAcceptance(s.Method, s.NumSpeculativeTokens, s.MeanAcceptanceLength)
	if err != nil {
		return fieldErr("vllm.speculative.mean_acceptance_length", err.Error(), "")
	}
	dr, err := d.drafter(s, draft)
	if err != nil {
		return fieldErr("vllm.speculative", err.Error(), "")
	}
	out := &Speculative{Method: s.Method, VLLMMethod: VLLMSpecMethod(d.Release, s.Method), NumTokens: s.NumSpeculativeTokens,
		Acceptance: acc, PerPosition: PerPositionAcceptance(acc.Value, s.NumSpeculativeTokens), Draft: dr}
	if s.DraftModel != nil {
		out.DraftPath = s.DraftModel.Path
	}
	d.Engine.Speculative = out
	return nil
}

// VLLMSpecMethod is the "method" a release's --speculative-config takes for
// a spec's method: mtp is "deepseek_mtp" before 0.11.0 and "mtp" from it
// (vllm.Release.Speculative); the others keep their names.
func VLLMSpecMethod(r vllm.Release, method string) string {
	if method == SpecMTP {
		return r.Speculative().MTPMethod
	}
	return method
}

// WithSpeculativeTokens returns a copy of d drafting n tokens per step, the
// acceptance re-derived when it was the method's published figure (a
// user's figure is kept, capped at n + 1): how a search varies the draft
// length. d is unchanged when it has no speculative decoding.
func (d Deployment) WithSpeculativeTokens(n int) Deployment {
	s := d.Engine.Speculative
	if s == nil || n < 1 {
		return d
	}
	c := *s
	c.NumTokens = n
	if c.Acceptance.From == SourceAssumed {
		c.Acceptance, _ = SpeculativeAcceptance(c.Method, n, nil)
	} else {
		c.Acceptance.Value = min(c.Acceptance.Value, float64(n+1))
	}
	c.PerPosition = PerPositionAcceptance(c.Acceptance.Value, n)
	d.Engine.Speculative = &c
	return d
}

// WithAcceptance returns a copy of s emitting x tokens per verify step
// (capped to [1, NumTokens + 1]): a measured acceptance length, such as a
// benchmark result's, replacing the spec's or the published one.
func (s Speculative) WithAcceptance(x float64, why string) *Speculative {
	x = min(max(x, 1), float64(s.NumTokens+1))
	s.Acceptance = set(x, SourceSpec, why)
	s.PerPosition = PerPositionAcceptance(x, s.NumTokens)
	return &s
}
