package logs

// Failure kinds: what broke, in the terms of issue 14.
const (
	KindOOMLoading          = "oom_loading"
	KindKVCacheInsufficient = "kv_cache_insufficient"
	KindNCCL                = "nccl"
	KindGlooInterface       = "gloo_interface"
	KindDeepEPNVSHMEM       = "deepep_nvshmem"
	KindDPHandshake         = "dp_handshake"
	KindRayPlacement        = "ray_placement"
	KindCUDAGraph           = "cuda_graph"
	KindVersionFlag         = "version_flag"
	KindOther               = "other"
)

// Kinds lists every failure kind, in the order reports and docs use.
var Kinds = []string{KindOOMLoading, KindKVCacheInsufficient, KindNCCL, KindGlooInterface,
	KindDeepEPNVSHMEM, KindDPHandshake, KindRayPlacement, KindCUDAGraph, KindVersionFlag, KindOther}

// Codes of the findings `vlaunch logs` reports. They are stable: tests,
// scripts and `vlaunch explain` refer to them.
const (
	CodeStopped          = "LOG001"
	CodeOOMLoading       = "LOG101"
	CodeFreeMemory       = "LOG102"
	CodeNoKVMemory       = "LOG111"
	CodeMaxLenTooLong    = "LOG112"
	CodeNCCL             = "LOG121"
	CodeGlooInterface    = "LOG131"
	CodeGlooConnect      = "LOG132"
	CodeGlooLoopback     = "LOG133"
	CodeDeepEP           = "LOG141"
	CodeDPTimeout        = "LOG151"
	CodeDPConfig         = "LOG152"
	CodeRayNoGPU         = "LOG161"
	CodeRayWaiting       = "LOG162"
	CodeCUDAGraph        = "LOG171"
	CodeUnknownFlag      = "LOG181"
	CodeDeprecated       = "LOG182"
	CodeOther            = "LOG191"
	CodeEngineDiedSilent = "LOG192"
)

// Def documents one code: its kind, default severity, a one-line summary
// and what to do about it. The report copies Fix into each finding,
// sometimes with figures from the log added.
type Def struct {
	Code, Name, Kind, Severity, Summary, Fix string
}

