package validate

import "github.com/vlaunch/vlaunch/diag"

// Diagnostic codes. SPEC0xx come from reading and schema-checking the
// document, SPEC1xx from the semantic rules. Codes are stable: tests and
// users' suppressions rely on them, so never renumber.
const (
	CodeUnreadable  = "SPEC000" // the file cannot be read
	CodeSyntax      = "SPEC001" // not YAML, empty, binary, several documents, alias bomb
	CodeUnknownKey  = "SPEC002" // a key the schema does not know
	CodeType        = "SPEC003" // a value of the wrong type
	CodeRequired    = "SPEC004" // a required key is missing
	CodeValue       = "SPEC005" // a value outside its enum or range
	CodeDuplicate   = "SPEC101" // two nodes share a name or an address
	CodeLayout      = "SPEC102" // tensor x pipeline x data != GPUs
	CodeNodeFit     = "SPEC103" // a TP x PP group does not fit the nodes
	CodeExpert      = "SPEC104" // expert parallel on a dense model
	CodeModel       = "SPEC105" // unknown model, unreadable or invalid config.json
	CodeGPU         = "SPEC106" // unknown GPU
	CodeContext     = "SPEC107" // lengths beyond max_model_len or the model's maximum
	CodeSLO         = "SPEC108" // TTFT percentiles out of order
	CodeFP8         = "SPEC109" // FP8 weights on a GPU without FP8 tensor cores
	CodePorts       = "SPEC110" // port and rpc_port collide
	CodeUnsafeName  = "SPEC111" // a name or path unsafe in a shell command or file name
	CodeInterface   = "SPEC112" // not a valid Linux interface name
	CodeAddress     = "SPEC113" // not an IP address or RFC 1123 host name
	CodeEnv         = "SPEC114" // env key not a shell identifier; NUL/newline in env or extra_args
	CodeNoInterface = "SPEC115" // multi-node without the socket interface
	CodeLoopback    = "SPEC116" // loopback primary address with several nodes
	CodeVersion     = "SPEC117" // vllm.version unparsable or not in vlaunch's table
	CodeBackend     = "SPEC118" // unknown all2all backend
	CodeNodeSize    = "SPEC119" // more GPUs in one node than any common platform carries
)

// Rules describes every code for SARIF output and documentation.
var Rules = []diag.RuleInfo{
	{Code: CodeUnreadable, Summary: "the spec file cannot be read"},
	{Code: CodeSyntax, Summary: "the spec is not one YAML mapping"},
	{Code: CodeUnknownKey, Summary: "unknown key"},
	{Code: CodeType, Summary: "value of the wrong type"},
	{Code: CodeRequired, Summary: "required key missing"},
	{Code: CodeValue, Summary: "value outside the allowed set or range"},
	{Code: CodeDuplicate, Summary: "duplicate node name or address"},
	{Code: CodeLayout, Summary: "tensor x pipeline x data does not equal the GPUs"},
	{Code: CodeNodeFit, Summary: "tensor x pipeline groups do not fit the nodes"},
	{Code: CodeExpert, Summary: "expert parallel requested for a dense model"},
	{Code: CodeModel, Summary: "unknown model or unusable config.json"},
	{Code: CodeGPU, Summary: "unknown GPU"},
	{Code: CodeContext, Summary: "token lengths exceed max_model_len or the model's maximum"},
	{Code: CodeSLO, Summary: "TTFT percentiles out of order"},
	{Code: CodeFP8, Summary: "FP8 weights on a GPU without FP8 tensor cores"},
	{Code: CodePorts, Summary: "port collision"},
	{Code: CodeUnsafeName, Summary: "name or path unsafe in a shell command or a file name"},
	{Code: CodeInterface, Summary: "invalid network interface name"},
	{Code: CodeAddress, Summary: "invalid node address"},
	{Code: CodeEnv, Summary: "invalid environment variable or argument"},
	{Code: CodeNoInterface, Summary: "multi-node deployment without a socket interface"},
	{Code: CodeLoopback, Summary: "loopback address in a multi-node deployment"},
	{Code: CodeVersion, Summary: "vLLM version unparsable or unknown"},
	{Code: CodeBackend, Summary: "unknown all2all backend"},
	{Code: CodeNodeSize, Summary: "unusually many GPUs in one node"},
}
