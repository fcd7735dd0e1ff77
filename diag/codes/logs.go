package codes

import "github.com/vlaunch/vlaunch/diag"

// Log codes (LOGxxx), what `vlaunch logs` recognises in vLLM's start-up
// logs. 0xx the start-up as a whole, then one hundred per failure kind:
// 1xx memory (oom_loading, oom_runtime, oom_unknown_phase, kv_cache_insufficient, cuda_graph), 12x NCCL,
// 13x Gloo, 14x DeepEP/NVSHMEM, 15x the DP handshake, 16x Ray placement,
// 17x CUDA graphs, 18x arguments, 19x anything else; 2xx prefill/decode
// disaggregation (the KV connector: NIXL handshake, side channel, UCX, KV
// transfer).
const (
	LogStopped          diag.Code = "LOG001"
	LogEnds             diag.Code = "LOG002"
	LogOOMLoading       diag.Code = "LOG101"
	LogFreeMemory       diag.Code = "LOG102"
	LogOOMRuntime       diag.Code = "LOG103"
	LogOOMUnknownPhase  diag.Code = "LOG104"
	LogNoKVMemory       diag.Code = "LOG111"
	LogMaxLenTooLong    diag.Code = "LOG112"
	LogMambaBlocks      diag.Code = "LOG113"
	LogNCCL             diag.Code = "LOG121"
	LogGlooInterface    diag.Code = "LOG131"
	LogGlooConnect      diag.Code = "LOG132"
	LogGlooLoopback     diag.Code = "LOG133"
	LogGlooTimeout      diag.Code = "LOG134"
	LogDeepEP           diag.Code = "LOG141"
	LogDPTimeout        diag.Code = "LOG151"
	LogDPConfig         diag.Code = "LOG152"
	LogDPGlooTimeout    diag.Code = "LOG153"
	LogDPBind           diag.Code = "LOG154"
	LogDPHostname       diag.Code = "LOG155"
	LogRayNoGPU         diag.Code = "LOG161"
	LogRayWaiting       diag.Code = "LOG162"
	LogCUDAGraph        diag.Code = "LOG171"
	LogUnknownFlag      diag.Code = "LOG181"
	LogDeprecated       diag.Code = "LOG182"
	LogWorldSize        diag.Code = "LOG183"
	LogUnsupportedArch  diag.Code = "LOG184"
	LogTransformersType diag.Code = "LOG185"
	LogException        diag.Code = "LOG191"
	LogEngineDiedSilent diag.Code = "LOG192"
	LogErrorLine        diag.Code = "LOG193"
	LogWorkerDied       diag.Code = "LOG194"
	LogIterationTimeout diag.Code = "LOG195"
	LogDeepGEMM         diag.Code = "LOG196"
	LogRuntimeFailure   diag.Code = "LOG197"
	LogAscendDevice     diag.Code = "LOG198"
	LogMLAKVReshape     diag.Code = "LOG199"
	LogNixlEngineID     diag.Code = "LOG201"
	LogKVLeaseExpired   diag.Code = "LOG203"
	LogNixlSideChannel  diag.Code = "LOG204"
	LogNixlMissing      diag.Code = "LOG205"
	LogUCXTransports    diag.Code = "LOG206"
	LogUCXGID           diag.Code = "LOG207"
	LogHMAOffKVTooSmall diag.Code = "LOG208"
	LogHMAOffUnify      diag.Code = "LOG209"
	LogNixlTPRatio      diag.Code = "LOG210"
	LogNixlBackend      diag.Code = "LOG211"
	LogNixlHandshake    diag.Code = "LOG213"
	LogMooncakeTransfer diag.Code = "LOG214"
)

