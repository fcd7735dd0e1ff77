package estimate

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// engineSettings are the raw engine fields shared by the spec and quick forms.
type engineSettings struct {
	Weights, KVCacheDType, All2All             string
	Util                                       *float64
	MaxModelLen                                int
	MaxNumSeqs, MaxNumBatchedTokens, BlockSize *int
	EnforceEager, EnableDBO, EnableEPLB        bool
	Redundant                                  int
}

// MLABlockSize is the KV block size vLLM forces for the FlashMLA backend
// (the Hopper default for DeepSeek MLA), MLABlackwellBlockSize the one
// CUTLASS_MLA forces on Blackwell (vllm-facts §4.8). DefaultBlockSize is
// vLLM's default for every other attention backend.
const (
	MLABlockSize          = 64
	MLABlackwellBlockSize = 128
	DefaultBlockSize      = 16
)

// resolveEngine fills dtypes, vLLM defaults and the all2all backend.
func (in *Input) resolveEngine(e engineSettings) diag.Diagnostics {
	var ds diag.Diagnostics
	ds = append(ds, in.resolveDTypes(e.Weights, e.KVCacheDType)...)
	vd, warns := versionDefaults(in.VLLMVersion, in.GPU)
	if in.VLLMVersion == "" {
		in.VLLMVersion = vd.Version
		in.Assumptions = append(in.Assumptions, "vLLM version not given: assuming "+vd.Version)
	}
	for _, w := range warns {
		ds = append(ds, diag.Diagnostic{Code: CodeVersionApprox, Severity: diag.Info, Path: "vllm.version", Message: w})
	}
	in.GPUMemoryUtilization = vd.GPUMemoryUtilization
	if e.Util != nil {
		in.GPUMemoryUtilization = *e.Util
	} else {
		in.Assumptions = append(in.Assumptions, fmt.Sprintf("gpu_memory_utilization %.2f (vLLM %s default)", vd.GPUMemoryUtilization, in.VLLMVersion))
	}
	if in.GPUMemoryUtilization <= 0 || in.GPUMemoryUtilization > 1 {
		ds = append(ds, estErr(CodeBadSetting, "vllm.gpu_memory_utilization",
			fmt.Sprintf("gpu_memory_utilization %g is outside (0, 1]", in.GPUMemoryUtilization), "vLLM's default is 0.9 (0.92 in newer releases)"))
	}
	in.resolveLengths(e, vd)
	in.resolveBlockSize(e.BlockSize)
	in.a2aAsked, in.a2aDefault = e.All2All, vd.All2AllBackend
	in.resolveAll2All(e.All2All, vd.All2AllBackend)
	in.EnableDBO, in.EnableEPLB, in.NumRedundantExperts = e.EnableDBO, e.EnableEPLB, e.Redundant
	in.EnforceEager = e.EnforceEager
	in.CUDAGraphs = !e.EnforceEager && !(in.All2AllBackend == "deepep_high_throughput" && in.Layout.DP > 1)
	if l := in.Layout; l.TP <= 0 || l.PP <= 0 || l.DP <= 0 {
		ds = append(ds, estErr(CodeBadLayout, "parallelism", "tensor, pipeline and data parallel sizes must be positive", ""))
	}
	return ds
}

func (in *Input) resolveLengths(e engineSettings, vd vllmDefaults) {
	in.MaxModelLen = e.MaxModelLen
	if in.MaxModelLen <= 0 {
		in.MaxModelLen = in.Model.MaxPositionEmbeddings
		in.Assumptions = append(in.Assumptions, fmt.Sprintf("max_model_len %d (the model's max_position_embeddings)", in.MaxModelLen))
	}
	in.MaxNumSeqs, in.MaxNumBatchedTokens = vd.MaxNumSeqs, vd.MaxNumBatchedTokens
	if isLegacyV0(in.VLLMVersion) {
		in.MaxNumSeqs, in.MaxNumBatchedTokens = legacyV0BatchDefaults(in.MaxModelLen)
	}
	if e.MaxNumSeqs != nil && *e.MaxNumSeqs > 0 {
		in.MaxNumSeqs = *e.MaxNumSeqs
	}
	if e.MaxNumBatchedTokens != nil && *e.MaxNumBatchedTokens > 0 {
		in.MaxNumBatchedTokens = *e.MaxNumBatchedTokens
	} else {
		// vLLM clamps the default to max_num_seqs × max_model_len (§4.9).
		in.MaxNumBatchedTokens = min(in.MaxNumBatchedTokens, in.MaxNumSeqs*max(in.MaxModelLen, 1))
	}
}

