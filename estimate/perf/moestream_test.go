package perf

import (
	"bytes"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// The embedded moe_stream.json is the tool's output (extract.sh copies it).
func TestMoEStreamFileCopy(t *testing.T) {
	src, err := os.ReadFile("../../tools/aicdata/moe_stream.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, moeStreamJSON) {
		t.Error("estimate/perf/moe_stream.json differs from tools/aicdata/moe_stream.json (extract.sh copies it)")
	}
}

// TestMoEStreamRate: the tool reproduces the hand figure perf carried
// before it read the tables — b300_sxm, SGLang 0.5.14, nvfp4,
// sglang_flashinfer_trtllm_moe, DeepSeek-R1's shape (hidden 7,168, inter
// 2,048, 256 experts, top 8), moe_tp 1: one expert is 3 × 7,168 × 2,048
// weights at 4 bits plus one FP8 scale per 16 (0.5625 B) = 24,772,608 B;
// EP4 hits 32 more local experts from 16 to 32 tokens (0.1400 → 0.2499
// ms: 7.21e12 B/s), EP8 16 more (0.08375 → 0.13955 ms: 7.10e12); their
// mean was 7.16e12. The rate applied is the entry's median over its 10
// shapes and in-node layouts, 6.91e12 (0.89 of the B300's 7.75e12),
// within the spread and below the HBM peak.
func TestMoEStreamRate(t *testing.T) {
	const expert = 3 * 7168 * 2048 * 0.5625
	if expert != 24772608 {
		t.Fatalf("expert bytes %v", expert)
	}
	e := moeStreamFor("b300_sxm", "sglang", "nvfp4", sglangNVFP4Kernel)
	if e == nil {
		t.Fatal("no b300_sxm SGLang NVFP4 entry")
	}
	byEP := map[int]float64{}
	for _, p := range e.Points {
		if p.Shape == "H7168_I2048_k8_E256" && p.TP == 1 {
			byEP[p.EP] = p.BytesPerS
		}
	}
	ep4 := 32 * expert / ((0.2499 - 0.1400) * 1e-3)
	ep8 := 16 * expert / ((0.13955 - 0.08375) * 1e-3)
	if math.Abs(byEP[4]/ep4-1) > 0.005 || math.Abs(byEP[8]/ep8-1) > 0.005 {
		t.Errorf("DeepSeek EP4/EP8 slopes %.4g / %.4g, by hand %.4g / %.4g", byEP[4], byEP[8], ep4, ep8)
	}
	if mean := (byEP[4] + byEP[8]) / 2; math.Abs(mean/7.16e12-1) > 0.005 {
		t.Errorf("EP4/EP8 mean %.4g, the hand figure 7.16e12", mean)
	}
	hbm := perfGPU(t, "b300").HBMBandwidthGBytesPerS * 1e9
	if e.BytesPerS > hbm || e.BytesPerS < 0.8*hbm || e.Shapes < 5 {
		t.Errorf("B300 NVFP4 rate %.3g B/s over %d shapes, HBM %.3g", e.BytesPerS, e.Shapes, hbm)
	}
	for _, p := range e.Points {
		if p.BytesPerS > hbm || p.TP*p.EP > 8 {
			t.Errorf("point %+v: above HBM or beyond a node", p)
		}
	}
}

// The memory side of a decode step's experts: DeepSeek-R1 NVFP4 on
// 4 × B300 (EP4) under SGLang streams its experts at the table's rate
// with UseMeasuredMoEStream, and at HBM × ExpertHBM of the peak without
// it, or for a vLLM deployment (no release fact pins vLLM's NVFP4 MoE
// kernel) unless UseMeasuredMoEStreamUnpinned, or for FP8 experts under
// SGLang (its table times two FP8 runners; none applied).
func TestExpertStreamRateApplies(t *testing.T) {
	g := perfGPU(t, "b300")
	setup := func(dtype string, sglang bool) StepSetup {
		return StepSetup{Model: perfModel(t, "deepseek-r1"), HW: NewHardware(g, 4, 0, 2, 0, 0, 0), TP: 4, PP: 1, DP: 1, EP: true,
			WeightDType: dtype, KVDType: "fp8", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)}
	}
	const tokens = 32
	mem := func(s StepSetup) (memory, bytes float64) {
		sm := NewStepModel(s)
		var st StepTime
		sm.expertTime(tokens, &st)
		_, bytes = sm.expertWork(tokens)
		return st.MemoryS, bytes
	}
	s := setup("nvfp4", true)
	if s.Eff.Kernels.System != "b300_sxm" {
		t.Fatalf("B300 kernels from %q", s.Eff.Kernels.System)
	}
	e := moeStreamFor("b300_sxm", "sglang", "nvfp4", sglangNVFP4Kernel)
	slice := NewStepModel(s).expertSlice()
	// DeepSeek-R1's expert whole on each EP rank: 3 × 7,168 × 2,048
	// weights, 22–25 MB at NVFP4; the window ×2 either side holds the
	// table's 11.8–47 MiB slices.
	if slice < 20e6 || slice > 26e6 {
		t.Fatalf("DeepSeek-R1 NVFP4 expert slice %.3g B", slice)
	}
	var win []float64
	for _, p := range e.Points {
		if p.ExpertBytes >= slice/2 && p.ExpertBytes <= slice*2 {
			win = append(win, p.BytesPerS)
		}
	}
	sort.Float64s(win)
	rate := win[len(win)/2]
	if len(win)%2 == 0 {
		rate = (win[len(win)/2-1] + win[len(win)/2]) / 2
	}
	if len(win) < 10 || rate <= e.BytesPerS || math.Abs(rate/7.16e12-1) > 0.02 {
		t.Errorf("rate at a %.3g B slice %.4g over %d points (entry median %.4g); the DeepSeek hand figure 7.16e12", slice, rate, len(win), e.BytesPerS)
	}
	fitted := s.HW.HBMBytesPerS * s.Eff.HBM * scale(s.Eff.ExpertHBM)
	m, b := mem(s)
	if !perfNear(m, b/rate, 1e-12) {
		t.Errorf("SGLang NVFP4 on B300: experts' memory %.3f ms, want %.3g B / %.3g = %.3f ms", m*1e3, b, rate, b/rate*1e3)
	}
	fittedOf := func(o StepSetup) float64 { return o.HW.HBMBytesPerS * o.Eff.HBM * scale(o.Eff.ExpertHBM) }
	for name, o := range map[string]StepSetup{"vLLM": setup("nvfp4", false), "FP8": setup("fp8", true)} {
		if m, b := mem(o); !perfNear(m, b/fittedOf(o), 1e-12) {
			t.Errorf("%s: experts' memory %.3f ms, want the fitted rate's", name, m*1e3)
		}
	}
	func() {
		defer func(u bool) { UseMeasuredMoEStreamUnpinned = u }(UseMeasuredMoEStreamUnpinned)
		UseMeasuredMoEStreamUnpinned = true
		v := moeStreamMajority("b300_sxm", "vllm", "nvfp4")
		if v == nil || v.Kernel != "vllm_compressedtensorsw4a4nvfp4moe_flashinfer_trtllm_trtllmnvfp4expertsmonolithic" {
			t.Fatalf("vLLM NVFP4 majority kernel %+v", v)
		}
		r := v.rateFor(slice)
		if m, b := mem(setup("nvfp4", false)); !perfNear(m, b/r, 1e-12) {
			t.Errorf("unpinned switch on: vLLM NVFP4 experts' memory %.3f ms, want %.3f", m*1e3, b/r*1e3)
		}
	}()
	defer func(u bool) { UseMeasuredMoEStream = u }(UseMeasuredMoEStream)
	UseMeasuredMoEStream = false
	if m, b := mem(s); !perfNear(m, b/fitted, 1e-12) {
		t.Errorf("switch off: experts' memory %.3f ms, want %.3f at the fitted %.3g B/s", m*1e3, b/fitted*1e3, fitted)
	}
}

