package vllm

import (
	"fmt"
	"strings"
)

// Tuned tile configurations of vLLM's Triton fused-MoE kernel (issue #28):
// which (experts, width, GPU, dtype) shapes a release ships a tuned JSON for.
//
// Lookup. fused_moe.try_get_optimal_moe_config reads E, _, N = w2_shape —
// the experts on this rank and the intermediate width per TP shard — and
// get_moe_configs(E, N, dtype, block_n, block_k) opens
// configs/get_config_file_name(E, N, dtype, block_shape):
// "E={E},N={N},device_name={torch device name, spaces as _}[,dtype=…]
// [,block_shape=[n,k]].json" (dtype is absent for BF16/FP16). Without the
// file it logs "Using default MoE config. Performance might be
// sub-optimal!" and runs get_default_config, which for unquantized experts
// is BLOCK 16×32×64 (GROUP 1) while M ≤ E and BLOCK 64×64×32 (GROUP 8)
// above, num_warps/num_stages left to Triton (stored vllm-project/vllm
// fused_moe.py @000d1458, the 0.9–0.11 era; benchmarks/kernels/
// benchmark_moe_defaults.py old_default_config: "the original defaults
// before PR #34846", opened 2026-02-18 and merged, which replaced them).
//
// Which path runs. BF16 experts on Hopper without EP run the Triton kernel:
// UnquantizedFusedMoEMethod enables FlashInfer's CUTLASS MoE only with
// VLLM_USE_FLASHINFER_MOE_FP16 set, expert parallelism on and DP 1
// (docs.vllm.ai/en/v0.14.1 unquantized_fused_moe_method, read; the v0.11.2
// page exists but its body, and 0.11.0's code, were not read, so for the
// 0.11 line this is unverified). Block-FP8 experts are not recorded here:
// from ≈0.11.0 VLLM_USE_DEEP_GEMM defaults to 1 (env_defaults.go), so
// whether DeepGEMM or Triton ran a replayed FP8 row is not established.
//
// Dating a file. The tuner writes "triton_version" into the JSON since PR
// #24769 (2025-09-12); a file carrying Triton 3.6.0 was tuned under torch
// 2.10, which vLLM pinned from PR #30525 (2026-02-08, nccl_xnode.go), while
// 0.11.0 ran torch 2.8. The fork nludd25/vllm holds a tree of 330 config
// files including PR #35457's E=128,N=96 H200 files (2026-02-27): a file
// missing there was not in any release before that tree.
//
// The measured cost of the default config is not modelled: PRs timing
// default against tuned configs report 1.0–1.1× at prefill-size M for
// BF16 many-expert shapes under the post-#34846 defaults (PR #40542 A100
// E=64 N=1408: 1.07–1.11× at M 256–4096; PR #44818 H200 E=128 N=704:
// 1.00–1.05×) and up to 2× for the pre-#34846 defaults ("Many-expert models
// see up to 2x speedup at large batch size", PR #34846, H100, new vs old
// default; PR #24700, H100, Qwen3-30B-A3B fp8_w8a8: old default 1.35–1.37×
// the proposed one at M 256–512), with no full old-default-vs-tuned curve
// for a BF16 E=128 shape on Hopper. The calibration row that runs the old
// default on an E=128 H100 shape (vllmpr23151-qwen3-30b-h100-vllm-tp1-c10,
// 0.10.1, no E=128,N=768 H100 file) is already predicted slow (TTFT +41%;
// doubling its expert time takes it to +145%), so no factor is applied.
const srcMoEConfigs = "vllm/model_executor/layers/fused_moe/fused_moe.py try_get_optimal_moe_config, get_default_config (stored copy @000d1458); " +
	"benchmarks/kernels/benchmark_moe_defaults.py old_default_config (PR #34846); PR #24769 (triton_version in tuned configs, 2025-09-12); " +
	"find_files over vllm-project/vllm and the fork nludd25/vllm (330 files, incl. PR #35457's of 2026-02-27)"

// MoEConfigKey names a tuned fused-MoE file as get_config_file_name does.
type MoEConfigKey struct {
	// E is the experts on one rank (w2.shape[0]); N the intermediate width
	// per TP shard (w2.shape[2]).
	E, N int
	// Device is torch.cuda.get_device_name() with spaces as underscores
	// (MoEConfigDevice).
	Device string
	// DType is "" for BF16/FP16 experts, else "fp8_w8a8", "int8_w8a16" ….
	DType string
	// BlockN, BlockK are the block-quantization shape (zero: none).
	BlockN, BlockK int
}

// MoEConfigDevice is a torch device name ("NVIDIA H100 80GB HBM3") as the
// file names spell it ("NVIDIA_H100_80GB_HBM3").
func MoEConfigDevice(torchName string) string { return strings.ReplaceAll(torchName, " ", "_") }

