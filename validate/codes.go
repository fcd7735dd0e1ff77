package validate

import "github.com/vlaunch/vlaunch/diag/codes"

// Diagnostic codes, named for this package's use; the codes themselves,
// their severities and documentation live in the diag/codes catalog.
const (
	CodeUnreadable   = codes.SpecUnreadable   // the file cannot be read
	CodeSyntax       = codes.SpecSyntax       // not YAML, empty, binary, several documents, alias bomb
	CodeUnknownKey   = codes.SpecUnknownKey   // a key the schema does not know
	CodeType         = codes.SpecType         // a value of the wrong type
	CodeRequired     = codes.SpecRequired     // a required key is missing
	CodeValue        = codes.SpecValue        // a value outside its enum or range
	CodeDuplicate    = codes.SpecDuplicate    // two nodes share a name or an address
	CodeLayout       = codes.SpecLayout       // tensor x pipeline x data != GPUs
	CodeNodeFit      = codes.SpecNodeFit      // a TP x PP group does not fit the nodes
	CodeExpert       = codes.SpecExpert       // expert parallel on a dense model
	CodeModel        = codes.SpecModel        // unknown model, unreadable or invalid config.json
	CodeGPU          = codes.SpecGPU          // unknown GPU
	CodeContext      = codes.SpecContext      // lengths beyond max_model_len or the model's maximum
	CodeSLO          = codes.SpecSLO          // TTFT percentiles out of order
	CodeFP8          = codes.SpecFP8          // FP8 weights on a GPU without FP8 tensor cores
	CodePorts        = codes.SpecPorts        // port and rpc_port collide
	CodeUnsafeName   = codes.SpecUnsafeName   // a name or path unsafe in a shell command or file name
	CodeInterface    = codes.SpecInterface    // not a valid Linux interface name
	CodeAddress      = codes.SpecAddress      // not an IP address or RFC 1123 host name
	CodeEnv          = codes.SpecEnv          // env key not a shell identifier; NUL/newline in env or extra_args
	CodeNoInterface  = codes.SpecNoInterface  // multi-node without the socket interface
	CodeLoopback     = codes.SpecLoopback     // loopback primary address with several nodes
	CodeVersion      = codes.SpecVersion      // vllm.version unparsable or not in vlaunch's table
	CodeBackend      = codes.SpecBackend      // unknown all2all backend
	CodeNodeSize     = codes.SpecNodeSize     // more GPUs in one node than any common platform carries
	CodeCalibration  = codes.SpecCalibration  // calibration file unreadable, of another schema, or with unknown/out-of-range constants
	CodeSpeculative  = codes.SpecSpeculative  // vllm.speculative: method, model, draft or acceptance the release cannot run
	CodeSecret       = codes.SpecSecret       // a credential in vllm.env or vllm.extra_args
	CodeTPHeads      = codes.SpecTPHeads      // tensor size does not divide the attention heads
	CodeBlockSplit   = codes.SpecBlockSplit   // layout splits block-quantized weights off the block grid
	CodePDLayout     = codes.SpecPDLayout     // disaggregation with a top-level parallelism
	CodePDNodes      = codes.SpecPDNodes      // pool or router node unknown, shared, or left out
	CodePDConnector  = codes.SpecPDConnector  // KV connector unknown, offloading, or not in the release
	CodePDPairing    = codes.SpecPDPairing    // TP, block size, KV dtype or speculation the connector cannot pair
	CodePDPorts      = codes.SpecPDPorts      // router, API, RPC and side-channel ports collide on a host
	CodePDHybridKV   = codes.SpecPDHybridKV   // sliding-window model, hybrid KV manager off under a connector
	CodeNVLinkDomain = codes.SpecNVLinkDomain // nvlink_domain on a GPU without one, too large, or splitting a node
	CodeNVLinkSplit  = codes.SpecNVLinkSplit  // a replica's nodes in two NVLink domains
	CodeNVLinkCuMem  = codes.SpecNVLinkCuMem  // a release that sets NCCL_CUMEM_ENABLE=0 itself
	// CodeNVLinkDomainUnset: NVL72 trays with no nvlink_domain (an info).
	CodeNVLinkDomainUnset = codes.SpecNVLinkDomainUnset
	CodeDCP               = codes.SpecDCP       // decode_context_parallel_size the release, tensor or model cannot run
	CodeDCPPacked         = codes.SpecDCPPacked // DCP on a model whose packed KV cache vlaunch sizes without it
	CodeRouter            = codes.SpecRouter    // a top-level router vlaunch cannot put in front of the deployment
	// CodeBlockSizeOverridden: an MLA block_size vLLM replaces, runs on
	// another backend, or handles unread in the release (an info).
	CodeBlockSizeOverridden = codes.SpecBlockSizeOverridden
	// CodeLoRA: LoRA in vllm.extra_args, not in the estimate (rules_lora.go).
	CodeLoRA = codes.SpecLoRAUnmodelled
)
