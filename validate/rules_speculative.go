package validate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// LastDraftAcceptance is the chance of the last draft position being
// accepted below which a longer draft is reported: each draft costs a verify
// position of the target for every sequence, every step. `vlaunch plan`
// tries no longer drafts either.
const LastDraftAcceptance = 0.05

// checkSpeculative: vllm.speculative is a method the release accepts and
// the model can run, with the draft it needs, an acceptance length that
// fits the draft length, and a draft length whose last positions are still
// worth verifying.
func checkSpeculative(c *checker) {
	s := c.d.VLLM.Speculative
	if s == nil || !c.ok(p("vllm", "speculative")) {
		return
	}
	if c.relOK {
		checkSpecRelease(c, s)
	}
	if s.Method == resolve.SpecMTP && c.model != nil && c.model.NumNextNPredictLayers < 1 {
		c.errorf(CodeSpeculative, p("vllm", "speculative", "method"), "use method eagle3 with an EAGLE head for this model (draft_model: {path: <its hub id or path>}), or method ngram with mean_acceptance_length (ngram has no published one; vLLM logs \"Mean acceptance length\")",
			"mtp drafts with the model's multi-token-prediction layers, and %s has none (num_nextn_predict_layers is 0)", c.model.ID)
	}
	checkSpecDraft(c, s)
	checkSpecAcceptance(c, s)
}

// checkSpecRelease: the release takes speculative decoding as a
// --speculative-config JSON (confirmed from 0.8.2) whose "method" it
// accepts; before, through --speculative-model and --num-speculative-tokens,
// which name a draft checkpoint: vlaunch writes draft_model only that way.
func checkSpecRelease(c *checker, s *spec.Speculative) {
	syn := c.rel.Speculative()
	path := p("vllm", "speculative", "method")
	if syn.JSONFlag != vllm.Present {
		if syn.OldFlags != vllm.Present || s.Method != resolve.SpecDraftModel {
			c.errorf(CodeSpeculative, path, "use vLLM 0.8.2 or newer, or method draft_model",
				"vLLM %s has no confirmed --speculative-config; its --speculative-model flags take a draft checkpoint, so vlaunch writes only draft_model for it, not %s", c.rel, s.Method)
		}
		return
	}
	name := resolve.VLLMSpecMethod(c.rel, s.Method)
	if syn.Accepts(name) == vllm.Absent {
		c.errorf(CodeSpeculative, path, "methods vLLM "+c.rel.Version.String()+" accepts: "+strings.Join(syn.Methods, ", "),
			"vLLM %s's --speculative-config does not accept method %q", c.rel, name)
	}
}

// checkSpecDraft: EAGLE heads and draft models need the checkpoint vLLM
// loads (draft_model.path); a draft model also its architecture (name or
// config), which is resolved here once.
func checkSpecDraft(c *checker, s *spec.Speculative) {
	needsPath := s.Method == resolve.SpecEagle || s.Method == resolve.SpecEagle3 || s.Method == resolve.SpecDraftModel
	dm := s.DraftModel
	switch {
	case needsPath && (dm == nil || dm.Path == ""):
		hint := "add draft_model: {path: <hub id or path of the proposer>}"
		if s.Method == resolve.SpecDraftModel && (dm == nil || (dm.Name == "" && dm.Config == "")) {
			// The whole edit: a draft model also needs its architecture
			// (the error below), and the hint must not lead into it.
			hint = "add draft_model: {path: <hub id or path of the proposer>, name: <catalog id>} (or config: <its config.json> instead of name)"
			c.errorf(CodeSpeculative, p("vllm", "speculative"), hint,
				"%s needs the proposer checkpoint vLLM loads (vllm.speculative.draft_model.path) and its architecture (draft_model.name or draft_model.config)", s.Method)
			return
		}
		c.errorf(CodeSpeculative, p("vllm", "speculative"), hint,
			"%s needs the proposer checkpoint vLLM loads (vllm.speculative.draft_model.path)", s.Method)
	case !needsPath && dm != nil:
		c.warnf(CodeSpeculative, p("vllm", "speculative", "draft_model"), "remove draft_model",
			"%s uses no draft checkpoint: draft_model is ignored", s.Method)
		return
	}
	if s.Method == resolve.SpecDraftModel && (dm == nil || (dm.Name == "" && dm.Config == "")) {
		c.errorf(CodeSpeculative, p("vllm", "speculative"), "add draft_model.name (a catalog id) or draft_model.config (its config.json)",
			"draft_model needs the draft's architecture for its memory and draft passes")
		return
	}
	checkSpecDraftModel(c)
}

