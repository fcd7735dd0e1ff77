package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
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

// TestPDCandidatesKeepSpeculative: on a spec with MTP, every P/D
// candidate's two pools run the spec's speculative decoding (the pools'
// vllm inherits vllm.speculative: the decode pool's simulation drafts,
// estimate/pd simDecode), its line names it, the plan's notes say what
// P/D does with it (vLLM's NIXL compatibility matrix, PR #38628), and the
// spec --apply writes keeps it and passes what generate checks. The
// lines read "· weights auto · KV fp8" with no draft, as if P/D dropped
// the spec's MTP (speed41).
func TestPDCandidatesKeepSpeculative(t *testing.T) {
	d, path, src := example(t, "deepseek-v3-fp8-mtp-2x8h200")
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	var sum PDSummary
	cands := pdCandidates(d, base, own, NewSpace(base), &sum)
	if len(cands) == 0 {
		t.Fatalf("no P/D candidates: %s", sum.NotTried)
	}
	for i, e := range cands {
		pre, dec := e.pd.poolInputs()
		for role, in := range map[string]*estimate.Input{"prefill": &pre, "decode": &dec} {
			if sp := in.Resolved().Engine.Speculative; sp == nil || sp.NumTokens != own.SpecTokens {
				t.Fatalf("%s: the %s pool runs speculative %+v, want the spec's %d draft(s)", e.Settings, role, sp, own.SpecTokens)
			}
		}
		if !strings.HasSuffix(e.Settings.String(), " · mtp 1 draft") {
			t.Errorf("the P/D line does not name the spec's MTP: %s", e.Settings)
		}
		if i == 0 {
			if err := Verify(path, src, own, e.Settings); err != nil {
				t.Errorf("the spec --apply writes for %s is refused: %v", e.Settings, err)
			}
			out, err := Apply(src, own, e.Settings)
			if err != nil || !strings.Contains(string(out), "speculative:") {
				t.Errorf("the spec --apply writes drops vllm.speculative (%v):\n%s", err, out)
			}
		}
	}
	if !strings.Contains(strings.Join(sum.Notes, "\n"), "P/D pools keep the spec's speculative decoding (mtp 1 draft") {
		t.Errorf("the notes do not say what P/D does with the spec's MTP:\n%s", strings.Join(sum.Notes, "\n"))
	}
}
