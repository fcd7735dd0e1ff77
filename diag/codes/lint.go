package codes

import "github.com/vlaunch/vlaunch/diag"

// Lint codes (VLxxx): 0xx the front end, 1xx one invocation, 2xx across
// nodes, 3xx shell and container hygiene, 4xx against a spec (lint --spec).
const (
	VLSyntax              diag.Code = "VL001"
	VLBadSuppression      diag.Code = "VL002"
	VLUnusedSuppression   diag.Code = "VL003"
	VLUnresolved          diag.Code = "VL004"
	VLUncheckedFlag       diag.Code = "VL005"
	VLVersion             diag.Code = "VL006"
	VLBadDirective        diag.Code = "VL007"
	VLNoLaunch            diag.Code = "VL008"
	VLPlaceholder         diag.Code = "VL009"
	VLUnknownFlag         diag.Code = "VL101"
	VLFlagVersion         diag.Code = "VL102"
	VLBadValue            diag.Code = "VL103"
	VLBadChoice           diag.Code = "VL104"
	VLSwitchValue         diag.Code = "VL105"
	VLDuplicateFlag       diag.Code = "VL106"
	VLEnvName             diag.Code = "VL107"
	VLEnvValue            diag.Code = "VL108"
	VLBackendNoEP         diag.Code = "VL109"
	VLBackendSingleNode   diag.Code = "VL110"
	VLWorldSize           diag.Code = "VL111"
	VLHeadless            diag.Code = "VL112"
	VLStartRankPrimary    diag.Code = "VL113"
	VLGPUMemoryHeadroom   diag.Code = "VL114"
	VLTrustRemoteCode     diag.Code = "VL115"
	VLKVCacheDType        diag.Code = "VL116"
	VLMaxModelLen         diag.Code = "VL117"
	VLLocalGtGlobal       diag.Code = "VL118"
	VLMissingLocalSize    diag.Code = "VL119"
	VLDBO                 diag.Code = "VL120"
	VLEPLBNoEP            diag.Code = "VL121"
	VLLBModes             diag.Code = "VL122"
	VLNotExported         diag.Code = "VL123"
	VLExtraArgument       diag.Code = "VL124"
	VLKVFit               diag.Code = "VL125"
	VLDeprecated          diag.Code = "VL126"
	VLJoinedFlag          diag.Code = "VL127"
	VLModelFirst          diag.Code = "VL128"
	VLSecret              diag.Code = "VL129"
	VLSpeculative         diag.Code = "VL130"
	VLNCCLTransport       diag.Code = "VL131"
	VLKVTransferConfig    diag.Code = "VL132"
	VLKVConnector         diag.Code = "VL133"
	VLDCP                 diag.Code = "VL134"
	VLHelmIgnored         diag.Code = "VL135"
	VLDeepEPLLTokens      diag.Code = "VL136"
	VLBlockSize           diag.Code = "VL137"
	VLConfigKeys          diag.Code = "VL138"
	VLTPHeads             diag.Code = "VL139"
	VLSameFlags           diag.Code = "VL201"
	VLDPSize              diag.Code = "VL202"
	VLLocalSum            diag.Code = "VL203"
	VLStartRanks          diag.Code = "VL204"
	VLPrimary             diag.Code = "VL205"
	VLDPAddress           diag.Code = "VL206"
	VLRPCPort             diag.Code = "VL207"
	VLSocketIfname        diag.Code = "VL208"
	VLNoSocketIfname      diag.Code = "VL209"
	VLHostIP              diag.Code = "VL210"
	VLBackendSame         diag.Code = "VL211"
	VLPortConflict        diag.Code = "VL212"
	VLNNodes              diag.Code = "VL213"
	VLRayHeads            diag.Code = "VL214"
	VLAPIServerCount      diag.Code = "VL215"
	VLVersions            diag.Code = "VL216"
	VLLBModeHeadless      diag.Code = "VL217"
	VLRayDriverEnv        diag.Code = "VL218"
	VLNodeAddress         diag.Code = "VL219"
	VLRayDPBackend        diag.Code = "VL220"
	VLExternalRanks       diag.Code = "VL221"
	VLNixlHost            diag.Code = "VL222"
	VLNixlPorts           diag.Code = "VL223"
	VLPDConnector         diag.Code = "VL224"
	VLPDTPRatio           diag.Code = "VL225"
	VLPDProxy             diag.Code = "VL226"
	VLNixlUCX             diag.Code = "VL227"
	VLSharedGPUs          diag.Code = "VL228"
	VLNixlTCP             diag.Code = "VL229"
	VLNixlPullSameNode    diag.Code = "VL230"
	VLRayClusterGPUs      diag.Code = "VL231"
	VLRayHeadAddress      diag.Code = "VL232"
	VLPDState             diag.Code = "VL233"
	VLRouterWorkers       diag.Code = "VL234"
	VLCommentContinuation diag.Code = "VL301"
	VLTrailingSpace       diag.Code = "VL302"
	VLLeadingFlag         diag.Code = "VL303"
	VLRepeatedEntrypoint  diag.Code = "VL304"
	VLDockerShm           diag.Code = "VL305"
	VLDockerNetwork       diag.Code = "VL306"
	VLUndefinedEnvRef     diag.Code = "VL307"
	VLHostOnlyEnv         diag.Code = "VL308"
	VLCRLF                diag.Code = "VL309"
	VLExportCommand       diag.Code = "VL310"
	VLShBashism           diag.Code = "VL311"
	VLSpecAddress         diag.Code = "VL401"
	VLSpecNodeCount       diag.Code = "VL402"
	VLSpecHostIP          diag.Code = "VL403"
	VLSpecInterface       diag.Code = "VL404"
	VLSpecLayout          diag.Code = "VL405"
	VLSpecPDRole          diag.Code = "VL406"
	VLSpecPDConnector     diag.Code = "VL407"
	VLSpecPDPools         diag.Code = "VL408"
	VLSpecPDRouter        diag.Code = "VL409"
	VLSpecSettings        diag.Code = "VL410"
)

