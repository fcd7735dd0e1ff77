package perf

import (
	"math"
	"testing"
)

// TestPromptTokenS: natural text keeps the efficiency's price; random text
// costs the measured ratio more, scales with a cluster's own calibration,
// and falls back to natural text with the switch off.
func TestPromptTokenS(t *testing.T) {
	defer func(o bool) { UseRandomTextPromptCost = o }(UseRandomTextPromptCost)
	UseRandomTextPromptCost = true
	eff := DefaultEfficiency
	if got := PromptTokenS(eff, false); got != eff.FrontendPromptTokenS {
		t.Errorf("natural text: %g s a token, want %g", got, eff.FrontendPromptTokenS)
	}
	if got := PromptTokenS(eff, true); math.Abs(got-RandomTextPromptTokenS) > 1e-15 {
		t.Errorf("random text at the default constants: %g s a token, want the measured %g", got, RandomTextPromptTokenS)
	}
	slow := eff
	slow.FrontendPromptTokenS *= 2 // a cluster whose host tokenizes at half the speed
	if got, want := PromptTokenS(slow, true), 2*RandomTextPromptTokenS; math.Abs(got-want) > 1e-15 {
		t.Errorf("random text on a host calibrated 2× slower: %g, want %g", got, want)
	}
	UseRandomTextPromptCost = false
	if got := PromptTokenS(eff, true); got != eff.FrontendPromptTokenS {
		t.Errorf("switch off: random text %g, want the natural %g", got, eff.FrontendPromptTokenS)
	}
}

// TestRandomTextPremiumWithinItsSources keeps the random-text ratio inside
// what its sources bracket (RandomTextPromptTokenS): a tokenizer's word
// cache and byte count make random-dataset text 1.2–1.6× dearer than
// natural text; a ratio far outside that would price something else.
func TestRandomTextPremiumWithinItsSources(t *testing.T) {
	r := RandomTextPromptTokenS / DefaultEfficiency.FrontendPromptTokenS
	if r < 1 || r > 1.6 {
		t.Errorf("random / natural text tokenization = %.2f, outside the 1–1.6 its sources support", r)
	}
}
