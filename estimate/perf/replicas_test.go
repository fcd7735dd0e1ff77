package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestDecodeAtReplicas: R independent replicas decode C sessions as one
// replica decodes its share, C/R, R times over: the same step and TPOT,
// R times the throughput; an uneven split runs at the fullest replica's
// pace. The curve steps through whole replicas' worth of sessions.
func TestDecodeAtReplicas(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h20-96g")
	setup := StepSetup{Model: m, HW: NewHardware(g, 8, 450, 0, 25, 1, 0), TP: 1, PP: 1, DP: 8, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, FP8Dispatch: true, CUDAGraphs: true, Eff: idealEff}
	one := NewStepModel(setup)
	setup.Replicas = 4
	four := NewStepModel(setup)
	p1, _ := one.DecodeAt(50, 1000)
	p4, _ := four.DecodeAt(200, 1000)
	if !perfNear(p4.TPOTS, p1.TPOTS, 1e-12) || !perfNear(p4.OutputTokPerS, 4*p1.OutputTokPerS, 1e-9) || p4.SeqsPerRank != p1.SeqsPerRank {
		t.Errorf("4 replicas at 200 sessions: TPOT %g s, %g tok/s, %d per rank; one at 50: %g s, %g tok/s (x4 = %g), %d per rank",
			p4.TPOTS, p4.OutputTokPerS, p4.SeqsPerRank, p1.TPOTS, p1.OutputTokPerS, 4*p1.OutputTokPerS, p1.SeqsPerRank)
	}
	uneven, _ := four.DecodeAt(197, 1000) // 50, 49, 49, 49
	if !perfNear(uneven.TPOTS, p1.TPOTS, 1e-12) || !perfNear(uneven.OutputTokPerS, 197/50.0*p1.OutputTokPerS, 1e-9) {
		t.Errorf("197 sessions: TPOT %g s and %g tok/s, want the fullest replica's pace %g s for every session (%g tok/s)",
			uneven.TPOTS, uneven.OutputTokPerS, p1.TPOTS, 197/50.0*p1.OutputTokPerS)
	}
	c1, c4 := one.DecodeCurve(1000, 8, 0), four.DecodeCurve(1000, 8, 0)
	for i := range c1 {
		if c4[i].Concurrency != 4*c1[i].Concurrency || !perfNear(c4[i].TPOTS, c1[i].TPOTS, 1e-12) {
			t.Errorf("curve point %d: %d sessions at %g s, want %d at %g s", i, c4[i].Concurrency, c4[i].TPOTS, 4*c1[i].Concurrency, c1[i].TPOTS)
		}
	}
}