// FileName is the JSON's name under fused_moe/configs.
func (k MoEConfigKey) FileName() string {
	s := fmt.Sprintf("E=%d,N=%d,device_name=%s", k.E, k.N, k.Device)
	if k.DType != "" {
		s += ",dtype=" + k.DType
	}
	if k.BlockN > 0 && k.BlockK > 0 {
		s += fmt.Sprintf(",block_shape=[%d,%d]", k.BlockN, k.BlockK)
	}
	return s + ".json"
}

// MoEConfigShape is the (E, N) a layer of `experts` routed experts of
// intermediate width inter looks up on one rank: with expert parallelism
// (ep > 1, the EP group's size) the experts are split over the ep ranks
// and each keeps its full width; without, every rank holds all experts at
// inter/tp (FusedMoEParallelConfig.make: with EP the MoE layer's tp_size is
// 1 and ep_size the TP × DP ranks; docs.vllm.ai/en/v0.20.2 fused_moe/config).
func MoEConfigShape(experts, inter, tp, ep int) (e, n int) {
	if ep > 1 {
		return experts / ep, inter
	}
	return experts, inter / max(1, tp)
}

// moeConfigFile is what the evidence says about one tuned file.
type moeConfigFile struct {
	Key MoEConfigKey
	// Since is the earliest release that may ship the file; Seen the first
	// release a cited source shows it in (zero: none does).
	Since, Seen Version
	// Rows are the replayed configurations with this shape.
	Rows   string
	Source string
}

// moeConfigFiles covers the BF16 Triton-path MoE rows the replay holds on
// Hopper and Ampere.
var moeConfigFiles = []moeConfigFile{
	{Key: MoEConfigKey{E: 128, N: 352, Device: "NVIDIA_H100_80GB_HBM3"}, Since: v0120,
		Rows: "GLM-4.5-Air BF16 TP4 on H100 under 0.11.0 (published gpustack-glm45air-h100)",
		Source: "vllm/model_executor/layers/fused_moe/configs/ on vllm-project/vllm main @5b364f6f with \"triton_version\": \"3.6.0\" (torch 2.10 era, 2026); absent from the " +
			"nludd25/vllm tree of 2026-02-27 or later; so absent through 0.11.x; first release unverified (a Gemma 4 MoE config test, " +
			"stored copy, code search id 70222173249, counts it among the 269 E=128,N∈{704,352,176,88} files a Gemma 4 PR added; a " +
			"third-party copy of the v0.27.1 listing lacks it: both secondary)"},
	{Key: MoEConfigKey{E: 128, N: 768, Device: "NVIDIA_H100_80GB_HBM3"}, Since: v0120,
		Rows: "Qwen3-30B-A3B BF16 TP1 on H100 under 0.10.1 (vllmpr23151-qwen3-30b-h100-vllm-tp1-c10)",
		Source: "vllm/model_executor/layers/fused_moe/configs/ on vllm-project/vllm main @4466f1b5 (no triton_version key); absent from the nludd25/vllm tree of 2026-02-27 " +
			"or later, so absent through 0.11.x; users' logs name it as missing (secondary); first release unverified"},
	{Key: MoEConfigKey{E: 128, N: 192, Device: "NVIDIA_H100_80GB_HBM3"}, Since: vPre,
		Rows: "Qwen3-235B-A22B BF16 TP8 on H100 under 0.11.0 (gpustack-perflab)",
		Source: "on vllm-project/vllm @0f17ee06 and in the nludd25/vllm tree; no triton_version key (tuned before PR #24769, " +
			"2025-09-12, or written by hand); likely PR #17328 (2025-04-28, Qwen3Moe configs ported from SGLang), whose file list " +
			"was not read: first release unverified"},
	{Key: MoEConfigKey{E: 128, N: 192, Device: "NVIDIA_A100-SXM4-80GB"}, Since: vPre,
		Rows:   "Qwen3-235B-A22B BF16 TP8 on A100 under 0.11.0 (gpustack-perflab)",
		Source: "vllm/model_executor/layers/fused_moe/configs/ at the H100 file's commit (vllm-project/vllm @0f17ee06) and in the nludd25/vllm tree; first release unverified"},
}

// TunedMoEConfig is what the evidence says about release r shipping the
// tuned fused-MoE file k, and why: Absent before the earliest release that
// may ship it, Present from the first release a source shows it in, Maybe
// otherwise and for files not recorded.
func (r Release) TunedMoEConfig(k MoEConfigKey) (Presence, string) {
	for _, f := range moeConfigFiles {
		if f.Key != k {
			continue
		}
		switch {
		case r.Version.Less(f.Since):
			return Absent, f.Source
		case !f.Seen.IsZero() && r.Version.AtLeast(f.Seen):
			return Present, f.Source
		}
		return Maybe, f.Source
	}
	return Maybe, k.FileName() + ": not recorded (" + srcMoEConfigs + ")"
}