// Catalog lists every code, in code order.
var Catalog = []Def{
	{CodeStopped, "log-stops", "", "error", "The start-up stops without an error: the log ends before the server was ready",
		"A start-up that stops is waiting for something: see which rank got least far and what it was doing. " +
			"Waiting for a Ray placement group: `ray status` must show the GPUs. In a DP handshake: every node needs the same " +
			"--data-parallel-size, -address and -rpc-port, and the port must be reachable. In process-group set-up: set " +
			"GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME to the inter-node interface and run with NCCL_DEBUG=INFO. If the log was " +
			"simply cut before the server came up, capture it again until \"Application startup complete\"."},
	{CodeOOMLoading, "oom-loading", KindOOMLoading, "error", "CUDA out of memory while loading the weights or profiling",
		"The weights (plus the profiling batch) do not fit one GPU: spread the model over more GPUs (tensor, pipeline or " +
			"expert parallel), use a quantized checkpoint, or lower --max-num-batched-tokens; check that no other process " +
			"holds memory on the GPU (nvidia-smi). `vlaunch check` shows the weights per GPU before you start."},
	{CodeFreeMemory, "free-memory-below-utilization", KindOOMLoading, "error", "Less free GPU memory at start-up than gpu_memory_utilization asks for",
		"Another process (often a previous vLLM that did not exit) holds GPU memory: stop it, or lower " +
			"--gpu-memory-utilization to what is free (it is a fraction of the whole GPU, not of the free memory)."},
	{CodeNoKVMemory, "no-kv-cache-memory", KindKVCacheInsufficient, "error", "No memory left for the KV cache after weights, activations and non-torch memory",
		"Weights, the profiling activation peak and non-torch memory already use all of gpu_memory_utilization × the GPU: " +
			"raise --gpu-memory-utilization, use more GPUs per replica or a quantized checkpoint, or lower " +
			"--max-num-batched-tokens (it sets the activation peak)."},
	{CodeMaxLenTooLong, "max-model-len-exceeds-kv-cache", KindKVCacheInsufficient, "error", "One sequence of max_model_len does not fit the KV cache",
		"vLLM must hold at least one full-length sequence: lower --max-model-len to what fits, raise " +
			"--gpu-memory-utilization, use an fp8 KV cache (--kv-cache-dtype fp8) or more GPUs per replica."},
	{CodeNCCL, "nccl-error", KindNCCL, "error", "NCCL failed",
		"Re-run with NCCL_DEBUG=INFO and read the first NCCL WARN. Across nodes check NCCL_SOCKET_IFNAME (the interface " +
			"the nodes reach each other on), NCCL_IB_HCA and, on RoCE, NCCL_IB_GID_INDEX; in containers use host networking " +
			"and a large /dev/shm. 'invalid usage' with several engines on one host usually means two ranks on one GPU " +
			"(CUDA_VISIBLE_DEVICES)."},
	{CodeGlooInterface, "gloo-interface-not-found", KindGlooInterface, "error", "Gloo cannot find the network interface or address it was told to use",
		"GLOO_SOCKET_IFNAME (or the hostname vLLM resolved) names an interface or address that does not exist on this " +
			"node: set GLOO_SOCKET_IFNAME (and NCCL_SOCKET_IFNAME) to the inter-node interface as `ip addr` shows it on " +
			"every node, and VLLM_HOST_IP to this node's address on it."},
	{CodeGlooConnect, "gloo-connect-failed", KindGlooInterface, "error", "Gloo could not connect the ranks (connectFullMesh)",
		"Gloo bound to an interface the other nodes cannot reach (often the loopback or a docker bridge): set " +
			"GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME to the inter-node interface on every node, and VLLM_HOST_IP to the " +
			"node's address on it; check that the ports are open between nodes."},
	{CodeGlooLoopback, "gloo-loopback-fallback", KindGlooInterface, "warning", "Gloo fell back to the loopback address",
		"Harmless on one node; across nodes the other ranks cannot reach 127.0.0.1: set GLOO_SOCKET_IFNAME to the " +
			"inter-node interface."},
	{CodeDeepEP, "deepep-nvshmem-init", KindDeepEPNVSHMEM, "error", "DeepEP / NVSHMEM failed to initialise",
		"DeepEP's inter-node kernels need NVSHMEM with IBGDA on every node: the driver options of vLLM's " +
			"tools/ep_kernels/configure_system_drivers.sh (NVreg_EnableStreamMemOPs=1, PeerMappingOverride=1) and a reboot, " +
			"gdrcopy, `ulimit -l unlimited`, mlx5 NICs, the same driver version on all nodes; on RoCE set the GID index. " +
			"Or choose another --all2all-backend (allgather_reducescatter works everywhere)."},
	{CodeDPTimeout, "dp-handshake-timeout", KindDPHandshake, "error", "The data-parallel engines and the front-end did not find each other",
		"Every node must use the same --data-parallel-size, --data-parallel-address (node 0's address, reachable from " +
			"all nodes, not 127.0.0.1) and --data-parallel-rpc-port, and the port must be open; the local sizes must add up " +
			"to the DP size and the start ranks must follow each other. An engine that failed earlier also shows as a timeout: " +
			"look for its own error."},
	{CodeDPConfig, "dp-config-mismatch", KindDPHandshake, "error", "The data-parallel configuration does not fit the nodes or differs between them",
		"Each node runs --data-parallel-size-local × TP × PP GPUs: it must not exceed the GPUs visible there, and the " +
			"model, parallel and EP settings must be identical on every node (vLLM compares a configuration hash since 0.11.1)."},
	{CodeRayNoGPU, "ray-placement-impossible", KindRayPlacement, "error", "Ray cannot place the workers on GPUs",
		"`ray status` must show every node and GPU; start vLLM on a node that is part of the Ray cluster and has GPUs, " +
			"set VLLM_HOST_IP on each node to the address Ray uses, and make TP × PP no larger than the cluster's GPUs."},
	{CodeRayWaiting, "ray-placement-waiting", KindRayPlacement, "warning", "Ray is still waiting to place the workers",
		"The Ray cluster does not (yet) have the GPUs the placement group asks for: check `ray status`, that every " +
			"worker node joined, and that VLLM_HOST_IP matches the IP Ray uses on each node."},
	{CodeCUDAGraph, "cuda-graph-capture", KindCUDAGraph, "error", "CUDA graph capture failed",
		"CUDA graphs are captured after the KV cache is allocated; unless vLLM budgets them (the CUDA-graph memory " +
			"profiling, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS), they must fit in the memory gpu_memory_utilization leaves " +
			"free: lower --gpu-memory-utilization a little, capture fewer/smaller sizes, or run with --enforce-eager to confirm."},
	{CodeUnknownFlag, "unknown-argument", KindVersionFlag, "error", "vLLM refused an argument (unknown, removed or invalid in this release)",
		"vLLM's argument parser refused it: the flag does not exist in this release (added later, removed earlier, " +
			"misspelled) or it arrived malformed (a flag and its value in one word). Check `vllm serve --help` of the " +
			"image you run, or `vlaunch lint` the launch script with --vllm-version."},
	{CodeDeprecated, "deprecated-argument", KindVersionFlag, "warning", "A deprecated argument or variable is in use",
		"It still works in this release but will be removed: switch to the replacement vLLM names."},
	{CodeOther, "exception", KindOther, "error", "An exception stopped the start-up",
		"vlaunch does not recognise this error; the line and the traceback above it in the log say where it happened."},
	{CodeEngineDiedSilent, "engine-failed-no-cause", KindOther, "error", "An engine failed to start but its root cause is not in the log",
		"Only the generic 'failed to start' message was captured: look for the worker's own traceback further up (or in " +
			"the other nodes' logs); capture all processes' output (docker logs of every container, kubectl logs of every pod)."},
}

// defOf returns the catalog entry of a code.
func defOf(code string) Def {
	for _, d := range Catalog {
		if d.Code == code {
			return d
		}
	}
	return Def{Code: code, Kind: KindOther, Severity: "error"}
}
