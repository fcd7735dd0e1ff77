package estimate

import (
	"slices"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// startRefusalCodes are the estimate's errors that stop vLLM at start-up,
// as each finding's own message says: no memory left for the KV cache
// (EST101, "vLLM fails at start-up"), one max_model_len sequence does not
// fit (EST102, "vLLM refuses to start"), max_model_len above the model's
// derived maximum (EST107, "vLLM refuses it"), and the pipeline KV check's
// refusal (EST109 at error level; at warning it only may refuse). The other
// errors leave engines that start: EST103's sessions queue.
var startRefusalCodes = []diag.Code{codes.EstNoKVMemory, codes.EstSeqTooLong, codes.EstLenAboveConfig, codes.EstPPKVCheck}

// StartRefusals is the one decision on whether the deployment's engines
// start, for generate's summary ("vLLM will not start") and the SLO
// verdicts (slo.NotStarting) alike (newuser40 finding 3: the summary said
// "the bundle starts" beside EST102 saying vLLM refuses to start): the
// codes of the findings' errors that stop vLLM, in the order found; none
// means it starts.
func StartRefusals(findings diag.Diagnostics) []string {
	var out []string
	for _, f := range findings {
		if f.Severity == diag.Error && slices.Contains(startRefusalCodes, f.Code) && !slices.Contains(out, string(f.Code)) {
			out = append(out, string(f.Code))
		}
	}
	return out
}