// checkSpecDraftModel resolves the draft's architecture.
func checkSpecDraftModel(c *checker) {
	dm := c.d.VLLM.Speculative.DraftModel
	draft, err := resolve.DraftModel(c.d)
	if err == nil {
		c.draft = draft
		checkEagleDraftDepth(c, draft)
		return
	}
	path, hint := p("vllm", "speculative", "draft_model", "config"), "the path is relative to the spec file"
	if dm.Name != "" {
		path, hint = p("vllm", "speculative", "draft_model", "name"), "see `vlaunch models`, or give draft_model.config"
	}
	var ue *catalog.UnknownError
	var me *catalog.UnmodelledError
	switch {
	case errors.As(err, &ue):
		c.errorf(CodeSpeculative, path, unknownHint(ue, hint), "unknown draft model %q", ue.Name)
	case errors.As(err, &me):
		c.errorf(CodeSpeculative, path, me.Hint(), "%v", err)
	default:
		c.errorf(CodeSpeculative, path, hint, "%v", err)
	}
}

// MaxEagleLayers is the most decoder layers an EAGLE or EAGLE-3 proposer
// is taken to have without a warning. An EAGLE head is a small decoder
// stack on the target's hidden states: the published heads' configs
// (yuhuili/EAGLE-*, EAGLE3-*) say num_hidden_layers 1, with one reported
// exception (EAGLE3-Vicuna1.3-13B's says 40: NickL77/BaldEagle#6);
// vLLM's llama_eagle3.py built exactly one LlamaDecoderLayer whatever the
// config said until PR #26164 ("Support for multiple hidden layers in
// Eagle3", merged 2025-10; its multi-layer test head has 2), and builds
// config.num_hidden_layers of them since — the first reading
// [embeddings; hidden states] (2 × hidden), the others hidden; EAGLE's
// llama_eagle.py builds num_hidden_layers. A proposer deeper than a few
// layers is a whole model's architecture, most likely a catalog name given
// for the base model the head was trained for.
const MaxEagleLayers = 4

// checkEagleDraftDepth warns when an eagle or eagle3 proposer's
// architecture (draft_model.name or draft_model.config) has more than
// MaxEagleLayers decoder layers: its memory and draft passes are then
// sized as that whole stack, where vLLM runs the head's own config.
func checkEagleDraftDepth(c *checker, draft *catalog.Model) {
	s := c.d.VLLM.Speculative
	dm := s.DraftModel
	if draft == nil || dm == nil || (s.Method != resolve.SpecEagle && s.Method != resolve.SpecEagle3) || draft.NumLayers <= MaxEagleLayers {
		return
	}
	path := p("vllm", "speculative", "draft_model", "config")
	if dm.Name != "" {
		path = p("vllm", "speculative", "draft_model", "name")
	}
	hint := "give the head's own config.json as draft_model.config, or leave name and config out (vlaunch then assumes one decoder layer shaped like the target's); for a whole model as the draft use method draft_model"
	c.warnf(CodeSpeculative, path, hint,
		"%s sizes the %s proposer as %s: %d decoder layers; an EAGLE head is a decoder layer or two on the target's hidden states (most published heads have 1; vLLM builds the head's config.num_hidden_layers, one layer before PR #26164)",
		draftSource(dm), s.Method, draft.ID, draft.NumLayers)
}

// draftSource names where the draft's architecture came from.
func draftSource(dm *spec.DraftModel) string {
	if dm.Name != "" {
		return fmt.Sprintf("draft_model.name %q", dm.Name)
	}
	return fmt.Sprintf("draft_model.config %q", dm.Config)
}

// checkSpecAcceptance: the acceptance length fits the draft length (or the
// method has a published one), and the last draft position is still
// accepted often enough to be worth its verify position.
func checkSpecAcceptance(c *checker, s *spec.Speculative) {
	n := s.NumSpeculativeTokens
	if n < 1 {
		return // the schema reports it
	}
	acc, err := resolve.SpeculativeAcceptance(s.Method, n, s.MeanAcceptanceLength)
	if err != nil {
		path := p("vllm", "speculative", "mean_acceptance_length")
		if s.MeanAcceptanceLength == nil {
			path = p("vllm", "speculative")
		}
		c.errorf(CodeSpeculative, path, "vLLM logs it as \"Mean acceptance length\"; SGLang as \"accept len\"", "%v", err)
		return
	}
	pp := resolve.PerPositionAcceptance(acc.Value, n)
	if last := math.Pow(pp, float64(n)); n > 1 && last < LastDraftAcceptance {
		best := 1
		for best+1 < n && math.Pow(pp, float64(best+1)) >= LastDraftAcceptance {
			best++
		}
		c.warnf(CodeSpeculative, p("vllm", "speculative", "num_speculative_tokens"), fmt.Sprintf("num_speculative_tokens %d or fewer", best),
			"at a mean acceptance length of %.2f a draft is accepted with probability %.2f given the one before, so draft %d is accepted %.1f%% of the time; every draft costs the target a verify position per sequence and step",
			acc.Value, pp, n, 100*last)
	}
}
