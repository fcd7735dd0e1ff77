package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestNVFP4TableAgainstFloors reads the measured NVFP4 and BF16 tables on
// B200 at one layer, Llama-3.1-70B's down_proj at TP1 (N = hidden 8192,
// K = intermediate 28672: 234.9M weights), and checks them against floors
// derived by hand from the catalog's B200 figures (HBM 7.7 TB/s, BF16
// 2,250 and FP4 9,000 dense TFLOPS: NVIDIA's HGX B200 table, catalog/
// gpus.go):
//
//   - batch 1 streams the weights: BF16 2 B a weight = 469.8 MB -> 61.0 µs,
//     NVFP4 0.5625 B (4 bits + one FP8 scale per 16) = 132.1 MB -> 17.2 µs,
//     a 3.56× ratio of floors;
//   - M = 4096 computes: 2·4096·8192·28672 = 1.924 TFLOP -> 855 µs at the
//     BF16 peak, 214 µs at the FP4 peak, a 4× ratio.
//
// Each table must sit above its floor, and NVFP4 must be faster than BF16
// by more than 1.5× and by no more than the ratio of the floors (the
// tables read 76.0 / 34.1 µs, 2.23×, and 1,244 / 451 µs, 2.76×). A
// launch-bound shape runs the other way: DeepSeek's shared-expert
// down_proj at TP4 (N = 7168, K = 512) takes two kernels in NVFP4 (the
// activation quantization and the GEMM) and reads 7.1 µs against BF16's
// 3.1 at batch 1.
func TestNVFP4TableAgainstFloors(t *testing.T) {
	g := perfGPU(t, "b200")
	hbm, bf16, fp4 := g.HBMBandwidthGBytesPerS*1e9, g.BF16TFLOPS*1e12, g.FP4TFLOPS*1e12
	if hbm != 7.7e12 || bf16 != 2.25e15 || fp4 != 9e15 {
		t.Fatalf("B200 figures changed: %v %v %v", hbm, bf16, fp4)
	}
	const n, k = 8192, 28672
	for _, c := range []struct {
		m             float64
		bfFloor, nvFl float64 // s
	}{
		{1, n * k * 2 / 7.7e12, n * k * 0.5625 / 7.7e12},
		{4096, 2 * 4096 * n * k / 2.25e15, 2 * 4096 * n * k / 9e15},
	} {
		b, ok1 := GEMMTime(g, GEMMTableBF16, c.m, n, k)
		v, ok2 := GEMMTime(g, GEMMTableNVFP4, c.m, n, k)
		if !ok1 || !ok2 {
			t.Fatalf("B200 tables missing: bf16 %v nvfp4 %v", ok1, ok2)
		}
		if b < c.bfFloor || v < c.nvFl {
			t.Errorf("M=%v: below the floors: bf16 %.1f µs (floor %.1f), nvfp4 %.1f µs (floor %.1f)", c.m, b*1e6, c.bfFloor*1e6, v*1e6, c.nvFl*1e6)
		}
		if r, most := b/v, c.bfFloor/c.nvFl; r < 1.5 || r > most {
			t.Errorf("M=%v: bf16/nvfp4 = %.2f (%.1f / %.1f µs), want 1.5 … %.2f", c.m, r, b*1e6, v*1e6, most)
		}
	}
	b, _ := GEMMTime(g, GEMMTableBF16, 1, 7168, 512)
	v, _ := GEMMTime(g, GEMMTableNVFP4, 1, 7168, 512)
	if v <= b || v < 6e-6 {
		t.Errorf("launch-bound N=7168 K=512 at M=1: nvfp4 %.2f µs, bf16 %.2f µs; want NVFP4 slower (two kernels, ≥ 6 µs)", v*1e6, b*1e6)
	}
	for _, gpu := range []string{"b300", "gb200", "rtx-pro-6000"} {
		if _, ok := GEMMTime(perfGPU(t, gpu), GEMMTableNVFP4, 1, n, k); !ok {
			t.Errorf("%s: no NVFP4 table", gpu)
		}
	}
	for _, gpu := range []string{"h100-sxm", "h200", "a100-80g", "l40s"} {
		if _, ok := GEMMTime(perfGPU(t, gpu), GEMMTableNVFP4, 1, n, k); ok {
			t.Errorf("%s: an NVFP4 table where aiconfigurator timed none (no FP4 tensor cores)", gpu)
		}
	}
}

