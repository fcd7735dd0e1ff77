package codes

import "github.com/vlaunch/vlaunch/diag"

// Spec codes (SPECxxx): SPEC0xx come from reading and schema-checking the
// document, SPEC1xx from the semantic rules.
const (
	SpecUnreadable   diag.Code = "SPEC000"
	SpecSyntax       diag.Code = "SPEC001"
	SpecUnknownKey   diag.Code = "SPEC002"
	SpecType         diag.Code = "SPEC003"
	SpecRequired     diag.Code = "SPEC004"
	SpecValue        diag.Code = "SPEC005"
	SpecDuplicate    diag.Code = "SPEC101"
	SpecLayout       diag.Code = "SPEC102"
	SpecNodeFit      diag.Code = "SPEC103"
	SpecExpert       diag.Code = "SPEC104"
	SpecModel        diag.Code = "SPEC105"
	SpecGPU          diag.Code = "SPEC106"
	SpecContext      diag.Code = "SPEC107"
	SpecSLO          diag.Code = "SPEC108"
	SpecFP8          diag.Code = "SPEC109"
	SpecPorts        diag.Code = "SPEC110"
	SpecUnsafeName   diag.Code = "SPEC111"
	SpecInterface    diag.Code = "SPEC112"
	SpecAddress      diag.Code = "SPEC113"
	SpecEnv          diag.Code = "SPEC114"
	SpecNoInterface  diag.Code = "SPEC115"
	SpecLoopback     diag.Code = "SPEC116"
	SpecVersion      diag.Code = "SPEC117"
	SpecBackend      diag.Code = "SPEC118"
	SpecNodeSize     diag.Code = "SPEC119"
	SpecCalibration  diag.Code = "SPEC120"
	SpecSecret       diag.Code = "SPEC121"
	SpecSpeculative  diag.Code = "SPEC122"
	SpecTPHeads      diag.Code = "SPEC123"
	SpecBlockSplit   diag.Code = "SPEC124"
	SpecPDLayout     diag.Code = "SPEC125"
	SpecPDNodes      diag.Code = "SPEC126"
	SpecPDConnector  diag.Code = "SPEC127"
	SpecPDPairing    diag.Code = "SPEC128"
	SpecPDPorts      diag.Code = "SPEC129"
	SpecPDNotModel   diag.Code = "SPEC130"
	SpecPDHybridKV   diag.Code = "SPEC131"
	SpecNVLinkDomain diag.Code = "SPEC132"
	SpecNVLinkSplit  diag.Code = "SPEC133"
	SpecNVLinkCuMem  diag.Code = "SPEC134"
	SpecDCP          diag.Code = "SPEC135"
	SpecDCPPacked    diag.Code = "SPEC136"
	SpecRouter       diag.Code = "SPEC137"
	// SpecRuntimeUnused: a runtime key the chosen runtime.kind never reads.
	SpecRuntimeUnused diag.Code = "SPEC138"
	// SpecNVLinkDomainUnset: several nodes of a GPU built into an NVL72
	// rack with no nvlink_domain: their traffic is costed over the NICs.
	SpecNVLinkDomainUnset diag.Code = "SPEC139"
	// SpecPrefixHitUnmodelled: workload.prefix_cache_hit_rate has no
	// effect: prefix caching is off.
	SpecPrefixHitUnmodelled diag.Code = "SPEC140"
	// SpecBlockSizeOverridden: vllm.block_size that the release replaces,
	// runs on another attention backend, or whose handling in the release
	// was not read (vllm.Release.MLAUserBlockSize, vllm.ArchBlockSize.
	// Unverified).
	SpecBlockSizeOverridden diag.Code = "SPEC141"
	// SpecLoRAUnmodelled: LoRA in vllm.extra_args, whose kernels (and, for
	// models whose slot shapes are not derived, adapter slots) the estimate
	// does not include.
	SpecLoRAUnmodelled diag.Code = "SPEC142"
)

