package resolve

import (
	"fmt"
	"math"
)

// publishedAcceptance is the per-position acceptance p of each method's
// published measurements, read through the chain model (a draft is
// accepted only if every draft before it was): mean acceptance length
// 1 + p + p² + … + p^N with N drafts. ngram and draft_model have none that
// transfers: their acceptance depends on how much the output repeats the
// prompt, or on the draft/target pair, so a spec must give it.
var publishedAcceptance = map[string]struct {
	p      float64
	source string
}{
	SpecMTP: {0.85, "DeepSeek-V3 technical report (MTP evaluation): the second token's acceptance rate is 85–90% across generation topics; " +
		"the Ant Group H20 rows of published/throughput.yaml (SGLang MTP, accept length 1.8–1.9, 2.4–2.7, 2.9–3.3 with 1, 2, 3 drafts) fit p = 0.85"},
	SpecEagle: {0.55, "vLLM PR #16035 (V1 EAGLE, EAGLE-LLaMA3-Instruct-8B on MT-Bench): mean acceptance length 1.89 with 2 drafts, 2.08 with 4 (p 0.57 and 0.54)"},
	SpecEagle3: {0.66, "vLLM PR #24343: EAGLE-3 on Llama-3.1-8B-Instruct, MT-Bench, mean acceptance length 2.39; with the 3 drafts vLLM's EAGLE-3 acceptance tests run " +
		"(PR #31976; the draft count of #24343 is inferred) that is p = 0.66"},
}

// SpeculativeAcceptance is the mean acceptance length of a method drafting
// n tokens: the spec's figure when given (it must lie in [1, n + 1]), else
// the method's published per-position acceptance through the chain model.
func SpeculativeAcceptance(method string, n int, given *float64) (Setting[float64], error) {
	if given != nil {
		x := *given
		if !(x >= 1 && x <= float64(n+1)) {
			return Setting[float64]{}, fmt.Errorf("mean_acceptance_length %g is outside [1, num_speculative_tokens + 1 = %d]: it counts the tokens emitted per verify step, the bonus token included", x, n+1)
		}
		return set(x, SourceSpec, ""), nil
	}
	pub, ok := publishedAcceptance[method]
	if !ok {
		return Setting[float64]{}, fmt.Errorf("%s has no published acceptance that transfers between workloads: set mean_acceptance_length (vLLM logs it as \"Mean acceptance length\")", method)
	}
	x := ChainAcceptance(pub.p, n)
	return set(x, SourceAssumed, fmt.Sprintf("mean acceptance length %.2f: %s drafting %d token(s) per step, each accepted with probability %.2f given the one before (%s)", x, method, n, pub.p, pub.source)), nil
}

// ChainAcceptance is the mean tokens emitted per verify step with n drafts
// each accepted with probability p given the previous one was:
// 1 + p + p² + … + p^n (the bonus token included).
func ChainAcceptance(p float64, n int) float64 {
	x, term := 1.0, 1.0
	for range n {
		term *= p
		x += term
	}
	return x
}

// PerPositionAcceptance inverts ChainAcceptance: the p in [0, 1] with
// ChainAcceptance(p, n) = x (x is clamped to [1, n + 1]).
func PerPositionAcceptance(x float64, n int) float64 {
	if n < 1 || !(x > 1) {
		return 0
	}
	if x >= float64(n+1) {
		return 1
	}
	lo, hi := 0.0, 1.0
	for range 60 { // ChainAcceptance grows with p: bisection
		mid := (lo + hi) / 2
		if ChainAcceptance(mid, n) < x {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Min(1, (lo+hi)/2)
}
