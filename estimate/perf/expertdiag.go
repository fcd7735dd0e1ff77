package perf

// ExpertDiag is the routed-expert term's inputs for total tokens over all
// DP ranks (analysis: the replay's b300fp4 test prints it).
type ExpertDiag struct {
	FLOPs, Bytes       float64 // one GPU's expert FLOPs and HBM bytes a step
	ComputeS, MemoryS  float64 // their times as expertTimeCall prices them
	CurveX, CurveFLOPS float64 // tokens per expert read on the measured curve, its rate (0: no curve)
	ExpertBytes        float64 // one expert of one layer's weights as stored
	DenseBytesGPU      float64 // dense + LM head weights per GPU
	Curve              string  // which measured MoE curve (dtype), "" without one
}

// ExpertDiagAt is ExpertDiag for total tokens.
func (sm *StepModel) ExpertDiagAt(total float64) ExpertDiag {
	s := &sm.S
	d := ExpertDiag{ExpertBytes: sm.expertBytes, DenseBytesGPU: sm.denseBytesGPU}
	if sm.experts == 0 || total <= 0 {
		return d
	}
	d.FLOPs, d.Bytes = sm.expertWork(total)
	d.ComputeS = d.FLOPs / (s.expertFLOPS() * s.expertGEMMEff())
	d.MemoryS = d.Bytes / (s.HW.HBMBytesPerS * s.Eff.HBM * scale(s.Eff.ExpertHBM))
	if r := sm.expertStreamRate(); r > 0 {
		d.MemoryS = d.Bytes / r
	}
	if c := s.moeCurve(); c != nil {
		d.Curve = s.WeightDType
		d.CurveX = max(total*sm.topK/sm.experts, s.moeRidge())
		d.CurveFLOPS = s.citedMoECurveFLOPS(c, d.CurveX) * s.moeWidthFactor(c, sm.moeSliceWidth)
		d.ComputeS = d.FLOPs / d.CurveFLOPS
	}
	return d
}
