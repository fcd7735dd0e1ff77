package perf

import "testing"

// TestKVWriteKernel: with UseKVWriteKernel a vLLM stage on a GPU whose
// decode attention is not measured (the H20) runs one more kernel per
// attention layer; on the H100, whose measured attention call holds the
// write, and under SGLang nothing changes.
func TestKVWriteKernel(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	build := func(gpu string, sglang, on bool) *StepModel {
		g := perfGPU(t, gpu)
		defer func(v bool) { UseKVWriteKernel = v }(UseKVWriteKernel)
		UseKVWriteKernel = on
		return NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)})
	}
	on, off := build("h20-96g", false, true), build("h20-96g", false, false)
	if on.S.Eff.Kernels.AttnDecodeS > 0 {
		t.Fatalf("H20: decode attention measured (%v s); the test needs a GPU without", on.S.Eff.Kernels.AttnDecodeS)
	}
	if d := on.kernels - off.kernels; d != on.attnLayers || d != float64(m.NumLayers) {
		t.Errorf("H20 vLLM: +%v kernels, want one a layer (%d)", d, m.NumLayers)
	}
	pOn, _ := on.DecodeAt(1, 1024)
	pOff, _ := off.DecodeAt(1, 1024)
	if d, want := pOn.TPOTS-pOff.TPOTS, float64(m.NumLayers)*on.S.Eff.KernelGapS; d < want*0.999 || d > want*1.001 {
		t.Errorf("H20 vLLM batch 1: the step grows %.4g µs, want %.4g (one gap a layer)", d*1e6, want*1e6)
	}
	for _, c := range []struct {
		gpu    string
		sglang bool
	}{{"h100-sxm", false}, {"h20-96g", true}} {
		if a, b := build(c.gpu, c.sglang, true), build(c.gpu, c.sglang, false); a.kernels != b.kernels {
			t.Errorf("%s (SGLang %v): %v kernels on, %v off; want no change", c.gpu, c.sglang, a.kernels, b.kernels)
		}
	}
}
