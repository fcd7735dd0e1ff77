package memory

import "testing"

// TestActivationRuleNamesOnlyHeldTerms: the printed rule names what the
// peak holds — no fused-MoE workspace for a dense model, the Marlin layer
// inside the max where it replaces the workspace, no sampler off the last
// pipeline stage.
func TestActivationRuleNamesOnlyHeldTerms(t *testing.T) {
	terms := func(names ...string) *Report {
		r := &Report{}
		for _, n := range names {
			r.Activation = append(r.Activation, Term{Name: n})
		}
		return r
	}
	for want, r := range map[string]*Report{
		"max(forward, sampler)":                                         terms("forward pass", "sampler"),
		"max(forward, sampler) + fused-MoE workspace":                   terms("forward pass", "sampler", "fused-MoE workspace"),
		"max(forward, sampler, Marlin MoE layer)":                       terms("forward pass", "sampler", "Marlin MoE layer"),
		"forward + fused-MoE workspace":                                 terms("forward pass", "fused-MoE workspace"),
		"max(forward, sampler) + fused-MoE workspace + encoder outputs": terms("forward pass", "sampler", "fused-MoE workspace", "multimodal encoder profile outputs"),
	} {
		if got := r.ActivationRule(); got != want {
			t.Errorf("ActivationRule() = %q, want %q", got, want)
		}
	}
}
