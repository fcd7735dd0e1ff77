package vllm

import (
	"strings"
	"testing"
)

// A compressed-tensors MXFP4 checkpoint's experts: CUTLASS W4A4 on the
// SM100–SM110 family for an activation CUTLASS lists (verified at 0.28.0,
// the release a source pins, and at 0.20.0–0.24.x, whose tags were read),
// Marlin W4A16 on Hopper, Marlin everywhere at 0.15.0–0.19.x (form 1),
// unknown on SM120, for SiTU experts, an unknown activation and before the
// method existed (0.15.0).
func TestPackedMXFP4MoEBackend(t *testing.T) {
	for _, tc := range []struct {
		version  string
		sm       int
		act      string
		kernel   MXFP4MoEKernel
		verified bool
		acts     string
	}{
		{"0.28.0", 10, "silu", MXFP4MoECutlassW4A4, true, "mxfp4"},
		{"0.28.0", 11, "gelu", MXFP4MoECutlassW4A4, true, "mxfp4"},
		{"0.26.0", 10, "silu", MXFP4MoECutlassW4A4, false, "mxfp4"},
		{"0.27.1", 10, "swigluoai", MXFP4MoECutlassW4A4, false, "mxfp4"},
		{"0.28.0", 9, "silu", MXFP4MoEMarlin, true, "bf16"},
		{"0.24.0", 9, "silu", MXFP4MoEMarlin, true, "bf16"},             // form 2, read at the v0.24.0 tag
		{"0.22.0", 10, "swigluoai", MXFP4MoECutlassW4A4, true, "mxfp4"}, // form 2, read at v0.20.0-v0.24.0
		{"0.20.0", 11, "silu", MXFP4MoECutlassW4A4, true, "mxfp4"},
		{"0.19.0", 10, "silu", MXFP4MoEMarlin, true, "bf16"}, // form 1: hard-coded Marlin at v0.15.0-v0.19.0
		{"0.15.0", 9, "silu", MXFP4MoEMarlin, true, "bf16"},
		{"0.19.0", 10, "swigluoai", MXFP4MoEUnknown, false, ""}, // Marlin's activation list not read
		{"0.14.0", 10, "silu", MXFP4MoEUnknown, false, ""},      // no packed MXFP4 MoE method at v0.14.1
		{"0.28.0", 10, "situ", MXFP4MoEUnknown, false, ""},
		{"0.28.0", 9, "situ", MXFP4MoEUnknown, false, ""},
		{"0.28.0", 10, "", MXFP4MoEUnknown, false, ""},
		{"0.28.0", 12, "silu", MXFP4MoEUnknown, false, ""},
		{"0.28.0", 8, "silu", MXFP4MoEUnknown, false, ""},
		{"0.10.0", 10, "silu", MXFP4MoEUnknown, false, ""},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		b := r.PackedMXFP4MoEBackend(tc.sm, tc.act)
		if b.Kernel != tc.kernel || b.Verified != tc.verified || b.Kernel.MXFP4Activations() != tc.acts {
			t.Errorf("%s SM%d %q: %q (verified %v, activations %q), want %q (%v, %q)", tc.version, tc.sm, tc.act,
				b.Kernel, b.Verified, b.Kernel.MXFP4Activations(), tc.kernel, tc.verified, tc.acts)
		}
		if !strings.Contains(b.Source, "mxfp4_experts_quant.cu") || !strings.Contains(b.Source, "CompressedTensorsW4A4Mxfp4MoEMethod") {
			t.Errorf("%s: source %q does not cite the method and the device test", tc.version, b.Source)
		}
	}
}

// Which method an MXFP4 checkpoint takes: gpt-oss's for quant_method
// mxfp4 and for Kimi-K3 (vLLM rewrites its compressed-tensors config),
// the packed compressed-tensors method otherwise; and MXFP4MoEBackendFor
// dispatches on it — Kimi-K3 on B200 gets gpt-oss's MXFP4 × BF16 choice,
// a SiLU compressed-tensors checkpoint CUTLASS W4A4.
func TestMXFP4MethodFor(t *testing.T) {
	for _, tc := range []struct {
		arch, method string
		want         MXFP4Method
	}{
		{"GptOssForCausalLM", "mxfp4", MXFP4MethodGptOss},
		{"KimiK3ForConditionalGeneration", "compressed-tensors", MXFP4MethodGptOss},
		{"Qwen3MoeForCausalLM", "compressed-tensors", MXFP4MethodPacked},
		{"Qwen3MoeForCausalLM", "fp8", MXFP4MethodUnknown},
		{"Qwen3MoeForCausalLM", "", MXFP4MethodUnknown},
	} {
		if got := MXFP4MethodFor(tc.arch, tc.method); got != tc.want {
			t.Errorf("%s %s: method %d, want %d", tc.arch, tc.method, got, tc.want)
		}
	}
	r, _, err := ResolveString("0.28.0")
	if err != nil {
		t.Fatal(err)
	}
	k3 := r.MXFP4MoEBackendFor(MXFP4MethodFor("KimiK3ForConditionalGeneration", "compressed-tensors"), 10, "situ", nil)
	if k3.Kernel != MXFP4MoEFlashInferTRTLLM || k3.Kernel.MXFP4Activations() != "bf16" {
		t.Errorf("Kimi-K3 on B200: %q (%q), want gpt-oss's FlashInfer TRT-LLM MXFP4 × BF16", k3.Kernel, k3.Kernel.MXFP4Activations())
	}
	ct := r.MXFP4MoEBackendFor(MXFP4MethodPacked, 10, "silu", nil)
	if ct.Kernel != MXFP4MoECutlassW4A4 || !ct.Verified {
		t.Errorf("packed SiLU on B200: %q (verified %v), want CUTLASS W4A4", ct.Kernel, ct.Verified)
	}
	if u := r.MXFP4MoEBackendFor(MXFP4MethodUnknown, 10, "silu", nil); u.Kernel != MXFP4MoEUnknown {
		t.Errorf("unknown method: %q", u.Kernel)
	}
}