// lintEntries are the VL codes in code order.
var lintEntries = []Entry{
	{VLSyntax, "syntax", diag.Error, "The file cannot be parsed as shell or YAML"},
	{VLBadSuppression, "bad-suppression", diag.Warning, "A suppression comment names an unknown code or gives no reason"},
	{VLUnusedSuppression, "unused-suppression", diag.Warning, "A suppression comment matches no finding"},
	{VLUnresolved, "unresolved", diag.Info, "Some vLLM arguments cannot be resolved statically"},
	{VLUncheckedFlag, "unchecked-flag", diag.Info, "A flag is in no release of vlaunch's flag table, so its value goes unchecked"},
	{VLVersion, "version", diag.Info, "The vLLM version was inferred from an image name, or is not in the table (the nearest release is used)"},
	{VLBadDirective, "bad-directive", diag.Warning, "A vllm-version directive is malformed or contradicts another"},
	{VLNoLaunch, "no-launch", diag.Info, "No vLLM server or Ray start was found in the file, so nothing in it was checked"},
	{VLPlaceholder, "placeholder", diag.Info, "The file has placeholders to fill in; each is read as one unresolved value"},
	{VLUnknownFlag, "unknown-flag", diag.Error, "Unknown flag that looks like a misspelling of a real one"},
	{VLFlagVersion, "flag-version", diag.Error, "Flag removed in, or not yet added to, the vLLM version"},
	{VLBadValue, "bad-value", diag.Error, "Flag value of the wrong type, out of range, or missing"},
	{VLBadChoice, "bad-choice", diag.Error, "Flag value is not one of the allowed choices"},
	{VLSwitchValue, "switch-value", diag.Error, "A boolean switch is given a value"},
	{VLDuplicateFlag, "duplicate-flag", diag.Warning, "A flag is given twice with different values"},
	{VLEnvName, "env-name", diag.Warning, "Environment variable removed, not yet added, or misspelled"},
	{VLEnvValue, "env-value", diag.Error, "Environment variable has an invalid value"},
	{VLBackendNoEP, "backend-no-ep", diag.Warning, "DeepEP backend without expert parallel or with DP size 1"},
	{VLBackendSingleNode, "backend-single-node", diag.Warning, "Single-node all-to-all backend in a multi-node deployment"},
	{VLWorldSize, "world-size", diag.Error, "A node needs more GPUs than it has"},
	{VLHeadless, "headless", diag.Error, "--headless where it is ignored or combined with incompatible flags"},
	{VLStartRankPrimary, "start-rank-primary", diag.Warning, "A start rank on a node that is not --headless"},
	{VLGPUMemoryHeadroom, "gpu-memory-headroom", diag.Warning, "gpu-memory-utilization leaves no headroom"},
	{VLTrustRemoteCode, "trust-remote-code", diag.Error, "Model needs --trust-remote-code"},
	{VLKVCacheDType, "kv-cache-dtype", diag.Error, "KV-cache dtype unsupported by the model's attention"},
	{VLMaxModelLen, "max-model-len", diag.Error, "max-model-len exceeds the model's context"},
	{VLLocalGtGlobal, "local-gt-global", diag.Error, "Local DP size larger than the global DP size"},
	{VLMissingLocalSize, "missing-local-size", diag.Error, "Multi-node DP without --data-parallel-size-local"},
	{VLDBO, "dbo", diag.Error, "--enable-dbo without EP, DP > 1 and a DeepEP backend"},
	{VLEPLBNoEP, "eplb-no-ep", diag.Error, "--enable-eplb without expert parallel"},
	{VLLBModes, "lb-modes", diag.Error, "More than one DP load-balancing mode"},
	{VLNotExported, "not-exported", diag.Warning, "A launch variable is assigned but not exported"},
	{VLExtraArgument, "extra-argument", diag.Error, "A stray argument vLLM cannot place"},
	{VLKVFit, "kv-fit", diag.Error, "max-model-len does not fit in the KV cache (with --spec)"},
	{VLDeprecated, "deprecated", diag.Info, "Flag or variable deprecated in the vLLM version"},
	{VLJoinedFlag, "joined-flag", diag.Error, "One argument holds a flag and its value"},
	{VLModelFirst, "model-first", diag.Warning, "The model is not the first argument of vllm serve"},
	{VLSecret, "literal-secret", diag.Error, "A credential written into a launch file"},
	{VLSpeculative, "speculative-config", diag.Error, "A --speculative-config the release cannot run"},
	{VLNCCLTransport, "nccl-transport-disabled", diag.Warning, "NCCL peer-to-peer or InfiniBand switched off where the server needs it"},
	{VLKVTransferConfig, "kv-transfer-config", diag.Error, "--kv-transfer-config names a connector without kv_role, a kv_role vLLM refuses, or a key the release's KVTransferConfig lacks"},
	{VLKVConnector, "kv-connector-version", diag.Error, "KV connector not registered in the release (not yet, or no longer)"},
	{VLDCP, "decode-context-parallel-size", diag.Error, "A --decode-context-parallel-size the tensor size, the release, the model's attention or the forced attention backend cannot run"},
	{VLHelmIgnored, "helm-values-ignored", diag.Warning, "A Helm values key the chart's template does not read where it is written"},
	{VLDeepEPLLTokens, "deepep-ll-tokens", diag.Error, "DeepEP low-latency with more --max-num-batched-tokens than NVSHMEM_QP_DEPTH allows (vLLM 0.20.0 on): DeepEP asserts at the first MoE dispatch"},
	{VLBlockSize, "block-size-backend", diag.Error, "A --block-size the model's attention backends refuse (an error) or that vLLM replaces or moves to another backend (an info)"},
	{VLConfigKeys, "config-keys", diag.Error, "--compilation-config (its pass_config) or --eplb-config sets a key the release's config class lacks, or a cudagraph_mode it does not name"},
	{VLTPHeads, "tp-heads", diag.Error, "--tensor-parallel-size cannot split the attention heads of a model lint recognises"},
	{VLSameFlags, "same-flags", diag.Error, "Model or parallel flags differ between nodes"},
	{VLDPSize, "dp-size", diag.Error, "Global DP size differs between nodes"},
	{VLLocalSum, "local-sum", diag.Error, "Local DP sizes do not add up to the global DP size"},
	{VLStartRanks, "start-ranks", diag.Error, "Start ranks are not contiguous from 0"},
	{VLPrimary, "primary", diag.Error, "Not exactly one primary (non-headless) node"},
	{VLDPAddress, "dp-address", diag.Error, "DP address missing, loopback, different between nodes or not the primary"},
	{VLRPCPort, "rpc-port", diag.Error, "DP RPC port differs between nodes"},
	{VLSocketIfname, "socket-ifname", diag.Warning, "Socket interface set on some nodes only, or Gloo and NCCL disagree"},
	{VLNoSocketIfname, "no-socket-ifname", diag.Info, "No node sets GLOO_SOCKET_IFNAME or NCCL_SOCKET_IFNAME"},
	{VLHostIP, "host-ip", diag.Error, "VLLM_HOST_IP shared by several nodes or loopback"},
	{VLBackendSame, "backend-same", diag.Error, "All-to-all backend differs between nodes"},
	{VLPortConflict, "port-conflict", diag.Error, "Two servers (or a server and vllm-router) on one host use the same port"},
	{VLNNodes, "nnodes", diag.Error, "Inconsistent --nnodes, --node-rank or --master-addr"},
	{VLRayHeads, "ray-heads", diag.Warning, "More than one Ray head"},
	{VLAPIServerCount, "api-server-count", diag.Info, "Primary relies on the automatic API-server count"},
	{VLVersions, "versions", diag.Error, "Nodes run different vLLM versions"},
	{VLLBModeHeadless, "lb-mode-headless", diag.Error, "A node vLLM runs in hybrid or external LB next to --headless nodes, which it then refuses"},
	{VLRayDriverEnv, "ray-driver-env", diag.Warning, "A variable set only where vllm serve runs does not reach Ray workers on other nodes"},
	{VLNodeAddress, "ray-node-address", diag.Warning, "Ray and vLLM may disagree on a node's address"},
	{VLRayDPBackend, "ray-dp-backend", diag.Warning, "DP > 1 with the Ray executor but the mp DP backend"},
	{VLExternalRanks, "external-ranks", diag.Error, "Per-rank servers (external LB) repeat a DP rank or use one outside the DP size"},
	{VLNixlHost, "nixl-side-channel-host", diag.Error, "NIXL side-channel host not routable across the nodes of a P/D deployment"},
	{VLNixlPorts, "nixl-side-channel-ports", diag.Error, "NIXL side-channel ports or engine_id shared by two engines on one host"},
	{VLPDConnector, "pd-connector", diag.Warning, "An engine of a P/D deployment has no KV connector, or only one side has producers/consumers"},
	{VLPDTPRatio, "pd-tp-ratio", diag.Error, "Prefill and decode tensor-parallel sizes the release cannot pair"},
	{VLPDProxy, "pd-proxy", diag.Warning, "A P/D proxy or router whose kv_transfer_params do not fit the engines' connector"},
	{VLNixlUCX, "nixl-ucx-env", diag.Warning, "UCX settings that keep NIXL transfers from reaching other nodes"},
	{VLSharedGPUs, "gpus-shared", diag.Error, "Two engines on one host given the same GPU, whose memory budgets together exceed it"},
	{VLNixlTCP, "nixl-ucx-tcp", diag.Warning, "UCX_TLS without an RDMA transport: NIXL moves the KV between nodes over TCP"},
	{VLNixlPullSameNode, "nixl-pull-same-node", diag.Warning, "NIXL's pull connector between engines on one host without NVLink or RDMA: the reads fall back to TCP"},
	{VLRayClusterGPUs, "ray-cluster-gpus", diag.Error, "A Ray engine's world size exceeds the GPUs of its Ray cluster"},
	{VLRayHeadAddress, "ray-head-address", diag.Error, "A Ray worker joins another address than its head's"},
	{VLPDState, "pd-state", diag.Error, "A P/D engine of a Mamba/GDN hybrid whose connector cannot move the state, or NIXL without the DS conv state layout"},
	{VLRouterWorkers, "router-workers", diag.Error, "A router's worker URL names no server the files start on that host, or an external-LB rank is no worker of the router"},
	{VLCommentContinuation, "comment-continuation", diag.Error, "Comment inside a continued command"},
	{VLTrailingSpace, "trailing-space", diag.Error, "Whitespace after a line-continuation backslash"},
	{VLLeadingFlag, "leading-flag", diag.Error, "A line starts with a flag (missing continuation)"},
	{VLRepeatedEntrypoint, "repeated-entrypoint", diag.Error, "Container command repeats the image's entrypoint"},
	{VLDockerShm, "docker-shm", diag.Warning, "Container without --ipc=host or --shm-size"},
	{VLDockerNetwork, "docker-network", diag.Warning, "Multi-node container without host networking"},
	{VLUndefinedEnvRef, "undefined-env-ref", diag.Error, "Manifest or child shell refers to a variable nothing defines there"},
	{VLHostOnlyEnv, "host-only-env", diag.Warning, "Variable set on the host is not passed into the container"},
	{VLCRLF, "crlf", diag.Error, "Shell file with Windows artefacts: CRLF line endings, a byte-order mark or PowerShell continuations"},
	{VLExportCommand, "export-command", diag.Error, "export followed by a command, which export does not run"},
	{VLShBashism, "sh-bashism", diag.Warning, "A #!/bin/sh script decides whether a launch runs with a bash-only test (== in [ ], [[ ]]), false under dash"},
	{VLSpecAddress, "spec-address", diag.Error, "DP address is not the spec's primary node"},
	{VLSpecNodeCount, "spec-node-count", diag.Warning, "The scripts start a different number of nodes than the spec"},
	{VLSpecHostIP, "spec-host-ip", diag.Warning, "VLLM_HOST_IP (in a P/D pool, also VLLM_NIXL_SIDE_CHANNEL_HOST) is not a spec node's address (the pool's)"},
	{VLSpecInterface, "spec-interface", diag.Warning, "Socket interface differs from the spec's node interface"},
	{VLSpecLayout, "spec-layout", diag.Error, "Tensor, pipeline or data-parallel size or expert parallel differs from the spec's layout (a P/D spec: its pool's)"},
	{VLSpecPDRole, "spec-pd-role", diag.Error, "A P/D pool's engine has another kv_role than the spec's pool (NixlConnector: a warning; kv_both accepted)"},
	{VLSpecPDConnector, "spec-pd-connector", diag.Error, "A P/D pool's engine has no --kv-transfer-config or another connector than the spec's"},
	{VLSpecPDPools, "spec-pd-pools", diag.Warning, "A P/D spec's pool has no engine in the files, another number of instances, or an engine belongs to no pool"},
	{VLSpecPDRouter, "spec-pd-router", diag.Error, "The vLLM router's --prefill or --decode URL names no engine of that pool, or an instance gets no URL (a warning)"},
	{VLSpecSettings, "spec-settings", diag.Error, "The served model or an engine setting (max-num-seqs, max-num-batched-tokens, block size, GPU memory, KV dtype, all-to-all backend) differs from what the spec (a P/D spec: its pool) sets"},
}
