package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/spec"
)

// TestPerfNoAdvice: skipping the advice leaves every verdict and
// prediction as it is and only drops the alternatives and the "what it
// would take" lines (which a failing SLO otherwise always has).
func TestPerfNoAdvice(t *testing.T) {
	in := sloInput(t, 1)
	in.SLO.ThroughputTokensPerS = 2000
	p50 := 0.001
	in.SLO.TTFT = append(in.SLO.TTFT, spec.TTFTTarget{InputTokens: 1024, P50S: &p50})
	m := memory.Estimate(&in)
	kv, seqs := m.KVTokensPerRank, kvSeqsOf(&in, &m)
	full := Predict(&in, kv, seqs, Options{Seed: 1, Requests: 1000})
	bare := Predict(&in, kv, seqs, Options{Seed: 1, Requests: 1000, NoAdvice: true})
	if len(full.SLO) != 2 || len(bare.SLO) != len(full.SLO) {
		t.Fatalf("verdicts: %d with advice, %d without", len(full.SLO), len(bare.SLO))
	}
	for i := range full.SLO {
		f, b := full.SLO[i], bare.SLO[i]
		if f.Verdict != VerdictFail || len(f.WouldPass) == 0 {
			t.Fatalf("%s should fail with advice: %+v", f.Name, f)
		}
		if b.Verdict != f.Verdict || b.Predicted != f.Predicted || b.Binding != f.Binding || len(b.WouldPass) != 0 {
			t.Errorf("%s: without advice %+v, with %+v", f.Name, b, f)
		}
	}
	if len(bare.Performance.Alternatives) != 0 {
		t.Error("alternatives computed without advice")
	}
}