// gpt-oss under vLLM: the rate of the kernel the release runs, only where
// ForRelease kept the MXFP4 curve (the release's MXFP4MoEBackend is the
// kernel the table timed): 0.24.0 on H200 runs Triton (the table's
// OAITritonMxfp4Experts rate), 0.10.2 runs Marlin (no rate).
// (With UseMeasuredMoEStreamVLLMMXFP4 on: off by default, see its comment;
// TestExpertStreamRateVLLMMXFP4Off holds the default.)
func TestExpertStreamRateMXFP4(t *testing.T) {
	defer func(v bool) { UseMeasuredMoEStreamVLLMMXFP4 = v }(UseMeasuredMoEStreamVLLMMXFP4)
	UseMeasuredMoEStreamVLLMMXFP4 = true
	g := perfGPU(t, "h200")
	at := func(ver string) float64 {
		rel, _, err := vllm.ResolveString(ver)
		if err != nil {
			t.Fatal(err)
		}
		s := StepSetup{Model: perfModel(t, "gpt-oss-120b"), HW: NewHardware(g, 1, 0, 1, 0, 0, 0), TP: 1, PP: 1, DP: 1,
			WeightDType: "mxfp4", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, true, nil)}
		return NewStepModel(s).expertStreamRate()
	}
	want := moeStreamFor("h200_sxm", "vllm", "w4a16_mxfp4", vllmMXFP4Kernels[vllm.MXFP4MoETriton])
	if want == nil {
		t.Fatal("no H200 Triton MXFP4 entry")
	}
	if got := at("0.24.0"); got <= 0 || got < want.Min || got > want.Max {
		t.Errorf("0.24.0 on H200: %.3g B/s, want the Triton entry's (%.3g–%.3g)", got, want.Min, want.Max)
	}
	if got := at("0.10.2"); got != 0 {
		t.Errorf("0.10.2 on H200 (Marlin): %.3g B/s, want none", got)
	}
}

// TestExpertStreamRateVLLMMXFP4Off: by default vLLM's MXFP4 experts keep the
// fitted streaming rate (UseMeasuredMoEStreamVLLMMXFP4 off), where the
// release runs the kernel the table timed as well.
func TestExpertStreamRateVLLMMXFP4Off(t *testing.T) {
	if UseMeasuredMoEStreamVLLMMXFP4 {
		t.Skip("switch on")
	}
	g := perfGPU(t, "h200")
	rel, _, err := vllm.ResolveString("0.24.0")
	if err != nil {
		t.Fatal(err)
	}
	s := StepSetup{Model: perfModel(t, "gpt-oss-120b"), HW: NewHardware(g, 1, 0, 1, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "mxfp4", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, true, nil)}
	if r := NewStepModel(s).expertStreamRate(); r != 0 {
		t.Errorf("vLLM 0.24.0 gpt-oss on H200 streams at a measured %.3g B/s; want the fitted rate (0) with the switch off", r)
	}
}
