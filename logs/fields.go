package logs

import (
	"regexp"

	"github.com/vlaunch/vlaunch/vllm"
)

// field is one figure the log can state. Per process each field keeps the
// first value logged and the line it came from.
type field int

const (
	fVersion field = iota
	fEngineGen
	fModel
	fMaxModelLen
	fMaxBatched
	fTP
	fPP
	fDP
	fDPLocal
	fEP
	fWeightsGiB
	fWeightsSec
	fActivationGiB
	fNonTorchGiB
	fCUDAGraphGiB
	fCUDAGraphEstGiB
	fGraphSec
	fGPUTotalGiB
	fUtil
	fAvailableKVGiB
	fKVTokens
	fGPUBlocks
	fBlockSize
	fConcurrency
	fConcurrencyLen
	fAttention
	fAll2All
	fDistInit
	fDPAddress
	fDPRPCPort
	fMasterAddr
	fRayAddress
	fKVCacheDType
	fDType
	fQuantization
	fEnforceEager
	fInitSec
	fKVConnector
	fKVRole
	fKVEngineID
	fKVLayout
	fNixlBackends
	fSideChannel
	fNixlBlocks
	fNixlMLA
	fArchitecture
	fModelRunner
	fUtilNoGraphProfiling
	fMambaPadPct
	fFlashInfer
	fEncoderBudget
	fEncoderItems
	fEncoderModality
	fDCP
	fVersionAfter
	numFields
)

// scope says which process's value an engine reports: the engine core's
// (it sizes the KV cache for all its workers), the first worker's (each
// worker measures its own memory), or anyone's.
type scope int

const (
	scopeAny scope = iota
	scopeEngine
	scopeWorker
	// scopeArgs prefers what the user asked for (the server's arguments)
	// over an engine's view: an engine-config line of DP rank 3 says
	// data_parallel_size=1.
	scopeArgs
)

type fieldInfo struct {
	name  string
	scope scope
}

var fieldInfos = [numFields]fieldInfo{
	fVersion:         {"version", scopeAny},
	fEngineGen:       {"engine", scopeAny},
	fModel:           {"model", scopeAny},
	fMaxModelLen:     {"max_model_len", scopeAny},
	fMaxBatched:      {"max_num_batched_tokens", scopeAny},
	fTP:              {"tensor_parallel_size", scopeAny},
	fPP:              {"pipeline_parallel_size", scopeAny},
	fDP:              {"data_parallel_size", scopeArgs},
	fDPLocal:         {"data_parallel_size_local", scopeArgs},
	fEP:              {"enable_expert_parallel", scopeArgs},
	fWeightsGiB:      {"weights_gib", scopeWorker},
	fWeightsSec:      {"weights_seconds", scopeWorker},
	fActivationGiB:   {"activation_peak_gib", scopeWorker},
	fNonTorchGiB:     {"non_torch_gib", scopeWorker},
	fCUDAGraphGiB:    {"cuda_graph_gib", scopeWorker},
	fCUDAGraphEstGiB: {"cuda_graph_estimated_gib", scopeWorker},
	fGraphSec:        {"cuda_graph_seconds", scopeWorker},
	fGPUTotalGiB:     {"gpu_total_gib", scopeWorker},
	fUtil:            {"gpu_memory_utilization", scopeAny},
	fAvailableKVGiB:  {"available_kv_gib", scopeWorker},
	fKVTokens:        {"kv_cache_tokens", scopeEngine},
	fGPUBlocks:       {"num_gpu_blocks", scopeEngine},
	fBlockSize:       {"block_size", scopeAny},
	fConcurrency:     {"max_concurrency", scopeEngine},
	fConcurrencyLen:  {"max_concurrency_tokens", scopeEngine},
	fAttention:       {"attention_backend", scopeWorker},
	fAll2All:         {"all2all_backend", scopeWorker},
	fDistInit:        {"distributed_init_method", scopeWorker},
	fDPAddress:       {"data_parallel_address", scopeAny},
	fDPRPCPort:       {"data_parallel_rpc_port", scopeAny},
	fMasterAddr:      {"dp_master_addr", scopeEngine},
	fRayAddress:      {"ray_address", scopeAny},
	fKVCacheDType:    {"kv_cache_dtype", scopeAny},
	fDType:           {"dtype", scopeAny},
	fQuantization:    {"quantization", scopeAny},
	fEnforceEager:    {"enforce_eager", scopeAny},
	fInitSec:         {"init_engine_seconds", scopeEngine},
	fKVConnector:     {"kv_connector", scopeArgs},
	fKVRole:          {"kv_role", scopeArgs},
	fKVEngineID:      {"kv_engine_id", scopeAny},
	fKVLayout:        {"kv_cache_layout", scopeWorker},
	fNixlBackends:    {"nixl_backends", scopeWorker},
	fSideChannel:     {"nixl_side_channel", scopeWorker},
	fNixlBlocks:      {"nixl_registered_blocks", scopeWorker},
	fNixlMLA:         {"nixl_use_mla", scopeWorker},
	fArchitecture:    {"architecture", scopeAny},
	fModelRunner:     {"model_runner", scopeWorker},
	// The utilization without CUDA graph memory profiling that vLLM says
	// the requested one is equivalent to (0.21+, profiling on by default).
	fUtilNoGraphProfiling: {"gpu_memory_utilization_without_cudagraph_profiling", scopeWorker},
	fMambaPadPct:          {"mamba_page_padding_pct", scopeWorker},
	// Every worker says it; 0.10–0.11 print it before the worker's prefix
	// is set (an unprefixed line), so anyone's counts.
	fFlashInfer:      {"flashinfer", scopeAny},
	fEncoderBudget:   {"encoder_cache_budget_tokens", scopeWorker},
	fEncoderItems:    {"encoder_profile_items", scopeWorker},
	fEncoderModality: {"encoder_profile_modality", scopeWorker},
	fDCP:             {"decode_context_parallel_size", scopeAny},
	// A release the log's wording shows it is newer than, when it names
	// none (graphProfilingWording).
	fVersionAfter: {"version_after", scopeAny},
}

// val is one logged value: a number or a string, and where it was read.
type val struct {
	num  float64
	str  string
	set  bool
	line int
	// derived marks a value computed from other logged figures (V0 block
	// counts times the block size, peak torch memory minus the weights).
	derived bool
}

// facts is everything one process logged about itself.
type facts [numFields]val

func (f *facts) setNum(k field, v float64, line int) {
	if !f[k].set {
		f[k] = val{num: v, set: true, line: line}
	}
}

func (f *facts) setStr(k field, v string, line int) {
	if !f[k].set && v != "" {
		f[k] = val{str: clip(v, maxValueLen), set: true, line: line}
	}
}

// maxValueLen caps every string kept from a log (paths, argument values).
const maxValueLen = 256

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// untaggedDev matches the version setuptools-scm gives a vLLM built from a
// checkout without release tags (a shallow clone): "0.1.dev20175+g2573878a3.d20260821"
// in vllm-project/vllm#53743's log of August 2026 main. It names no release.
var untaggedDev = regexp.MustCompile(`^v?0\.(?:0|1)(?:\.0)?\.dev\d+`)

// untaggedBuild reports a logged version that names no release.
func untaggedBuild(v string) bool { return untaggedDev.MatchString(v) }

// loggedRelease is the release a logged version names; false for none or
// an untagged build, whose "0.1" would read as the oldest release.
func loggedRelease(v string) (vllm.Version, bool) {
	if v == "" || untaggedBuild(v) {
		return vllm.Version{}, false
	}
	r, err := vllm.ParseVersion(v)
	return r, err == nil
}