// specEntries are the SPEC codes in code order.
var specEntries = []Entry{
	{SpecUnreadable, "unreadable", diag.Error, "The spec file cannot be read"},
	{SpecSyntax, "yaml-syntax", diag.Error, "The spec is not one YAML mapping"},
	{SpecUnknownKey, "unknown-key", diag.Error, "A key the schema does not know"},
	{SpecType, "wrong-type", diag.Error, "A value of the wrong type"},
	{SpecRequired, "required", diag.Error, "A required key is missing"},
	{SpecValue, "invalid-value", diag.Error, "A value outside the allowed set or range"},
	{SpecDuplicate, "duplicate-node", diag.Error, "Two nodes share a name or an address"},
	{SpecLayout, "layout-gpus", diag.Error, "Tensor × pipeline × data does not equal the GPUs"},
	{SpecNodeFit, "node-fit", diag.Error, "Tensor × pipeline groups do not fit the nodes"},
	{SpecExpert, "expert-dense", diag.Error, "Expert parallelism requested for a dense model"},
	{SpecModel, "model", diag.Error, "Unknown model or unusable config.json"},
	{SpecGPU, "gpu", diag.Error, "Unknown GPU or incomplete custom GPU figures (info: an alias of several GPU variants, and which one was costed)"},
	{SpecContext, "context-length", diag.Error, "Token lengths exceed max_model_len or the model's maximum"},
	{SpecSLO, "ttft-order", diag.Error, "TTFT percentiles out of order"},
	{SpecFP8, "fp8-no-tensor-cores", diag.Warning, "FP8 weights on a GPU without FP8 tensor cores"},
	{SpecPorts, "port-collision", diag.Error, "The API port and the DP RPC port are the same"},
	{SpecUnsafeName, "unsafe-name", diag.Error, "A name or path unsafe in a shell command or a file name"},
	{SpecInterface, "interface-name", diag.Error, "Invalid network interface or RDMA device name"},
	{SpecAddress, "node-address", diag.Error, "A node address is neither an IP address nor a host name"},
	{SpecEnv, "env", diag.Error, "Invalid environment variable or extra argument"},
	{SpecNoInterface, "no-interface", diag.Warning, "Multi-node deployment without a socket interface"},
	{SpecLoopback, "loopback", diag.Error, "Loopback address in a multi-node deployment"},
	{SpecVersion, "vllm-version", diag.Warning, "vLLM version missing, unparsable or not in vlaunch's table"},
	{SpecBackend, "all2all-backend", diag.Error, "Unknown or unaccepted all-to-all backend"},
	{SpecNodeSize, "node-size", diag.Warning, "Unusually many GPUs in one node"},
	{SpecCalibration, "calibration", diag.Error, "Unreadable or invalid calibration file"},
	{SpecSecret, "secret", diag.Error, "A credential in the spec (vllm.env, extra_args, a URL, an image, any value)"},
	{SpecSpeculative, "speculative", diag.Error, "Speculative decoding the release or the model cannot run as written"},
	{SpecTPHeads, "tensor-heads", diag.Error, "The tensor-parallel size cannot split the model's query or KV heads"},
	{SpecBlockSplit, "block-quant-split", diag.Error, "The layout splits block-quantized weights into shards that are not whole blocks"},
	{SpecPDLayout, "pd-spec-parallelism", diag.Error, "A disaggregated spec with a top-level parallelism"},
	{SpecPDNodes, "pd-spec-nodes", diag.Error, "A pool or router node unknown, named twice, left out, or a node both pools cannot split"},
	{SpecPDConnector, "pd-spec-connector", diag.Error, "A KV connector unknown, not for P/D, or not in the release"},
	{SpecPDPairing, "pd-spec-pairing", diag.Error, "Prefill and decode pools the KV connector cannot pair"},
	{SpecPDPorts, "pd-spec-ports", diag.Error, "A port a host of the disaggregated deployment would open twice"},
	{SpecPDNotModel, "pd-not-modelled", diag.Error, "A command that does not handle disaggregated deployments yet"},
	{SpecPDHybridKV, "pd-spec-hybrid-kv", diag.Warning, "A sliding-window model whose hybrid KV cache the connector turns off"},
	{SpecNVLinkDomain, "nvlink-domain", diag.Error, "A multi-node NVLink domain the GPU or the nodes cannot form"},
	{SpecNVLinkSplit, "nvlink-domain-split", diag.Warning, "A replica's nodes straddle two NVLink domains"},
	{SpecNVLinkCuMem, "nvlink-domain-release", diag.Warning, "A vLLM release that turns NCCL's multi-node NVLink off"},
	{SpecDCP, "decode-context-parallel", diag.Error, "Decode context parallelism the release, the tensor size, the model's attention or the attention backend cannot run"},
	{SpecDCPPacked, "decode-context-parallel-packed", diag.Warning, "Decode context parallelism on a model whose packed KV cache vlaunch sizes without it, or a state hybrid whose release is not read"},
	{SpecRouter, "router", diag.Error, "A router (top-level router:) vlaunch cannot put in front of this deployment"},
	{SpecRuntimeUnused, "runtime-key-unused", diag.Warning, "A runtime key the runtime kind has no use for (runtime.image on bare metal)"},
	{SpecNVLinkDomainUnset, "nvlink-domain-unset", diag.Info, "Several trays of an NVL72 GPU with no nvlink_domain: traffic between them costed over the NICs"},
	{SpecPrefixHitUnmodelled, "prefix-hit-rate-unmodelled", diag.Warning, "A prefix-cache hit rate that has no effect: prefix caching is off, so every prompt token is priced as computed"},
	{SpecBlockSizeOverridden, "block-size-overridden", diag.Info, "A block_size that vLLM replaces at start-up (MLA), runs on another attention backend (MLA), or whose handling in this release was not read (MLA, DeepSeek-V4)"},
	{SpecLoRAUnmodelled, "lora-unmodelled", diag.Warning, "LoRA in vllm.extra_args: its kernels' step cost (and, for shapes whose slots are not derived, its adapter slots' memory) is not in the estimate"},
}
