package replay

import "testing"

// TestDtypeOf checks how a row's free-text weights and KV fields map onto
// the step model's dtypes: the first word decides, FP8 variants collapse to
// fp8, the 4-bit formats the step model prices (perf.perfBytesPerParam:
// mxfp4, nvfp4, int4) pass through, anything else takes the default.
func TestDtypeOf(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"fp8", "fp8"},
		{"fp8 (fbgemm_fp8, per-channel)", "fp8"},
		{"fp8_e4m3", "fp8"},
		{"bf16", "bf16"},
		{"mxfp4", "mxfp4"},
		{"nvfp4", "nvfp4"},
		{"int4 (routed experts INT4 with BF16 group scales, Marlin WNA16 kernels; the other layers BF16)", "int4"},
		{"INT4, W4A16", "int4"},
		{"auto", "bf16"},
		{"", "bf16"},
		{"unknown", "bf16"},
	} {
		if got := dtypeOf(c.in, "bf16"); got != c.want {
			t.Errorf("dtypeOf(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
