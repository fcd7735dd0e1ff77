package perf

import (
	"math"
	"slices"
)

// tokenTerms are the parts of a step that depend only on each rank's
// token and sequence counts, not on the contexts: the experts (all ranks'
// tokens), the communication, whether DBO splits the step, and the host's
// work. Within a steady stretch of the simulation only contexts grow, so
// consecutive steps share them (StepMemo).
type tokenTerms struct {
	expert, net    StepTime // expertTime's and networkTime's fields
	dbo            bool
	serial, launch float64
}

// tokenTermsOf works out the tokenTerms of a step.
func (sm *StepModel) tokenTermsOf(runs []RankRun) tokenTerms {
	frac := sm.microBatchFrac(runs)
	sp := sm.spreadOf(runs, frac)
	var t tokenTerms
	sm.expertTimeCall(sm.dpRoutedTokens(runs, sp), sm.dpGraphTokens(runs, sp), &t.expert)
	t.dbo = sm.dboActive(runs)
	sm.networkTime(runs, sp, frac, t.dbo, &t.net)
	t.serial, t.launch = sm.overhead(runs)
	return t
}

// StepMemo remembers the token terms of the last step StepRunsMemo was
// given, and reuses them while each rank's token and sequence counts stay
// the same; the draft passes of speculative decoding keep memos of their
// own. A memo serves one caller at a time.
type StepMemo struct {
	key   []float64
	terms tokenTerms
	// drafts are the memos of the first and the next draft passes; runs
	// is scratch for the next passes' loads.
	drafts [2]*StepMemo
	runs   []RankRun
	// gemms remembers the measured dense GEMMs' times of the ranks priced
	// (nil until a step model with tables needs it).
	gemms *gemmSplitCache
	// seen remembers the token terms of earlier counts (nil until the
	// counts first change): under Poisson arrivals a rank's counts go back
	// and forth between a few dozen values, so the step before rarely
	// holds them but one a few steps back does.
	seen *[termsSlots]termsSlot
}

// termsBits is the width of StepMemo's table index: termsSlots entries
// of earlier token terms.
const termsBits = 6

const termsSlots = 1 << termsBits

// termsSlot is one entry of StepMemo.seen: the counts (StepMemo.key's
// layout) and their token terms.
type termsSlot struct {
	key   []float64
	terms tokenTerms
}

// recall sets m.terms to the token terms of m.key: from m.seen when it
// holds them (the terms depend on nothing but the counts, so a hit is the
// very value tokenTermsOf would return), else worked out and kept.
func (m *StepMemo) recall(sm *StepModel, runs []RankRun) {
	if m.seen == nil {
		m.seen = new([termsSlots]termsSlot)
	}
	h := uint64(len(m.key))
	for _, x := range m.key {
		h = (h ^ math.Float64bits(x)) * 0x9e3779b97f4a7c15
	}
	e := &m.seen[h>>(64-termsBits)]
	if slices.Equal(e.key, m.key) && e.key != nil {
		m.terms = e.terms
		return
	}
	m.terms = sm.tokenTermsOf(runs)
	e.key = append(e.key[:0], m.key...)
	e.terms = m.terms
}

// gemmCache is m's cache of sm's measured GEMM times (nil for a nil memo
// or a step model without tables).
func (m *StepMemo) gemmCache(sm *StepModel) *gemmSplitCache {
	if m == nil || sm.gemms == nil {
		return nil
	}
	if m.gemms == nil {
		m.gemms = &gemmSplitCache{}
	}
	return m.gemms
}

// StepRunsMemo is StepRuns, reusing m's token terms when the step's
// counts are those of the step before.
func (sm *StepModel) StepRunsMemo(runs []RankRun, m *StepMemo) StepTime { return sm.stepMemo(runs, m) }

// stepMemo is StepRunsMemo, and StepRuns for a nil memo.
func (sm *StepModel) stepMemo(runs []RankRun, m *StepMemo) StepTime {
	if m == nil {
		return sm.StepRuns(runs)
	}
	if !m.holds(runs) {
		m.key = m.key[:0]
		for _, r := range runs {
			m.key = append(m.key, float64(r.N), float64(len(r.Loads)))
			for _, l := range r.Loads {
				m.key = append(m.key, l.DecodeSeqs, l.PrefillTokens, l.PrefillSeqs, l.PrefillFinal)
			}
		}
		m.recall(sm, runs)
	}
	return sm.stepWith(runs, &m.terms, m)
}

// sub is the memo of draft pass i (nil for a nil memo).
func (m *StepMemo) sub(i int) *StepMemo {
	if m == nil {
		return nil
	}
	if m.drafts[i] == nil {
		m.drafts[i] = &StepMemo{}
	}
	return m.drafts[i]
}

// scratchRuns is room for runs' shape (fresh without a memo).
func (m *StepMemo) scratchRuns(runs []RankRun) []RankRun {
	if m == nil {
		out := make([]RankRun, len(runs))
		for i, r := range runs {
			out[i].Loads = make([]RankLoad, len(r.Loads))
		}
		return out
	}
	for len(m.runs) < len(runs) {
		m.runs = append(m.runs, RankRun{})
	}
	for i, r := range runs {
		if cap(m.runs[i].Loads) < len(r.Loads) {
			m.runs[i].Loads = make([]RankLoad, len(r.Loads))
		}
	}
	return m.runs[:len(runs)]
}

// holds says runs have the counts m's terms were worked out for.
func (m *StepMemo) holds(runs []RankRun) bool {
	i := 0
	for _, r := range runs {
		if i+2+memoFields*len(r.Loads) > len(m.key) || m.key[i] != float64(r.N) || m.key[i+1] != float64(len(r.Loads)) {
			return false
		}
		i += 2
		for _, l := range r.Loads {
			if m.key[i] != l.DecodeSeqs || m.key[i+1] != l.PrefillTokens || m.key[i+2] != l.PrefillSeqs || m.key[i+3] != l.PrefillFinal {
				return false
			}
			i += memoFields
		}
	}
	return i == len(m.key)
}

// memoFields is how many of a rank load's counts StepMemo.key holds:
// DecodeSeqs, PrefillTokens, PrefillSeqs and PrefillFinal (the last sets
// the step's micro-batches under PP, microBatches).
const memoFields = 4
