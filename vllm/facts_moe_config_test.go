package vllm

import "testing"

// TestMoEConfigFileName: the names vLLM's get_config_file_name gives the
// files the issue #28 rows look up, spelled as they appear in
// fused_moe/configs (find_files over vllm-project/vllm).
func TestMoEConfigFileName(t *testing.T) {
	h100 := MoEConfigDevice("NVIDIA H100 80GB HBM3") // catalog h100-sxm's device name
	for _, c := range []struct {
		k    MoEConfigKey
		want string
	}{
		{MoEConfigKey{E: 128, N: 352, Device: h100}, "E=128,N=352,device_name=NVIDIA_H100_80GB_HBM3.json"},
		{MoEConfigKey{E: 128, N: 352, Device: h100, DType: "fp8_w8a8"}, "E=128,N=352,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json"},
		{MoEConfigKey{E: 256, N: 256, Device: "NVIDIA_H200", DType: "fp8_w8a8", BlockN: 128, BlockK: 128},
			"E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"},
	} {
		if got := c.k.FileName(); got != c.want {
			t.Errorf("FileName = %s, want %s", got, c.want)
		}
	}
}

// TestMoEConfigShape: GLM-4.5-Air (128 experts, moe_intermediate_size 1408)
// at TP4 looks up N = 1408/4 = 352; Qwen3-235B-A22B (128, 1536) at TP8
// N = 192; with EP over 2 ranks Qwen3-30B-A3B (128, 768) keeps N = 768 and
// holds 64 experts.
func TestMoEConfigShape(t *testing.T) {
	for _, c := range []struct{ experts, inter, tp, ep, e, n int }{
		{128, 1408, 4, 1, 128, 352},
		{128, 1536, 8, 1, 128, 192},
		{128, 768, 1, 1, 128, 768},
		{128, 768, 2, 2, 64, 768},
	} {
		if e, n := MoEConfigShape(c.experts, c.inter, c.tp, c.ep); e != c.e || n != c.n {
			t.Errorf("MoEConfigShape(%d, %d, tp %d, ep %d) = (%d, %d), want (%d, %d)", c.experts, c.inter, c.tp, c.ep, e, n, c.e, c.n)
		}
	}
}

// TestTunedMoEConfig: the GLM-4.5-Air TP4 H100 file is not in 0.11.0 (the
// release the held-out gpustack-glm45air-h100 rows ran), nor Qwen3-30B-A3B's
// TP1 H100 file in 0.10.1; later releases and the Qwen3-235B TP8 files
// stay unverified rather than guessed; an unrecorded file is unverified.
func TestTunedMoEConfig(t *testing.T) {
	h100 := MoEConfigDevice("NVIDIA H100 80GB HBM3")
	for _, c := range []struct {
		v    string
		k    MoEConfigKey
		want Presence
	}{
		{"0.11.0", MoEConfigKey{E: 128, N: 352, Device: h100}, Absent},
		{"0.11.2", MoEConfigKey{E: 128, N: 352, Device: h100}, Absent},
		{"0.28.0", MoEConfigKey{E: 128, N: 352, Device: h100}, Maybe},
		{"0.10.1", MoEConfigKey{E: 128, N: 768, Device: h100}, Absent},
		{"0.11.0", MoEConfigKey{E: 128, N: 192, Device: h100}, Maybe},
		{"0.11.0", MoEConfigKey{E: 128, N: 192, Device: MoEConfigDevice("NVIDIA A100-SXM4-80GB")}, Maybe},
		{"0.11.0", MoEConfigKey{E: 128, N: 352, Device: h100, DType: "fp8_w8a8"}, Maybe},
	} {
		got, why := rel(t, c.v).TunedMoEConfig(c.k)
		if got != c.want {
			t.Errorf("%s ships %s: %s, want %s (%s)", c.v, c.k.FileName(), got, c.want, why)
		}
		if why == "" {
			t.Errorf("%s %s: no reason", c.v, c.k.FileName())
		}
	}
	// Every recorded file cites a primary source and says what is not pinned.
	for _, f := range moeConfigFiles {
		if !citesPrimary(f.Source) || !explainsUnverified(f.Source) {
			t.Errorf("%s: source %q cites no primary source or leaves its gaps unsaid", f.Key.FileName(), f.Source)
		}
	}
}
