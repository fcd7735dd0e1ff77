package vllm

import "testing"

// The padding follows the kernel: Marlin 256/128, TRT-LLM 256/256, SM90
// FlashInfer CUTLASS 128/128 (256/256 at 0.10.1's single FlashInfer rule),
// Triton on CUDA intermediate to 64 only; ROCm by gfx at 0.17.0 (gfx942
// 128, gfx950 256) and 256 at 0.24.0; the MXFP8 pair and unread releases
// unknown.
func TestMXFP4ExpertPadding(t *testing.T) {
	for _, tc := range []struct {
		version string
		kernel  MXFP4MoEKernel
		rocm    bool
		gfx     string
		h, i    int
		known   bool
	}{
		{"0.24.0", MXFP4MoEMarlin, false, "", 256, 128, true},
		{"0.10.1", MXFP4MoEMarlin, false, "", 256, 128, true},
		{"0.24.0", MXFP4MoEFlashInferTRTLLM, false, "", 256, 256, true},
		{"0.24.0", MXFP4MoEFlashInferSM90, false, "", 128, 128, true},
		{"0.10.1", MXFP4MoEFlashInferSM90, false, "", 256, 256, true},
		{"0.10.2", MXFP4MoEFlashInferSM90, false, "", 1, 1, false},
		{"0.14.0", MXFP4MoETriton, false, "", 1, 64, true},
		{"0.24.0", MXFP4MoEFlashInferMXFP8, false, "", 1, 1, false},
		{"0.17.0", MXFP4MoETriton, true, "gfx942", 128, 128, true},
		{"0.17.0", MXFP4MoEAITERCK, true, "gfx950", 256, 256, true},
		{"0.24.0", MXFP4MoETriton, true, "gfx942", 256, 256, true},
		{"0.24.0", MXFP4MoEUnknown, true, "gfx942", 256, 256, true},
		{"0.18.0", MXFP4MoETriton, true, "gfx942", 128, 128, true},
		{"0.19.0", MXFP4MoETriton, true, "gfx942", 256, 256, true},
		{"0.13.0", MXFP4MoETriton, true, "gfx942", 1, 1, false},
		{"0.11.0", MXFP4MoETriton, true, "gfx942", 1, 1, false},
		{"0.10.0", MXFP4MoEMarlin, false, "", 1, 1, false},
		{"0.24.0", MXFP4MoEUnknown, false, "", 1, 1, false},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		p := r.MXFP4ExpertPadding(tc.kernel, tc.rocm, tc.gfx)
		if p.Hidden != tc.h || p.Inter != tc.i || p.Known != tc.known {
			t.Errorf("%s %s rocm=%v %s: %+v, want %d/%d known %v", tc.version, tc.kernel, tc.rocm, tc.gfx, p, tc.h, tc.i, tc.known)
		}
	}
}