// TestNVFP4DenseProjections: nvidia/DeepSeek-V3.1-NVFP4 at TP4 on B200
// (catalog/testdata/ckpt; ModelOpt's exclude_modules keep q_a, q_b, kv_a
// and kv_b in BF16 in every layer, o_proj, the 3 dense MLPs and the 58
// shared experts are NVFP4) prices o_proj (N 7168, K 32·128), the dense
// MLP (N 2·18432/4, K 7168; N 7168, K 18432/4) and the shared expert
// (N 2·2048/4, K 7168; N 7168, K 512) from the NVFP4 table with the switch
// on, and every projection from the BF16 table with it off; the router
// and LM head stay BF16. The report says which.
func TestNVFP4DenseProjections(t *testing.T) {
	defer func(a, b bool) { UseGEMMTables, UseNVFP4DenseGEMM = a, b }(UseGEMMTables, UseNVFP4DenseGEMM)
	UseGEMMTables = true
	in := hfInput(t, "../../catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json", "b200", 4, true)
	s := SetupFromInput(in)
	if p := s.Storage.NVFP4; !p.Attention || !p.DenseMLP || !p.Shared {
		t.Fatalf("storage rule: NVFP4 parts %+v, want attention (o_proj), dense MLP and shared experts", p)
	}
	type shape struct {
		n, k, count float64
		dt          GEMMDType
	}
	bf, nv := GEMMTableBF16, GEMMTableNVFP4
	want := []shape{
		{1536 + 512 + 64, 7168, 61, bf}, {32 * 192, 1536, 61, bf}, {32 * 256, 512, 61, bf}, {7168, 32 * 128, 61, nv},
		{2 * 18432 / 4, 7168, 3, nv}, {7168, 18432 / 4, 3, nv},
		{256, 7168, 58, bf}, {2 * 2048 / 4, 7168, 58, nv}, {7168, 2048 / 4, 58, nv},
		{129280 / 4, 7168, 1, bf},
	}
	for _, on := range []bool{true, false} {
		UseNVFP4DenseGEMM = on
		got := gemmShapesOf(&s)
		if len(got) != len(want) {
			var list []shape
			for _, g := range got {
				list = append(list, shape{g.n, g.k, g.count, g.dt})
			}
			t.Fatalf("switch %v: %d shapes, want %d: %+v", on, len(got), len(want), list)
		}
		for i, w := range want {
			dt := w.dt
			if !on {
				dt = bf
			}
			if g := got[i]; g.n != w.n || g.k != w.k || math.Abs(g.count-w.count) > 1e-9 || g.dt != dt {
				t.Errorf("switch %v shape %d: N %v K %v ×%v %s, want N %v K %v ×%v %s", on, i, g.n, g.k, g.count, g.dt, w.n, w.k, w.count, dt)
			}
		}
		gemm, _ := s.Precisions()
		table := s.DenseGEMMTable()
		if on && (gemm != "nvfp4" || table != "b200_sxm nvfp4 for the projections stored in NVFP4, bfloat16 for the others") ||
			!on && (gemm != "bf16" || table != "b200_sxm bfloat16") {
			t.Errorf("switch %v: GEMMs %q, table %q", on, gemm, table)
		}
	}

	// A 4,096-token prefill step computes: the NVFP4 projections take
	// less time; a batch-1 decode step's NVFP4 projections are launch-bound
	// at TP4 (o_proj 10.5 against 12.4 µs, but the shared expert's down
	// 7.1 against 3.1): the measured tables make it slower.
	step := func(on bool, l RankLoad) float64 {
		UseNVFP4DenseGEMM = on
		return NewStepModel(s).StepUniform(l).DenseS
	}
	pre := RankLoad{PrefillSeqs: 1, PrefillTokens: 4096}
	dec := RankLoad{DecodeSeqs: 1, DecodeCtx: 4096}
	if a, b := step(false, pre), step(true, pre); b >= a {
		t.Errorf("prefill 4096: dense %.3g ms with NVFP4, %.3g ms without; want faster", b*1e3, a*1e3)
	}
	if a, b := step(false, dec), step(true, dec); b <= a {
		t.Errorf("decode batch 1: dense %.4g ms with NVFP4, %.4g ms without; want slower (launch-bound shapes)", b*1e3, a*1e3)
	}
}

