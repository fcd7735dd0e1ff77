package lint

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
)

// Codes reported outside a rule's Check.
const (
	// codeSuppression is a malformed or unknown suppression comment.
	codeSuppression = "VL002"
	// codeUnusedSuppression is a suppression that matched nothing.
	codeUnusedSuppression = "VL003"
	// codeVersion notes a vLLM version outside the table.
	codeVersion = "VL006"
	// codeDirective is a malformed or contradictory `# vlaunch:vllm-version=` directive.
	codeDirective = "VL007"
	// codeNoLaunch notes an input in which no vLLM launch was found.
	codeNoLaunch = "VL008"
)

// Rules is the registry: every rule, in code order. Codes are never reused.
var Rules = []*Rule{
	{Code: launch.CodeSyntax, Name: "syntax", Severity: diag.Error, Summary: "The file cannot be parsed as shell or YAML"},
	{Code: codeSuppression, Name: "bad-suppression", Severity: diag.Warning, Summary: "A suppression comment names an unknown code or gives no reason"},
	{Code: codeUnusedSuppression, Name: "unused-suppression", Severity: diag.Warning, Summary: "A suppression comment matches no finding"},
	{Code: "VL004", Name: "unresolved", Severity: diag.Info, Summary: "Some vLLM arguments cannot be resolved statically", check: checkUnresolved},
	{Code: "VL005", Name: "unchecked-flag", Severity: diag.Info, Summary: "A flag is not in vlaunch's table for the vLLM version", check: checkUncheckedFlags},
	{Code: codeVersion, Name: "version", Severity: diag.Info, Summary: "The vLLM version is not in the table; the nearest release is used"},
	{Code: codeDirective, Name: "bad-directive", Severity: diag.Warning, Summary: "A vllm-version directive is malformed or contradicts another"},
	{Code: codeNoLaunch, Name: "no-launch", Severity: diag.Info, Summary: "No vLLM server or Ray start was found in the file, so nothing in it was checked"},
	{Code: launch.CodePlaceholder, Name: "placeholder", Severity: diag.Info, Summary: "The file has placeholders to fill in; each is read as one unresolved value"},

	{Code: "VL101", Name: "unknown-flag", Severity: diag.Error, Summary: "Unknown flag that looks like a misspelling of a real one", check: func(p *pass) { checkUnknownFlag(p, "unknown") }},
	{Code: "VL102", Name: "flag-version", Severity: diag.Error, Summary: "Flag removed in, or not yet added to, the vLLM version", check: func(p *pass) { checkUnknownFlag(p, "version") }},
	{Code: "VL103", Name: "bad-value", Severity: diag.Error, Summary: "Flag value of the wrong type, out of range, or missing", check: checkValues},
	{Code: "VL104", Name: "bad-choice", Severity: diag.Error, Summary: "Flag value is not one of the allowed choices", check: checkChoices},
	{Code: "VL105", Name: "switch-value", Severity: diag.Error, Summary: "A boolean switch is given a value", check: checkBoolValue},
	{Code: "VL106", Name: "duplicate-flag", Severity: diag.Warning, Summary: "A flag is given twice with different values", check: checkDuplicates},
	{Code: "VL107", Name: "env-name", Severity: diag.Warning, Summary: "Environment variable removed, not yet added, or misspelled", check: checkEnvNames},
	{Code: "VL108", Name: "env-value", Severity: diag.Error, Summary: "Environment variable has an invalid value", check: checkEnvValues},
	{Code: "VL109", Name: "backend-no-ep", Severity: diag.Warning, Summary: "DeepEP backend without expert parallel or with DP size 1", check: checkBackendNoEP},
	{Code: "VL110", Name: "backend-single-node", Severity: diag.Warning, Summary: "Single-node all-to-all backend in a multi-node deployment", check: checkBackendMultiNode},
	{Code: "VL111", Name: "world-size", Severity: diag.Error, Summary: "A node needs more GPUs than it has", check: checkWorldSize},
	{Code: "VL112", Name: "headless", Severity: diag.Error, Summary: "--headless where it is ignored or combined with incompatible flags", check: checkHeadless},
	{Code: "VL113", Name: "start-rank-primary", Severity: diag.Warning, Summary: "A start rank on a node that is not --headless", check: checkStartRankPrimary},
	{Code: "VL114", Name: "gpu-memory-headroom", Severity: diag.Warning, Summary: "gpu-memory-utilization leaves no headroom", check: checkGPUMemUtil},
	{Code: "VL115", Name: "trust-remote-code", Severity: diag.Error, Summary: "Model needs --trust-remote-code", check: checkTrustRemoteCode},
	{Code: "VL116", Name: "kv-cache-dtype", Severity: diag.Error, Summary: "KV-cache dtype unsupported by the model's attention", check: checkKVDType},
	{Code: "VL117", Name: "max-model-len", Severity: diag.Error, Summary: "max-model-len exceeds the model's context", check: checkMaxModelLen},
	{Code: "VL118", Name: "local-gt-global", Severity: diag.Error, Summary: "Local DP size larger than the global DP size", check: checkLocalGtGlobal},
	{Code: "VL119", Name: "missing-local-size", Severity: diag.Error, Summary: "Multi-node DP without --data-parallel-size-local", check: checkMissingLocal},
	{Code: "VL120", Name: "dbo", Severity: diag.Error, Summary: "--enable-dbo without EP, DP > 1 and a DeepEP backend", check: checkDBO},
	{Code: "VL121", Name: "eplb-no-ep", Severity: diag.Error, Summary: "--enable-eplb without expert parallel", check: checkEPLB},
	{Code: "VL122", Name: "lb-modes", Severity: diag.Error, Summary: "More than one DP load-balancing mode", check: checkLBModes},
	{Code: "VL123", Name: "not-exported", Severity: diag.Warning, Summary: "A launch variable is assigned but not exported", check: checkUnexported},
	{Code: "VL124", Name: "extra-argument", Severity: diag.Error, Summary: "A stray argument vLLM cannot place", check: checkExtraPositional},
	{Code: "VL125", Name: "kv-fit", Severity: diag.Error, Summary: "max-model-len does not fit in the KV cache (with --spec)", check: checkKVFit},
	{Code: "VL126", Name: "deprecated", Severity: diag.Info, Summary: "Flag or variable deprecated in the vLLM version", check: checkDeprecated},
	{Code: "VL127", Name: "joined-flag", Severity: diag.Error, Summary: "One argument holds a flag and its value", check: checkJoinedFlag},
	{Code: "VL128", Name: "model-first", Severity: diag.Warning, Summary: "The model is not the first argument of vllm serve", check: checkModelFirst},

	{Code: "VL201", Name: "same-flags", Severity: diag.Error, Summary: "Model or parallel flags differ between nodes", check: checkSameFlags},
	{Code: "VL202", Name: "dp-size", Severity: diag.Error, Summary: "Global DP size differs between nodes", check: checkDPSize},
	{Code: "VL203", Name: "local-sum", Severity: diag.Error, Summary: "Local DP sizes do not add up to the global DP size", check: checkLocalSum},
	{Code: "VL204", Name: "start-ranks", Severity: diag.Error, Summary: "Start ranks are not contiguous from 0", check: checkStartRanks},
	{Code: "VL205", Name: "primary", Severity: diag.Error, Summary: "Not exactly one primary (non-headless) node", check: checkPrimary},
	{Code: "VL206", Name: "dp-address", Severity: diag.Error, Summary: "DP address missing, loopback, different between nodes or not the primary", check: checkAddress},
	{Code: "VL207", Name: "rpc-port", Severity: diag.Error, Summary: "DP RPC port differs between nodes", check: checkRPCPort},
	{Code: "VL208", Name: "socket-ifname", Severity: diag.Warning, Summary: "Socket interface set on some nodes only, or Gloo and NCCL disagree", check: checkSocketIfname},
	{Code: "VL209", Name: "no-socket-ifname", Severity: diag.Info, Summary: "No node sets GLOO_SOCKET_IFNAME or NCCL_SOCKET_IFNAME", check: checkNoSocketIfname},
	{Code: "VL210", Name: "host-ip", Severity: diag.Error, Summary: "VLLM_HOST_IP shared by several nodes or loopback", check: checkHostIP},
	{Code: "VL211", Name: "backend-same", Severity: diag.Error, Summary: "All-to-all backend differs between nodes", check: checkBackendSame},
	{Code: "VL212", Name: "port-conflict", Severity: diag.Error, Summary: "Two servers on one host use the same port", check: checkPortConflict},
	{Code: "VL213", Name: "nnodes", Severity: diag.Error, Summary: "Inconsistent --nnodes, --node-rank or --master-addr", check: checkNNodes},
	{Code: "VL214", Name: "ray-heads", Severity: diag.Warning, Summary: "More than one Ray head", check: checkRayHeads},
	{Code: "VL215", Name: "api-server-count", Severity: diag.Info, Summary: "Primary relies on the automatic API-server count", check: checkAPIServerCount},
	{Code: "VL216", Name: "versions", Severity: diag.Error, Summary: "Nodes run different vLLM versions", check: checkVersions},

	{Code: "VL301", Name: "comment-continuation", Severity: diag.Error, Summary: "Comment inside a continued command", check: checkCommentContinuation},
	{Code: "VL302", Name: "trailing-space", Severity: diag.Error, Summary: "Whitespace after a line-continuation backslash", check: checkTrailingSpace},
	{Code: "VL303", Name: "leading-flag", Severity: diag.Error, Summary: "A line starts with a flag (missing continuation)", check: checkLeadingFlag},
	{Code: "VL304", Name: "repeated-entrypoint", Severity: diag.Error, Summary: "Container command repeats the image's entrypoint", check: checkRepeatedEntrypoint},
	{Code: "VL305", Name: "docker-shm", Severity: diag.Warning, Summary: "Container without --ipc=host or --shm-size", check: checkDockerShm},
	{Code: "VL306", Name: "docker-network", Severity: diag.Warning, Summary: "Multi-node container without host networking", check: checkDockerNetwork},
	{Code: "VL307", Name: "undefined-env-ref", Severity: diag.Error, Summary: "Manifest refers to an environment variable nothing defines", check: checkUndefinedRefs},
	{Code: "VL308", Name: "host-only-env", Severity: diag.Warning, Summary: "Variable set on the host is not passed into the container", check: checkHostOnlyEnv},
	{Code: "VL309", Name: "crlf", Severity: diag.Error, Summary: "Shell file with Windows artefacts: CRLF line endings, a byte-order mark or PowerShell continuations", check: checkCRLF},
	{Code: "VL310", Name: "export-command", Severity: diag.Error, Summary: "export followed by a command, which export does not run", check: checkExportCommand},

	{Code: "VL401", Name: "spec-address", Severity: diag.Error, Summary: "DP address is not the spec's primary node", check: checkSpecAddress},
	{Code: "VL402", Name: "spec-node-count", Severity: diag.Warning, Summary: "The scripts start a different number of nodes than the spec", check: checkSpecNodeCount},
	{Code: "VL403", Name: "spec-host-ip", Severity: diag.Warning, Summary: "VLLM_HOST_IP is not a spec node's address", check: checkSpecHostIP},
	{Code: "VL404", Name: "spec-interface", Severity: diag.Warning, Summary: "Socket interface differs from the spec's node interface", check: checkSpecInterface},
}