func (in *Input) resolveBlockSize(b *int) {
	switch {
	case in.Model.IsMLA():
		backend := "FlashMLA"
		in.BlockSize = MLABlockSize
		if in.GPU != nil && strings.Contains(strings.ToUpper(in.GPU.Name), "B200") {
			in.BlockSize, backend = MLABlackwellBlockSize, "CUTLASS_MLA"
		}
		if b != nil && *b != in.BlockSize {
			in.Assumptions = append(in.Assumptions, fmt.Sprintf("block_size %d overridden: vLLM forces %d for the %s backend", *b, in.BlockSize, backend))
		}
	case b != nil && *b > 0:
		in.BlockSize = *b
	default:
		in.BlockSize = DefaultBlockSize
	}
}

// resolveAll2All records the backend that actually runs: vLLM only uses
// all2all kernels with EP on and DP > 1 (vllm-facts EP-05). "auto" goes
// through vllm's shared rule, the same one `vlaunch generate` applies, so the
// prediction is for the backend the bundle starts.
func (in *Input) resolveAll2All(asked, def string) {
	if !in.Layout.EP || in.Layout.DP <= 1 {
		in.All2AllBackend, in.All2AllExplicit = "", false
		return
	}
	if v, ok := in.Env["VLLM_ALL2ALL_BACKEND"]; ok && (asked == "" || asked == "auto") {
		asked = v
	}
	in.All2AllExplicit = asked != "" && asked != "auto"
	if asked == "auto" {
		if rel, _, err := vllm.ResolveString(in.VLLMVersion); err == nil {
			asked, _ = rel.AutoAll2All(in.autoContext())
		}
	}
	if asked == "" || asked == "auto" {
		asked = def
	}
	in.All2AllBackend = asked
}

// autoContext is the input of vllm's auto backend rule for this layout.
func (in *Input) autoContext() vllm.AutoContext {
	l := in.Layout
	return vllm.AutoContext{
		DP: l.DP, EP: l.EP, MultiNode: l.Nodes > 1 && l.GPUs() > l.GPUsPerNode,
		GPUDirectRDMA: in.Network.GPUDirectRDMA, FabricKind: in.Network.InterKind,
		InputTokens: in.Workload.InputTokens, OutputTokens: in.Workload.OutputTokens,
	}
}

// resolveDTypes maps model.weights and vllm.kv_cache_dtype to storage dtypes.
func (in *Input) resolveDTypes(weights, kv string) diag.Diagnostics {
	var ds diag.Diagnostics
	ckpt := in.Model.CheckpointDType()
	w := strings.ToLower(strings.TrimSpace(weights))
	switch w {
	case "", "auto":
		in.WeightsDType, in.WeightsFromCheckpoint = ckpt, true
	case "bf16", "bfloat16", "fp16", "float16", "half", "fp8", "int8", "w8a8", "mxfp4":
		in.WeightsDType = canonicalDType(w)
		in.WeightsFromCheckpoint = in.WeightsDType == ckpt
		if in.WeightsDType == "mxfp4" && ckpt != "mxfp4" {
			ds = append(ds, estErr(CodeBadDType, "model.weights", "mxfp4 weights exist only for checkpoints shipped in MXFP4 (gpt-oss)", "use auto, bf16 or fp8"))
		}
	default:
		ds = append(ds, estErr(CodeBadDType, "model.weights", fmt.Sprintf("unknown weights dtype %q", weights), "use auto, bf16, fp16, fp8, int8 or mxfp4"))
		in.WeightsDType = ckpt
	}
	in.KVCacheDType = in.modelActDType()
	switch k := strings.ToLower(strings.TrimSpace(kv)); k {
	case "", "auto":
	case "fp8", "fp8_e4m3", "fp8_e5m2":
		in.KVCacheDType = "fp8"
	case "bf16", "bfloat16", "fp16", "float16", "half":
		in.KVCacheDType = canonicalDType(k)
	default:
		ds = append(ds, estErr(CodeBadDType, "vllm.kv_cache_dtype", fmt.Sprintf("unknown kv_cache_dtype %q", kv), "use auto, fp8, fp8_e4m3 or fp8_e5m2"))
	}
	return ds
}

// modelActDType is the dtype activations (and an "auto" KV cache) use: the
// config's torch dtype, bf16 unless it says float16.
func (in *Input) modelActDType() string {
	if in.WeightsDType == "fp16" || in.Model.TorchDType == "float16" {
		return "fp16"
	}
	return "bf16"
}

func canonicalDType(s string) string {
	switch s {
	case "bfloat16":
		return "bf16"
	case "float16", "half":
		return "fp16"
	case "w8a8":
		return "int8"
	}
	return s
}
