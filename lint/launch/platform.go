package launch

import "strings"

// Platforms an invocation runs on, as far as the file shows.
const (
	// PlatformCUDA is NVIDIA GPUs, and the assumption when nothing says otherwise.
	PlatformCUDA = "cuda"
	// PlatformROCm is AMD GPUs (vLLM's ROCm build).
	PlatformROCm = "rocm"
	// PlatformAscend is Huawei Ascend NPUs (the vllm-ascend plugin).
	PlatformAscend = "ascend"
	// PlatformHPU is Intel Gaudi (vllm-gaudi).
	PlatformHPU = "hpu"
	// PlatformXPU is Intel GPUs.
	PlatformXPU = "xpu"
	// PlatformTPU is Google TPUs.
	PlatformTPU = "tpu"
)

// platformSigns maps what a launch shows to the platform it implies: image
// names, device files, device-plugin resources and variables only that
// platform's runtime reads.
var platformSigns = []struct {
	platform string
	images   []string
	envs     []string
	marks    []string
}{
	{PlatformROCm, []string{"rocm/", "-rocm", "rocm-", "vllm-rocm"}, []string{"HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "VLLM_ROCM_", "HSA_", "RCCL_", "MIOPEN_"}, []string{"/dev/kfd", "amd.com/gpu"}},
	{PlatformAscend, []string{"vllm-ascend", "ascend"}, []string{"ASCEND_", "HCCL_", "ASCEND_RT_VISIBLE_DEVICES"}, []string{"/dev/davinci", "huawei.com/"}},
	{PlatformHPU, []string{"gaudi", "habana"}, []string{"HABANA_", "PT_HPU_"}, []string{"habana.ai/gaudi"}},
	{PlatformXPU, []string{"vllm-xpu", "-xpu"}, []string{"ZE_AFFINITY_MASK"}, []string{"gpu.intel.com"}},
	{PlatformTPU, []string{"vllm-tpu", "-tpu"}, []string{"TPU_", "PJRT_DEVICE"}, []string{"google.com/tpu"}},
}

// detectPlatform names the platform an invocation shows signs of, "" when
// none (most likely CUDA, but not stated).
func detectPlatform(inv *Invocation, marks []string) string {
	img := strings.ToLower(inv.Image)
	for _, p := range platformSigns {
		if img != "" && containsAny(img, p.images) {
			return p.platform
		}
		for _, e := range inv.Env {
			if hasAnyPrefix(e.Name, p.envs) {
				return p.platform
			}
		}
		for _, m := range append(marks, inv.GPUSource) {
			if m != "" && containsAny(m, p.marks) {
				return p.platform
			}
		}
	}
	if strings.Contains(inv.GPUSource, "nvidia") || strings.Contains(img, "cuda") || strings.HasPrefix(img, "nvcr.io/") {
		return PlatformCUDA
	}
	return ""
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
