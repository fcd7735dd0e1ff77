package perf

import (
	"math"
	"testing"
)

// TestQKNormKernels: with UseQKNormKernels a vLLM Qwen3 stage runs two
// more kernels per attention layer (q_norm, k_norm) and a batch-1 decode
// step grows by those kernels' gaps plus their traffic; Llama (no q/k
// norm) and SGLang's Qwen3 do not change, nor does anything with the
// switch off.
func TestQKNormKernels(t *testing.T) {
	g := perfGPU(t, "h100-sxm")
	setup := func(id string, sglang bool) StepSetup {
		return StepSetup{Model: perfModel(t, id), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)}
	}
	defer func(v bool) { UseQKNormKernels = v }(UseQKNormKernels)
	build := func(on bool, id string, sglang bool) *StepModel {
		UseQKNormKernels = on
		return NewStepModel(setup(id, sglang))
	}
	qOn, qOff := build(true, "qwen3-14b", false), build(false, "qwen3-14b", false)
	layers := float64(qOn.S.Model.NumLayers)
	if d := qOn.kernels - qOff.kernels; math.Abs(d-2*layers) > 1e-9 {
		t.Errorf("Qwen3-14B vLLM: +%v kernels, want +%v (two per attention layer)", d, 2*layers)
	}
	pOn, _ := qOn.DecodeAt(1, 1024)
	pOff, _ := qOff.DecodeAt(1, 1024)
	gaps := 2 * layers * qOn.S.Eff.KernelGapS
	if d := pOn.TPOTS - pOff.TPOTS; d < gaps-1e-12 || d > gaps*1.05 {
		t.Errorf("Qwen3-14B vLLM batch 1: the step grows %.4g µs, want the %.4g µs of gaps and a little traffic", d*1e6, gaps*1e6)
	}
	for _, c := range []struct {
		id     string
		sglang bool
	}{{"llama-3.1-70b", false}, {"qwen3-14b", true}} {
		on, off := build(true, c.id, c.sglang), build(false, c.id, c.sglang)
		if on.kernels != off.kernels || on.qkNormBytesTok != 0 {
			t.Errorf("%s (SGLang %v): %v kernels on, %v off, %v B a token; want no change", c.id, c.sglang, on.kernels, off.kernels, on.qkNormBytesTok)
		}
	}
}
