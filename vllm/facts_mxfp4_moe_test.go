package vllm

import (
	"strings"
	"testing"
)

// The MXFP4 MoE kernel per release and GPU generation: Marlin on Hopper
// while vLLM did not ship triton_kernels (0.10.2–0.11.0), Triton once it
// vendors it (pinned from 0.14.0), unknown in between and before gpt-oss;
// FlashInfer TRT-LLM on Blackwell (pinned at 0.24.0, unverified before);
// the override variables win; other GPUs are unknown.
func TestMXFP4MoEBackend(t *testing.T) {
	for _, tc := range []struct {
		version  string
		sm       int
		env      map[string]string
		kernel   MXFP4MoEKernel
		verified bool
	}{
		{"0.10.2", 9, nil, MXFP4MoEMarlin, true},
		{"0.11.0", 9, nil, MXFP4MoEMarlin, true},
		{"0.11.1", 9, nil, MXFP4MoEUnknown, false},
		{"0.13.0", 9, nil, MXFP4MoEUnknown, false},
		{"0.14.0", 9, nil, MXFP4MoETriton, true},
		{"0.15.1", 9, nil, MXFP4MoETriton, true},
		{"0.24.0", 9, nil, MXFP4MoETriton, true},
		{"0.27.1", 9, nil, MXFP4MoETriton, true},
		{"0.15.1", 9, map[string]string{"VLLM_MXFP4_USE_MARLIN": "1"}, MXFP4MoEMarlin, true},
		{"0.24.0", 9, map[string]string{"VLLM_MXFP4_USE_MARLIN": "0"}, MXFP4MoETriton, true},
		{"0.24.0", 9, map[string]string{"VLLM_USE_FLASHINFER_MOE_MXFP4_BF16": "1"}, MXFP4MoEFlashInferSM90, true},
		{"0.24.0", 10, nil, MXFP4MoEFlashInferTRTLLM, true},
		{"0.27.1", 10, nil, MXFP4MoEFlashInferTRTLLM, true},
		{"0.11.0", 10, nil, MXFP4MoEFlashInferTRTLLM, false},
		{"0.24.0", 10, map[string]string{"VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8": "1"}, MXFP4MoEFlashInferMXFP8, true},
		{"0.24.0", 10, map[string]string{"VLLM_MXFP4_USE_MARLIN": "true"}, MXFP4MoEMarlin, true},
		{"0.10.0", 9, nil, MXFP4MoEUnknown, false},
		{"0.24.0", 8, nil, MXFP4MoEUnknown, false},
		{"0.24.0", 0, nil, MXFP4MoEUnknown, false},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		b := r.MXFP4MoEBackend(tc.sm, tc.env)
		if b.Kernel != tc.kernel || b.Verified != tc.verified {
			t.Errorf("%s SM%d %v: %q (verified %v), want %q (verified %v)", tc.version, tc.sm, tc.env, b.Kernel, b.Verified, tc.kernel, tc.verified)
		}
		if !strings.Contains(b.Source, "mxfp4.py") || !strings.Contains(b.Source, "aiconfigurator") {
			t.Errorf("%s: source %q does not cite vLLM's selection and the tables", tc.version, b.Source)
		}
	}
}

// On ROCm: OpenAI's Triton kernels on gfx942 at 0.17.x, the one release a
// source pins; other releases and gfx950 unknown.
func TestMXFP4MoEBackendROCm(t *testing.T) {
	for _, tc := range []struct {
		version, gfx string
		kernel       MXFP4MoEKernel
	}{
		{"0.17.0", "gfx942", MXFP4MoETriton},
		{"0.17.1", "gfx942", MXFP4MoETriton},
		{"0.15.1", "gfx942", MXFP4MoEUnknown},
		{"0.19.1", "gfx942", MXFP4MoEUnknown},
		{"0.17.0", "gfx950", MXFP4MoEUnknown},
		{"0.17.0", "", MXFP4MoEUnknown},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		b := r.MXFP4MoEBackendROCm(tc.gfx)
		if b.Kernel != tc.kernel || b.Verified != (tc.kernel != MXFP4MoEUnknown) {
			t.Errorf("%s %s: %q (verified %v), want %q", tc.version, tc.gfx, b.Kernel, b.Verified, tc.kernel)
		}
		if !strings.Contains(b.Source, "oracle/mxfp4.py") || !strings.Contains(b.Source, "InferenceX") {
			t.Errorf("%s: source %q does not cite the selection and the run", tc.version, b.Source)
		}
	}
}

// SM120 (RTX PRO 6000 Blackwell) runs Marlin on every release from gpt-oss's
// first: FlashInfer wants capability 100 (the SM100 family), the Triton gate
// stops below 11.0 (or triton_kernels was not shipped), FlashInfer CUTLASS
// takes MXFP4 × BF16 on SM90 only. VLLM_MXFP4_USE_MARLIN keeps it there.
func TestMXFP4MoEBackendSM120(t *testing.T) {
	for _, tc := range []struct {
		version string
		kernel  MXFP4MoEKernel
	}{
		{"0.10.1", MXFP4MoEMarlin},
		{"0.11.0", MXFP4MoEMarlin},
		{"0.14.0", MXFP4MoEMarlin},
		{"0.20.0", MXFP4MoEMarlin},
		{"0.24.0", MXFP4MoEMarlin},
		{"0.10.0", MXFP4MoEUnknown},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		b := r.MXFP4MoEBackend(12, nil)
		if b.Kernel != tc.kernel || b.Verified != (tc.kernel != MXFP4MoEUnknown) {
			t.Errorf("%s SM120: %q (verified %v), want %q", tc.version, b.Kernel, b.Verified, tc.kernel)
		}
		if tc.kernel != MXFP4MoEUnknown && !strings.Contains(b.Source, "SM120 → Marlin") {
			t.Errorf("%s SM120: source %q does not cite the SM120 reading", tc.version, b.Source)
		}
	}
}