// logEntries are the LOG codes in code order. A warning is a line that
// often precedes a failure but does not stop the start-up by itself.
var logEntries = []Entry{
	{LogStopped, "log-stops", diag.Error, "The start-up stops without an error: the log ends with a process waiting for another, or in a cut traceback"},
	{LogEnds, "log-ends", diag.Info, "The log ends during start-up with no error and nothing waiting: an excerpt, or a capture cut before the server was up"},
	{LogOOMLoading, "log-oom-loading", diag.Error, "CUDA out of memory during the start-up: loading the weights, profiling, sizing the KV cache or the warm-up"},
	{LogFreeMemory, "log-free-memory", diag.Error, "Less free GPU memory at start-up than gpu_memory_utilization asks for"},
	{LogOOMRuntime, "log-oom-runtime", diag.Error, "CUDA out of memory after start-up: the engine ran out of memory while serving"},
	{LogOOMUnknownPhase, "log-oom-unknown-phase", diag.Error, "CUDA out of memory, and nothing in the log says whether during the start-up or while serving"},
	{LogNoKVMemory, "log-no-kv-memory", diag.Error, "No memory left for the KV cache after weights, activations and non-torch memory"},
	{LogMaxLenTooLong, "log-max-model-len", diag.Error, "One sequence of max_model_len does not fit the KV cache"},
	{LogMambaBlocks, "log-mamba-blocks", diag.Error, "max_num_seqs exceeds the Mamba cache blocks a hybrid model's state cache holds (one per decode sequence)"},
	{LogNCCL, "log-nccl", diag.Error, "NCCL failed"},
	{LogGlooInterface, "log-gloo-interface", diag.Error, "Gloo cannot find the network interface or address it was told to use"},
	{LogGlooConnect, "log-gloo-connect", diag.Error, "Gloo could not connect the ranks (connectFullMesh)"},
	{LogGlooLoopback, "log-gloo-loopback", diag.Warning, "Gloo fell back to the loopback address"},
	{LogGlooTimeout, "log-gloo-timeout", diag.Error, "Gloo gave up waiting for a peer rank to send or receive"},
	{LogDeepEP, "log-deepep-nvshmem", diag.Error, "DeepEP / NVSHMEM failed to initialise"},
	{LogDPTimeout, "log-dp-timeout", diag.Error, "The data-parallel engines and the front-end did not find each other"},
	{LogDPConfig, "log-dp-config", diag.Error, "The data-parallel configuration does not fit the nodes or differs between them"},
	{LogDPGlooTimeout, "log-dp-gloo-timeout", diag.Error, "The data-parallel ranks' Gloo synchronisation gave up waiting for a peer engine"},
	{LogDPBind, "log-dp-bind", diag.Error, "The data-parallel address or RPC port cannot be bound (ZMQ)"},
	{LogDPHostname, "log-dp-address-hostname", diag.Warning, "--data-parallel-address is a hostname, which vLLM binds as given"},
	{LogRayNoGPU, "log-ray-no-gpu", diag.Error, "Ray cannot place the workers on GPUs"},
	{LogRayWaiting, "log-ray-waiting", diag.Warning, "Ray is still waiting to place the workers"},
	{LogCUDAGraph, "log-cuda-graph", diag.Error, "CUDA graph capture failed"},
	{LogUnknownFlag, "log-unknown-argument", diag.Error, "vLLM refused an argument (unknown, removed or invalid in this release)"},
	{LogDeprecated, "log-deprecated", diag.Warning, "A deprecated argument or variable is in use"},
	{LogWorldSize, "log-world-size", diag.Error, "vLLM refused the configuration: one engine's world size (TP x PP) is larger than the GPUs it sees on the node"},
	{LogUnsupportedArch, "log-unsupported-architecture", diag.Error, "The vLLM release does not register the checkpoint's model architecture"},
	{LogTransformersType, "log-transformers-model-type", diag.Error, "The installed transformers does not know the checkpoint's model type"},
	{LogException, "log-exception", diag.Error, "An exception vlaunch does not recognise ended a start-up or a run"},
	{LogEngineDiedSilent, "log-no-root-cause", diag.Error, "An engine failed to start but its root cause is not in the log"},
	{LogErrorLine, "log-error-line", diag.Error, "An ERROR line vlaunch does not recognise"},
	{LogWorkerDied, "log-worker-died", diag.Error, "A worker process died"},
	{LogIterationTimeout, "log-iteration-timeout", diag.Error, "An engine step ran longer than VLLM_ENGINE_ITERATION_TIMEOUT_S and the engine gave up"},
	{LogDeepGEMM, "log-deepgemm", diag.Error, "DeepGEMM (FP8 kernels) is missing, outdated or unsupported on this GPU, or its JIT could not build or load a kernel"},
	{LogRuntimeFailure, "log-runtime-failure", diag.Error, "An engine failed after start-up, while serving (the log shows the server or the engine's busy loop running)"},
	{LogAscendDevice, "log-ascend-device-error", diag.Error, "An Ascend NPU operator failed on the device (AI Core execution timeout, error 507014; torch_npu ERR00100, CANN EH9999/EZ9999)"},
	{LogMLAKVReshape, "log-mla-kv-reshape", diag.Error, "The MLA KV cache could not be reshaped to the attention backend's layout (shape '[…, 576]' is invalid for input of size …)"},
	{LogNixlEngineID, "log-nixl-engine-id", diag.Error, "The NIXL handshake reached another engine than the one it asked for (engine ID mismatch): the decoder pulls no KV and recomputes the prompt"},
	{LogKVLeaseExpired, "log-kv-lease-expired", diag.Warning, "A prefill engine freed KV blocks before the decoder read them (lease or abort timeout expired)"},
	{LogNixlSideChannel, "log-nixl-side-channel", diag.Error, "The NIXL side-channel (handshake) listener cannot bind its address or port"},
	{LogNixlMissing, "log-nixl-missing", diag.Error, "The NIXL connector is configured but NIXL cannot be imported"},
	{LogUCXTransports, "log-ucx-transports", diag.Warning, "UCX cannot use the transports UCX_TLS names on this host"},
	{LogUCXGID, "log-ucx-gid", diag.Error, "UCX cannot create an address handle on the RDMA device (ibv_create_ah failed): RoCE GID index or device"},
	{LogHMAOffKVTooSmall, "log-kv-connector-hma-off", diag.Error, "The KV connector turned the hybrid KV cache manager off and the model's max_model_len no longer fits the KV cache"},
	{LogHMAOffUnify, "log-hma-off-unify", diag.Error, "The hybrid KV cache manager is off (a KV connector or --disable-hybrid-kv-cache-manager) and the hybrid model's layer caches cannot be unified into one type"},
	{LogNixlTPRatio, "log-nixl-tp-ratio", diag.Error, "NIXL cannot pair the prefill and decode tensor-parallel sizes (division by zero in tp_ratio)"},
	{LogNixlBackend, "log-nixl-backend", diag.Error, "A NIXL backend (UCX, LIBFABRIC…) failed: NIXL_ERR_BACKEND or another NIXL error status"},
	{LogNixlHandshake, "log-nixl-handshake", diag.Error, "A decoder's NIXL handshake with a prefill engine failed: the request's KV is not pulled (recomputed, or the request fails)"},
	{LogMooncakeTransfer, "log-mooncake-transfer", diag.Error, "A Mooncake KV connector's transfer of a request's KV failed (the transfer engine returned an error)"},
}
