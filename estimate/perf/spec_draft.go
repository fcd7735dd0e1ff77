package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
)

// Drafter is the speculative-decoding proposer a step runs after the
// target's verify pass (resolve.Drafter, in the step model's terms).
type Drafter struct {
	// Layers are the decoder layers one draft pass runs (no vocabulary).
	Layers *catalog.Model
	// FuseParams are 16-bit projections replicated on every GPU (MTP's
	// eh_proj, EAGLE's fc), run on every token a pass sees.
	FuseParams float64
	// HeadVocab is the vocabulary of the LM head each pass samples from
	// (one row per drafting sequence).
	HeadVocab int
	// WeightDType is how Layers are stored ("" = the target's).
	WeightDType string
	// CPU marks a proposer without GPU work (n-gram prompt lookup).
	CPU bool
	// Storage is how Layers are stored, as the memory model sizes the
	// proposer's weights (StorageBytesOf of its input); zero: the coarse
	// rules by its weights dtype.
	Storage StorageBytes
}

// mtpDrafter is the target's own multi-token-prediction layer(s), one
// decoder layer of the target's shape each (catalog.Model.MTPLayersModel), with eh_proj (2·hidden ×
// hidden) and the target-sized LM head: what a StepSetup with SpecTokens
// and no SpecDraft (the calibration rows that ran MTP) drafts with.
func mtpDrafter(m *catalog.Model) *Drafter {
	n := max(m.NumNextNPredictLayers, 1)
	l := m.MTPLayersModel(n)
	h := float64(m.HiddenSize)
	return &Drafter{Layers: l, FuseParams: float64(n) * (2*h*h + 3*h), HeadVocab: m.VocabSize}
}

// draftModels are the step models of the draft passes: the first sees
// every token the target's step scheduled (N + 1 positions per decoding
// sequence, prefill chunks too — vLLM's EagleProposer runs the proposer on
// the target's hidden states of the whole step), each later one a single
// position per drafting sequence.
type draftModels struct {
	first, next *StepModel
	d           *Drafter
	n           int
}

// cpuDrafter stands for "no draft pass": it keeps a draft step model from
// building draft models of its own.
var cpuDrafter = &Drafter{CPU: true}

// newDraftModels builds the draft passes of s (nil without speculative
// decoding or with a CPU proposer). The proposer runs on the last pipeline
// stage, whole, with the target's TP/DP/EP layout and network.
func newDraftModels(s StepSetup) *draftModels {
	if s.SpecTokens <= 0 {
		return nil
	}
	d := s.SpecDraft
	if d == nil {
		d = mtpDrafter(s.Model)
	}
	if d.CPU || d.Layers == nil || d.Layers.NumLayers < 1 {
		return nil
	}
	ds := s
	ds.Model, ds.PP, ds.SpecDraft, ds.Storage = d.Layers, 1, cpuDrafter, d.Storage
	if d.WeightDType != "" {
		ds.WeightDType = d.WeightDType
	}
	first := ds
	ds.SpecTokens = 0
	return &draftModels{first: NewStepModel(first), next: NewStepModel(ds), d: d, n: s.SpecTokens}
}

// draftTime is the time of the step's draft passes: the first over the
// step's tokens, N − 1 more over one position per drafting sequence, and
// per pass the fuse projections and one LM-head row per drafting sequence.
// Host overhead is the target step's (vLLM captures the draft passes in
// CUDA graphs too).
// m (nil: none) carries the memos of the two draft passes (StepMemo).
func (sm *StepModel) draftTime(runs []RankRun, m *StepMemo) float64 {
	dm := sm.draft
	if dm == nil {
		return 0
	}
	st := dm.first.stepMemo(runs, m.sub(0))
	t := st.TotalS - st.OverheadS
	var rows, tokens float64
	next := m.scratchRuns(runs)
	for i, run := range runs {
		next[i] = RankRun{Loads: next[i].Loads[:len(run.Loads)], N: run.N}
		for j, l := range run.Loads {
			seqs := l.DecodeSeqs + l.PrefillSeqs // a finished prefill drafts too
			next[i].Loads[j] = RankLoad{DecodeSeqs: seqs, DecodeCtx: l.DecodeCtx + l.PrefillPrefix + l.PrefillTokens}
			if run.N > 0 {
				rows = max(rows, seqs)
				tokens = max(tokens, l.tokens(dm.n))
			}
		}
	}
	if dm.n > 1 && rows > 0 {
		st = dm.next.stepMemo(next, m.sub(1))
		t += float64(dm.n-1) * (st.TotalS - st.OverheadS)
	}
	t += sm.draftDense(tokens, rows) + float64(dm.n-1)*sm.draftDense(rows, rows)
	return t
}

// draftDense is one draft pass's fuse projections over tokens positions and
// its LM head over rows sequences, on the busiest rank: 16-bit rooflines
// (the head is split over TP like the target's).
func (sm *StepModel) draftDense(tokens, rows float64) float64 {
	if tokens <= 0 {
		return 0
	}
	s, d := &sm.S, sm.draft.d
	hbm := s.HW.HBMBytesPerS * s.Eff.HBM
	bf := s.HW.BF16FLOPS * s.Eff.GEMM
	head := float64(d.HeadVocab) * float64(d.Layers.HiddenSize) / float64(max(1, s.TP))
	fuse := max(2*tokens*d.FuseParams/bf, d.FuseParams*2/hbm)
	return fuse + max(2*rows*head/bf, head*2/hbm)
}

// SpecAcceptPerPosition is the chance a draft is accepted given the one
// before it was, consistent with SpecAccepted tokens per step over
// SpecTokens drafts (resolve.PerPositionAcceptance); 0 without drafts.
func (s *StepSetup) SpecAcceptPerPosition() float64 {
	if s.SpecTokens <= 0 {
		return 0
	}
	return resolve.PerPositionAcceptance(s.TokensPerStep(), s.SpecTokens)
}

// Passes is how many times a step evaluates a step model: the target's
// pass and, with speculative decoding by a GPU drafter, the first draft
// pass and (for more than one draft token) the next ones. A simulation's
// work budget counts each step that many times.
func (sm *StepModel) Passes() int {
	dm := sm.draft
	switch {
	case dm == nil:
		return 1
	case dm.n > 1:
		return 3
	}
	return 2
}
