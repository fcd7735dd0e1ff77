package perf

import (
	"math"
	"testing"
)

// TestDraftPasses: the verify width and the draft passes. MTP on
// DeepSeek-V3 verifies N + 1 positions and adds N draft passes of one MoE
// layer plus eh_proj and the LM head; a CPU proposer (n-gram) adds only the
// verify width; the first pass sees every token of the step.
func TestDraftPasses(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	base := StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: DefaultEfficiency}
	load := RankLoad{DecodeSeqs: 32, DecodeCtx: 32 * 4096}
	step := func(s StepSetup) StepTime { return NewStepModel(s).StepUniform(load) }
	plain := step(base)
	mtp1, mtp2 := base, base
	mtp1.SpecTokens, mtp1.SpecAccepted = 1, 1.85
	mtp2.SpecTokens, mtp2.SpecAccepted = 2, 2.57
	ngram := mtp2
	ngram.SpecDraft = &Drafter{CPU: true}
	s1, s2, sn := step(mtp1), step(mtp2), step(ngram)
	if plain.SpecDraftS != 0 || sn.SpecDraftS != 0 {
		t.Errorf("draft time without a GPU proposer: plain %v, ngram %v", plain.SpecDraftS, sn.SpecDraftS)
	}
	if !(s1.SpecDraftS > 0 && s2.SpecDraftS > s1.SpecDraftS) {
		t.Errorf("draft passes: 1 draft %.3f ms, 2 drafts %.3f ms", s1.SpecDraftS*1e3, s2.SpecDraftS*1e3)
	}
	if !(sn.TotalS > plain.TotalS && s2.TotalS > sn.TotalS) {
		t.Errorf("step: plain %.3f, verify-only %.3f, with drafts %.3f ms", plain.TotalS*1e3, sn.TotalS*1e3, s2.TotalS*1e3)
	}
	// One MTP layer is one of 61 layers: a draft pass costs a few percent of
	// the target's step, not more than the layer share plus the LM head.
	if f := s1.SpecDraftS / plain.TotalS; f > 0.15 {
		t.Errorf("one draft pass is %.0f%% of the step", 100*f)
	}
	// TPOT: the step over the tokens emitted per step.
	pt, st := NewStepModel(mtp1).DecodeAt(32, 4096)
	if math.Abs(pt.TPOTS-st.TotalS/1.85) > 1e-12 {
		t.Errorf("TPOT %v, want step / 1.85", pt.TPOTS)
	}
	// The first pass sees the prefill tokens of the step too.
	dm := NewStepModel(mtp1)
	withPrefill := dm.Step([]RankLoad{{DecodeSeqs: 32, DecodeCtx: 32 * 4096, PrefillTokens: 4096, PrefillPairs: 4096 * 4097 / 2, PrefillSeqs: 1}})
	if withPrefill.SpecDraftS <= s1.SpecDraftS {
		t.Errorf("draft with a prefill chunk %.3f ms, without %.3f ms", withPrefill.SpecDraftS*1e3, s1.SpecDraftS*1e3)
	}
}
