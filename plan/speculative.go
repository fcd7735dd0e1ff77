package plan

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// specOff is Settings.Speculative for a candidate that turns off the
// speculative decoding the spec enables.
const specOff = "off"

// maxPlanDrafts is the longest draft plan tries besides the spec's own:
// the published acceptance figures resolve's chain model rests on were
// measured with 1 to 4 drafts per step (DeepSeek MTP 1-3 in the Ant Group
// rows, EAGLE 2 and 4 in vLLM PR #16035, EAGLE-3 3 in PR #24343), and
// plan does not extrapolate the chain model beyond its evidence.
const maxPlanDrafts = 4

// specChoice is one speculative setting: the method ("" when the spec has
// none, specOff to turn it off) and the drafts per step.
type specChoice struct {
	method string
	tokens int
}

// specChoices are the speculative settings tried when the spec enables
// speculative decoding: off, and the spec's method drafting 1 to
// maxPlanDrafts tokens (and the spec's own count), each only while its
// last draft is accepted often enough to be worth its verify position
// (validate's rule, SPEC122: validate.LastDraftAcceptance). The acceptance
// of each count is resolve's (Deployment.WithSpeculativeTokens).
func specChoices(d *resolve.Deployment) []specChoice {
	s := d.Engine.Speculative
	if s == nil {
		return []specChoice{{}}
	}
	out := []specChoice{{method: specOff}}
	for n := 1; n <= max(maxPlanDrafts, s.NumTokens); n++ {
		if n != s.NumTokens && (n > maxPlanDrafts || !worthDrafting(d, n)) {
			continue
		}
		out = append(out, specChoice{method: s.Method, tokens: n})
	}
	return out
}

// worthDrafting: with n drafts, the last one is accepted at least
// validate.LastDraftAcceptance of the time (n = 1 always is).
func worthDrafting(d *resolve.Deployment, n int) bool {
	s := d.WithSpeculativeTokens(n).Engine.Speculative
	return n == 1 || math.Pow(s.PerPosition, float64(n)) >= validate.LastDraftAcceptance
}

// withSpeculative writes the candidate's speculative setting into the
// spec copy c (whose Speculative it must not share with the original): a
// spec's mean_acceptance_length is kept, capped at tokens + 1, and a
// published one is derived again by resolve — what
// resolve.Deployment.WithSpeculativeTokens does to a deployment.
func (s Settings) withSpeculative(c *spec.Deployment) {
	switch {
	case s.Speculative == "" || c.VLLM.Speculative == nil:
		return
	case s.Speculative == specOff:
		c.VLLM.Speculative = nil
		return
	}
	sp := *c.VLLM.Speculative
	sp.NumSpeculativeTokens = s.SpecTokens
	if a := sp.MeanAcceptanceLength; a != nil && *a > float64(s.SpecTokens+1) {
		capped := float64(s.SpecTokens + 1)
		sp.MeanAcceptanceLength = &capped
	}
	c.VLLM.Speculative = &sp
}

// specWords names the speculative setting ("" when the spec has none).
func (s Settings) specWords() string {
	switch s.Speculative {
	case "":
		return ""
	case specOff:
		return "speculative off"
	}
	return fmt.Sprintf("%s %d draft%s", s.Speculative, s.SpecTokens, map[bool]string{true: "s"}[s.SpecTokens != 1])
}