// TestNVFP4SwitchLeavesOthers: checkpoints whose dense projections the
// storage rule does not read as NVFP4 — BF16 Llama-3.1-8B and FP8
// DeepSeek-V3 on B200, Kimi-K2.6-NVFP4 (NVFP4 experts only) on B200 — and
// an NVFP4 checkpoint on H100 (no FP4 tensor cores, no table) price their
// steps identically with the switch on and off.
func TestNVFP4SwitchLeavesOthers(t *testing.T) {
	defer func(a, b bool) { UseGEMMTables, UseNVFP4DenseGEMM = a, b }(UseGEMMTables, UseNVFP4DenseGEMM)
	UseGEMMTables = true
	cases := map[string]*input.Input{
		"llama-3.1-8b bf16 b200": testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "b200", TP: 1, MaxModelLen: 8192}),
		"deepseek-v3 fp8 b200":   testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v3", GPU: "b200", TP: 8, MaxModelLen: 8192}),
		"deepseek-v3.1-nvfp4 h100": hfInput(t, "../../catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json",
			"h100-sxm", 8, true),
		// NVFP4 routed experts only: every dense projection excluded.
		"kimi-k2.6-nvfp4 b200": hfInput(t, "../../catalog/testdata/ckpt/nvidia--Kimi-K2.6-NVFP4/config.json", "b200", 8, true),
	}
	for name, in := range cases {
		for _, l := range []RankLoad{{DecodeSeqs: 8, DecodeCtx: 8 * 2048}, {PrefillSeqs: 1, PrefillTokens: 4096}} {
			UseNVFP4DenseGEMM = false
			s := SetupFromInput(in)
			off := NewStepModel(s).StepUniform(l)
			UseNVFP4DenseGEMM = true
			on := NewStepModel(s).StepUniform(l)
			if on != off {
				t.Errorf("%s %+v: step changed with the switch: %+v -> %+v", name, l, off, on)
			}
			if gemm, _ := s.Precisions(); gemm == "nvfp4" {
				t.Errorf("%s: GEMMs labelled nvfp4", name)
			}
		}
	}
}

// TestNVFP4RooflineSplit: on a GPU with FP4 tensor cores but no measured
// tables (GB300), the scalar roofline computes the projections
// DeepSeek-V3.1-NVFP4 stores in NVFP4 at the FP4 peak and the rest at the
// BF16 one (with the switch; off, every dense FLOP at the FP4 peak). Per
// GPU at TP4, by hand: the attention's NVFP4 share is o_proj's among the
// rank's projections (o 32·128·7168 = 29,360,128 of q_a 7168·1536 + kv_a
// 7168·576 + q_b 1536·32·192 + kv_b 512·32·256 + o = 58,130,432), applied
// to the attention component (its q_a/kv_a norms, 2,048 a layer,
// included), as the storage rule blends the bytes: 61 layers ×
// 29,360,128 × (1 + 2,048/58,130,432); dense MLP 3 × 7168 × 18432/4 × 3
// layers = 297,271,296; shared expert 3 × 7168 × 2048/4 × 58 layers
// = 638,582,784; in all 2,726,884,988 NVFP4 weights. An 8,192-token
// prefill's dense term is then compute-bound at their FLOPs over the FP4
// peak plus the other FLOPs (the LM head's for its one sampled row) over
// the BF16 one, both at the GEMM efficiency.
func TestNVFP4RooflineSplit(t *testing.T) {
	defer func(a, b bool) { UseGEMMTables, UseNVFP4DenseGEMM = a, b }(UseGEMMTables, UseNVFP4DenseGEMM)
	UseGEMMTables = true
	in := hfInput(t, "../../catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json", "gb300", 4, true)
	s := SetupFromInput(in)
	if _, ok := MeasuredKernels(in.GPU); ok {
		t.Fatal("GB300 has measured tables now: pick another GPU without them")
	}
	UseNVFP4DenseGEMM = true
	on := NewStepModel(s)
	UseNVFP4DenseGEMM = false
	off := NewStepModel(s)
	fp4Params := 61*29360128*(1+2048.0/58130432) + 297271296 + 638582784
	if !on.fp4Split || off.fp4Split || math.Abs(on.denseFP4ParamsGPU-fp4Params) > 1 {
		t.Fatalf("split %v/%v, NVFP4 params %.0f, want %.0f", on.fp4Split, off.fp4Split, on.denseFP4ParamsGPU, fp4Params)
	}
	l := RankLoad{PrefillSeqs: 1, PrefillTokens: 8192}
	a, b := off.StepUniform(l).DenseS, on.StepUniform(l).DenseS
	tok := 8192.0
	other := 2*tok*(on.denseParamsGPU-fp4Params) + 2*1*on.lmHeadParamsGPU
	eff := s.gemmEff()
	want := 2*tok*fp4Params/(s.HW.FP4FLOPS*eff) + other/(s.HW.BF16FLOPS*eff)
	if math.Abs(b/want-1) > 1e-6 || a >= b {
		t.Errorf("dense term %.4g ms with the switch, want the split compute %.4g ms (off: %.4g ms)", b*1e3, want*1e3, a*1e3)
	}
	if gemm, _ := s.Precisions(); gemm != "fp4 roofline" {
		t.Errorf("GB300 label %q, want fp4 roofline", gemm)
	}
}
