package plan

import (
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
)

// TestSpecChoicesAsResolveVariesThem: each speculative choice, written
// into the spec (what --apply writes) and resolved, is what
// resolve.Deployment.WithSpeculativeTokens makes of the spec's deployment
// (the one rule for another draft length), with the spec's published or
// given acceptance; off resolves to no speculative decoding; a spec without
// speculative decoding varies nothing.
func TestSpecChoicesAsResolveVariesThem(t *testing.T) {
	d, _, _ := example(t, "deepseek-v3-fp8-mtp-2x8h200")
	given := 2.2
	withGiven := *d.Spec
	sp := *withGiven.VLLM.Speculative
	sp.NumSpeculativeTokens, sp.MeanAcceptanceLength = 3, &given
	withGiven.VLLM.Speculative = &sp
	dg, err := resolve.Assemble(&withGiven, d.Parts())
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range []*resolve.Deployment{d, dg} {
		own := specSettings(dep)
		choices := specChoices(dep)
		if len(choices) < 3 || choices[0].method != specOff {
			t.Fatalf("choices %+v: want off first, then draft lengths", choices)
		}
		for _, c := range choices {
			s := own
			s.Speculative, s.SpecTokens = c.method, c.tokens
			got, err := resolve.Assemble(s.toSpec(dep.Spec), dep.Parts())
			if err != nil {
				t.Fatalf("%s: %v", s.specWords(), err)
			}
			if c.method == specOff {
				if got.Engine.Speculative != nil {
					t.Errorf("off resolves to %+v", got.Engine.Speculative)
				}
				continue
			}
			want := dep.WithSpeculativeTokens(c.tokens).Engine.Speculative
			g := got.Engine.Speculative
			if g.NumTokens != want.NumTokens || g.Acceptance.Value != want.Acceptance.Value || g.PerPosition != want.PerPosition {
				t.Errorf("%s: resolved %d drafts, acceptance %g (p %g); WithSpeculativeTokens: %d, %g (p %g)",
					s.specWords(), g.NumTokens, g.Acceptance.Value, g.PerPosition, want.NumTokens, want.Acceptance.Value, want.PerPosition)
			}
		}
	}
	if own := specSettings(dg); own.SpecTokens != 3 {
		t.Errorf("own draft count %d", own.SpecTokens)
	}
	plain, _, _ := example(t, "deepseek-v3-fp8-2x8h200")
	if c := specChoices(plain); len(c) != 1 || c[0] != (specChoice{}) {
		t.Errorf("a spec without speculative decoding varies it: %+v", c)
	}
}
