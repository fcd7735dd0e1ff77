package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// pdRefusedPools counts the P/D candidates of the spec that fit in memory
// and have a pool validate refuses (validate.BundleRefusals on the pool's
// own deployment, as validate's pool checker runs it), and returns the
// summary.
func pdRefusedPools(t *testing.T, name string) (refused, fitting int, sum PDSummary) {
	t.Helper()
	d, _, _ := pdSpec(t, name)
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range pdCandidates(d, base, own, Space{}, &sum) {
		if !e.Fits {
			continue
		}
		fitting++
		for _, p := range []*pdPool{e.pd.pre, e.pd.dec} {
			if validate.BundleRefusals(p.dep, p.dep.Spec.Runtime.Kind).HasErrors() {
				refused++
				break
			}
		}
	}
	return refused, fitting, sum
}

// qa43's DeepSeek-V4-Flash spec on 2 × 8 B200 sets enable_dbo: its P/D
// pools keep it, and plan enumerated pools whose all-to-all DBO refuses
// (allgather_reducescatter, or none on a pool without EP and DP > 1):
// vLLM asserts DeepEP at config time (GEN004), so `vlaunch generate`
// refuses every such pair, and only the ones the list reached were caught
// (4 "refused" on the colocated line), the rest bounded, simulated and
// ranked. Plan asks validate's own check of each pool (poolRefused) before
// pairing it: no candidate that fits has a pool validate refuses, the
// summary counts the pool choices skipped with GEN004 among the reasons,
// and without the check (UsePoolRefusals false) such candidates are there
// (the spec exercises the rule).
func TestPDPoolsValidateRefusesAreNeverPaired(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates a 16-GPU MoE spec's P/D pools")
	}
	const name = "qa43/02-deepseek-v4-flash-dpep-2x8b200"
	defer func(v bool) { UsePoolRefusals = v }(UsePoolRefusals)
	UsePoolRefusals = false
	before, _, _ := pdRefusedPools(t, name)
	if before == 0 {
		t.Fatal("without the check no candidate has a refused pool: the spec no longer exercises it")
	}
	UsePoolRefusals = true
	refused, fitting, sum := pdRefusedPools(t, name)
	if refused != 0 {
		t.Errorf("%d of %d candidates have a pool validate refuses", refused, fitting)
	}
	if fitting == 0 {
		t.Error("no P/D candidate left: the check refused every pool")
	}
	if sum.RefusedPools == 0 {
		t.Fatal("the summary counts no refused pool choice")
	}
	total, dbo := 0, false
	for _, r := range sum.RefusedBecause {
		total += r.Count
		dbo = dbo || strings.Contains(r.Why, "enable_dbo") && strings.Contains(r.Why, "[GEN004]")
		if !strings.HasPrefix(r.Why, "prefill pool: ") && !strings.HasPrefix(r.Why, "decode pool: ") {
			t.Errorf("a reason names no pool: %q", r.Why)
		}
	}
	if total != sum.RefusedPools || !dbo {
		t.Errorf("reasons count %d of %d refused pools; DBO's GEN004 among them: %t", total, sum.RefusedPools, dbo)
	}
	t.Logf("%d candidates with a refused pool before, %d fitting after; %d pool choices skipped", before, fitting, sum.RefusedPools)
}

// poolRefused reports validate's first error, with its code, naming the
// pool; a pool validate accepts gives nil.
func TestPoolRefusedNamesThePoolAndCode(t *testing.T) {
	d, _, _ := pdSpec(t, "qa43/02-deepseek-v4-flash-dpep-2x8b200")
	if err := poolRefused("decode", d); err != nil {
		t.Errorf("the spec's own DP 16 · EP deployment (DeepEP, DBO) refused: %v", err)
	}
	dbo := *d
	dbo.Engine.All2All.Value = "allgather_reducescatter"
	err := poolRefused("decode", &dbo)
	if err == nil || !strings.HasPrefix(err.Error(), "decode pool: ") || !strings.Contains(err.Error(), "[GEN004]") {
		t.Errorf("DBO on allgather_reducescatter: %v, want a decode pool's GEN004", err)
	}
}

// A P/D spec with MooncakeConnector on 2 × 8 H100: validate refuses a
// prefill instance of more than one DP rank under it (SPEC127: vllm-router
// sends the decode leg DP rank 0's engine id), a rule on the connector and
// the prefill pool's layout that no pool check asks. Plan enumerated such
// pairs, bounded and simulated them; none reached the list, but 16 P/D
// groups "whose bound could still rank first" were such pairs. Plan now
// verifies each pair that fits before bounding it (pdVerified: what
// `vlaunch generate` runs): exactly the pairs whose prefill pool has DP >
// 1 are skipped, each for SPEC127, and every pair kept verifies.
func TestPDPairsGenerateRefusesAreNeverRanked(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies a P/D spec's candidates")
	}
	d, path, src := pdSpec(t, "pd/pd-mooncake-2x8h200")
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	var sum PDSummary
	cands := pdCandidates(d, base, own, Space{}, &sum)
	before := sum.Candidates
	v := newVerifier(path, src, own)
	verify := func(e *evaluated) error { return v.check(e.Settings) }
	n := pdVerified(cands, verify, &sum)
	want := 0
	for _, e := range cands {
		if !e.Fits || e.Own {
			continue
		}
		dp := e.Settings.PD.Prefill.DP > 1
		if dp {
			want++
		}
		if dp != e.refused {
			t.Errorf("%s: refused %t, prefill DP %d", e.Settings.String(), e.refused, e.Settings.PD.Prefill.DP)
		}
		if !e.refused {
			if err := verify(e); err != nil {
				t.Errorf("%s kept, but generate refuses it: %v", e.Settings.String(), err)
			}
		}
	}
	if want == 0 || n != want || sum.RefusedPairs != want || sum.Candidates != before-want {
		t.Errorf("refused %d (summary %d), want the %d pairs with prefill DP > 1; candidates %d -> %d", n, sum.RefusedPairs, want, before, sum.Candidates)
	}
	for _, r := range sum.RefusedPairsBecause {
		if !strings.Contains(r.Why, "[SPEC127]") {
			t.Errorf("a pair refused for %q, not the connector's SPEC127", r.Why)
		}
	}
	// Without a spec source nothing is verified (nothing to write the
	// candidate into), and nothing is refused.
	for _, e := range cands {
		e.refused = false
	}
	if n := pdVerified(cands, nil, &PDSummary{}); n != 0 {
		t.Errorf("without a verifier %d refused", n)
	}
}
