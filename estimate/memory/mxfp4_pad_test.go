package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// gptOSSStored is one GPU's stored routed-expert elements of a gpt-oss
// model with experts experts in layers MoE layers, every expert stored at
// hidden h and per-rank intermediate i: gate_up (2·h·i) and down (h·i)
// weights plus the gate_up (2·i) and down (h) biases.
func gptOSSStored(layers, experts, h, i int) float64 {
	return float64(layers * experts * (3*h*i + 2*i + h))
}

// TestMXFP4PaddingFollowsKernel: gpt-oss's expert padding follows the
// kernel vLLM 0.24.0 selects on the GPU, derived by hand from hidden 2880,
// intermediate 2880 split over TP:
//
//   - H100 (SM90): OpenAI Triton, whose create_weights shape (hidden as
//     is, intermediate to 64: TP1 2880 × 2880, TP2 2880 × 1472, TP8
//     2880 × 384) logs of this path exceed, so Marlin's padding stands in
//     (tritonLoadedStandIn): 3072 × 2944, 3072 × 1536, 3072 × 384;
//   - B200 (SM100): FlashInfer TRT-LLM, 256/256 — 3072 × 3072, 3072 ×
//     1536, 3072 × 512;
//   - RTX PRO 6000 (SM120): Marlin, hidden 256, intermediate 128 — 3072 ×
//     2944, 3072 × 1536, 3072 × 384.
//
// gpt-oss-120b has 36 MoE layers of 128 experts, gpt-oss-20b 24 of 32.
func TestMXFP4PaddingFollowsKernel(t *testing.T) {
	type shape struct{ h, i int }
	want := map[string]map[int]shape{
		"h100":         {1: {3072, 2944}, 2: {3072, 1536}, 8: {3072, 384}},
		"b200":         {1: {3072, 3072}, 2: {3072, 1536}, 8: {3072, 512}},
		"rtx-pro-6000": {1: {3072, 2944}, 2: {3072, 1536}, 8: {3072, 384}},
	}
	kernel := map[string]string{"h100": "triton_kernels", "b200": "flashinfer_trtllm_mxfp4_bf16", "rtx-pro-6000": "marlin"}
	for _, mdl := range []struct {
		id              string
		layers, experts int
	}{{"gpt-oss-120b", 36, 128}, {"gpt-oss-20b", 24, 32}} {
		for gpu, byTP := range want {
			for tp, s := range byTP {
				name := fmt.Sprintf("%s/%s/TP%d", mdl.id, gpu, tp)
				in := testinput.Quick(t, resolve.QuickOptions{Model: mdl.id, GPU: gpu, TP: tp, MaxModelLen: 8192, VLLMVersion: "0.24.0"})
				sh := routedShare(t, in)
				if w := gptOSSStored(mdl.layers, mdl.experts, s.h, s.i); sh.StoredPerGPU != w {
					t.Errorf("%s: stored %.0f elements, want %.0f (%d × %d)", name, sh.StoredPerGPU, w, s.h, s.i)
				}
				if !strings.Contains(sh.Placement, fmt.Sprintf(" %d × %d (hidden × intermediate per rank)", s.h, s.i)) || !strings.Contains(sh.Placement, kernel[gpu]) || strings.Contains(sh.Placement, "ASSUMED") {
					t.Errorf("%s: placement %q does not name %d × %d for %s", name, sh.Placement, s.h, s.i, kernel[gpu])
				}
				if standIn := strings.Contains(sh.Placement, "stands in"); standIn != (gpu == "h100") {
					t.Errorf("%s: stand-in flagged %v: %q", name, standIn, sh.Placement)
				}
			}
		}
	}
}

