package lint

import (
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// Codes reported outside a rule's Check.
const (
	// codeSuppression is a malformed or unknown suppression comment.
	codeSuppression = codes.VLBadSuppression
	// codeUnusedSuppression is a suppression that matched nothing.
	codeUnusedSuppression = codes.VLUnusedSuppression
	// codeVersion notes a vLLM version outside the table.
	codeVersion = codes.VLVersion
	// codeDirective is a malformed or contradictory `# vlaunch:vllm-version=` directive.
	codeDirective = codes.VLBadDirective
	// codeNoLaunch notes an input in which no vLLM launch was found.
	codeNoLaunch = codes.VLNoLaunch
)

// Rules is the registry: every rule, in code order. Codes are never reused.
var Rules = []*Rule{
	{Code: launch.CodeSyntax},
	{Code: codeSuppression},
	{Code: codeUnusedSuppression},
	{Code: codes.VLUnresolved, check: checkUnresolved},
	{Code: codes.VLUncheckedFlag, check: checkUncheckedFlags},
	{Code: codeVersion},
	{Code: codeDirective},
	{Code: codeNoLaunch},
	{Code: launch.CodePlaceholder},

	{Code: codes.VLUnknownFlag, check: func(p *pass) { checkUnknownFlag(p, "unknown") }},
	{Code: codes.VLFlagVersion, check: func(p *pass) { checkUnknownFlag(p, "version") }},
	{Code: codes.VLBadValue, check: checkValues},
	{Code: codes.VLBadChoice, check: checkChoices},
	{Code: codes.VLSwitchValue, check: checkBoolValue},
	{Code: codes.VLDuplicateFlag, check: checkDuplicates},
	{Code: codes.VLEnvName, check: checkEnvNames},
	{Code: codes.VLEnvValue, check: checkEnvValues},
	{Code: codes.VLBackendNoEP, check: checkBackendNoEP},
	{Code: codes.VLBackendSingleNode, check: checkBackendMultiNode},
	{Code: codes.VLWorldSize, check: checkWorldSize},
	{Code: codes.VLHeadless, check: checkHeadless, needs: []string{"headless"}},
	{Code: codes.VLStartRankPrimary, check: checkStartRankPrimary},
	{Code: codes.VLGPUMemoryHeadroom, check: checkGPUMemUtil},
	{Code: codes.VLTrustRemoteCode, check: checkTrustRemoteCode},
	{Code: codes.VLKVCacheDType, check: checkKVDType},
	{Code: codes.VLMaxModelLen, check: checkMaxModelLen},
	{Code: codes.VLLocalGtGlobal, check: checkLocalGtGlobal, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLMissingLocalSize, check: checkMissingLocal, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLDBO, check: checkDBO, needs: []string{"enable-dbo"}},
	{Code: codes.VLEPLBNoEP, check: checkEPLB, needs: []string{"enable-eplb"}},
	{Code: codes.VLLBModes, check: checkLBModes, needs: []string{"data-parallel-hybrid-lb"}},
	{Code: codes.VLNotExported, check: checkUnexported},
	{Code: codes.VLExtraArgument, check: checkExtraPositional},
	{Code: codes.VLKVFit, check: checkKVFit},
	{Code: codes.VLDeprecated, check: checkDeprecated},
	{Code: codes.VLJoinedFlag, check: checkJoinedFlag},
	{Code: codes.VLModelFirst, check: checkModelFirst},
	{Code: codes.VLSecret, check: checkSecrets},
	{Code: codes.VLSpeculative, check: checkSpeculative, needs: []string{"speculative-config"}},
	{Code: codes.VLNCCLTransport, check: checkNCCLTransports},
	{Code: codes.VLKVTransferConfig, check: checkKVTransferConfig, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLKVConnector, check: checkKVConnector, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLConfigKeys, since: vllm.ConfigFieldsFirstRead(), check: checkConfigKeys},
	{Code: codes.VLTPHeads, check: checkTPHeads, needs: []string{"tensor-parallel-size"}},
	{Code: codes.VLDCP, check: checkDCP, needs: []string{vllm.DCPFlag}},
	{Code: launch.CodeHelmIgnored}, // reported by the Helm values front end (lint/launch/manifest_helm.go)
	{Code: codes.VLDeepEPLLTokens, since: vllm.MoEDispatchBatchedSince(), check: checkDeepEPLLTokens, needs: []string{"max-num-batched-tokens"}},
	{Code: codes.VLBlockSize, since: vllm.UserBlockRefusalSince(), check: checkBlockSize, needs: []string{"block-size"}},

	{Code: codes.VLSameFlags, check: checkSameFlags, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLDPSize, check: checkDPSize, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLLocalSum, check: checkLocalSum, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLStartRanks, check: checkStartRanks, needs: []string{"data-parallel-start-rank"}},
	{Code: codes.VLPrimary, check: checkPrimary, needs: []string{"headless"}},
	{Code: codes.VLDPAddress, check: checkAddress, needs: []string{"data-parallel-address"}},
	{Code: codes.VLRPCPort, check: checkRPCPort, needs: []string{"data-parallel-rpc-port"}},
	{Code: codes.VLSocketIfname, check: checkSocketIfname},
	{Code: codes.VLNoSocketIfname, check: checkNoSocketIfname},
	{Code: codes.VLHostIP, check: checkHostIP},
	{Code: codes.VLBackendSame, check: checkBackendSame, needs: []string{"data-parallel-size-local"}},
	{Code: codes.VLPortConflict, check: checkPortConflict},
	{Code: codes.VLSharedGPUs, check: checkSharedGPUs},
	{Code: codes.VLNNodes, check: checkNNodes, needs: []string{"nnodes"}},
	{Code: codes.VLRayHeads, check: checkRayHeads},
	{Code: codes.VLAPIServerCount, check: checkAPIServerCount},
	{Code: codes.VLVersions, check: checkVersions},
	{Code: codes.VLLBModeHeadless, check: checkLBHeadless, needs: []string{"data-parallel-hybrid-lb"}},
	{Code: codes.VLRayDriverEnv, check: checkRayDriverEnv},
	{Code: codes.VLNodeAddress, check: checkRayNodeIP},
	{Code: codes.VLRayDPBackend, check: checkRayDPBackend},
	{Code: codes.VLExternalRanks, check: checkExternalRanks, needs: []string{"data-parallel-rank"}},
	{Code: codes.VLNixlHost, since: nixlSince, check: checkNixlHost, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLNixlPorts, since: nixlSince, check: checkNixlPorts, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLPDConnector, check: checkPDConnector, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLPDTPRatio, since: nixlSince, check: checkPDTPRatio, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLPDProxy, since: nixlSince, check: checkPDProxy, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLNixlUCX, since: nixlSince, check: checkNixlUCX, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLNixlTCP, since: nixlSince, check: checkNixlTCP, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLNixlPullSameNode, since: nixlSince, check: checkNixlPullSameNode, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLPDState, since: vllm.PDStateSince(), check: checkPDState, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLRayClusterGPUs, check: checkRayClusterGPUs},
	{Code: codes.VLRayHeadAddress, check: checkRayHeadAddress},
	{Code: codes.VLRouterWorkers, check: checkRouterWorkers},

	{Code: codes.VLCommentContinuation, check: checkCommentContinuation},
	{Code: codes.VLTrailingSpace, check: checkTrailingSpace},
	{Code: codes.VLLeadingFlag, check: checkLeadingFlag},
	{Code: codes.VLRepeatedEntrypoint, check: checkRepeatedEntrypoint},
	{Code: codes.VLDockerShm, check: checkDockerShm},
	{Code: codes.VLDockerNetwork, check: checkDockerNetwork},
	{Code: codes.VLUndefinedEnvRef, check: checkUndefinedRefs},
	{Code: codes.VLHostOnlyEnv, check: checkHostOnlyEnv},
	{Code: codes.VLCRLF, check: checkCRLF},
	{Code: codes.VLExportCommand, check: checkExportCommand},
	{Code: codes.VLShBashism, check: checkShBashism},

	{Code: codes.VLSpecAddress, check: checkSpecAddress, perPool: true},
	{Code: codes.VLSpecNodeCount, check: checkSpecNodeCount, perPool: true},
	{Code: codes.VLSpecHostIP, check: checkSpecHostIP, perPool: true},
	{Code: codes.VLSpecInterface, check: checkSpecInterface, perPool: true},
	{Code: codes.VLSpecLayout, check: checkSpecLayout, perPool: true},
	{Code: codes.VLSpecSettings, check: checkSpecSettings, perPool: true},
	{Code: codes.VLSpecPDRole, since: nixlSince, check: checkSpecPDRole, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLSpecPDConnector, since: nixlSince, check: checkSpecPDConnector, needs: []string{"kv-transfer-config"}},
	{Code: codes.VLSpecPDPools, since: nixlSince, check: checkSpecPDPools},
	{Code: codes.VLSpecPDRouter, since: nixlSince, check: checkSpecPDRouter},
}