// TestMXFP4PaddingTritonRule: the Triton rule vLLM's create_weights applies
// (hidden as is, intermediate to 64) is what MXFP4ExpertPadding reports,
// even though the memory model counts the stand-in: 1440 → 1472 at TP2.
func TestMXFP4PaddingTritonRule(t *testing.T) {
	r, _, err := vllm.ResolveString("0.24.0")
	if err != nil {
		t.Fatal(err)
	}
	p := r.MXFP4ExpertPadding(vllm.MXFP4MoETriton, false, "")
	if !p.Known || roundUp(2880, p.Hidden) != 2880 || roundUp(1440, p.Inter) != 1472 {
		t.Errorf("Triton padding %+v", p)
	}
}

// TestMXFP4PaddingByRelease: on Hopper the kernel, hence the padding, moves
// with the release — Marlin (256/128) at 0.11.0, when vLLM did not ship
// triton_kernels, Triton at 0.14.0 (counted with Marlin's padding as the
// measured stand-in); on the SM120 RTX PRO 6000
// Marlin on both. Where the kernel is not pinned (Hopper at 0.13.0) the
// Marlin padding is assumed and the placement says so.
func TestMXFP4PaddingByRelease(t *testing.T) {
	for _, tc := range []struct {
		version, gpu string
		tp, h, i     int
		assumed      bool
	}{
		{"0.11.0", "h100", 2, 3072, 1536, false},
		{"0.14.0", "h100", 2, 3072, 1536, false},
		{"0.13.0", "h100", 2, 3072, 1536, true},
		{"0.11.0", "rtx-pro-6000", 1, 3072, 2944, false},
		{"0.14.0", "rtx-pro-6000", 8, 3072, 384, false},
	} {
		in := testinput.Quick(t, resolve.QuickOptions{Model: "gpt-oss-120b", GPU: tc.gpu, TP: tc.tp, MaxModelLen: 8192, VLLMVersion: tc.version})
		sh := routedShare(t, in)
		if w := gptOSSStored(36, 128, tc.h, tc.i); sh.StoredPerGPU != w {
			t.Errorf("%s %s TP%d: stored %.0f, want %.0f (%d × %d)", tc.version, tc.gpu, tc.tp, sh.StoredPerGPU, w, tc.h, tc.i)
		}
		if got := strings.Contains(sh.Placement, "ASSUMED"); got != tc.assumed {
			t.Errorf("%s %s: assumption flagged %v, want %v: %q", tc.version, tc.gpu, got, tc.assumed, sh.Placement)
		}
	}
}

// TestMXFP4PaddingAMD: MI300X (gfx942) at 0.17.0 runs OpenAI Triton and
// get_padding_alignment() gives 128 for both sizes; at 0.24.0 the kernel is
// not pinned but every ROCm backend pads to 256; at 0.13.0 neither is read
// and the Marlin-like 256/128 is assumed.
func TestMXFP4PaddingAMD(t *testing.T) {
	g, err := catalog.LookupGPU("mi300x")
	if err != nil {
		t.Fatal(err)
	}
	if amdGFX(g) != "gfx942" {
		t.Fatalf("gfx %q", amdGFX(g))
	}
	for _, tc := range []struct {
		version string
		pad     mxfpPad
	}{
		{"0.17.0", mxfpPad{128, 128, vllm.MXFP4MoETriton, false, false}},
		{"0.24.0", mxfpPad{256, 256, vllm.MXFP4MoEUnknown, false, false}},
		{"0.13.0", mxfpPad{256, 128, vllm.MXFP4MoEMarlin, true, false}},
	} {
		in := &input.Input{GPU: g, VLLMVersion: tc.version}
		if got := mxfp4Padding(in); got != tc.pad {
			t.Errorf("%s: %+v, want %+v", tc.version, got, tc.pad)
		}
	}
}

func routedShare(t *testing.T, in *input.Input) WeightTerm {
	t.Helper()
	r := Estimate(in)
	for _, w := range r.Weights {
		if w.Component == CompRouted {
			return w
		}
	}
	t.Fatalf("no routed experts in %+v", r.Weights)
	return WeightTerm{}
}
