package estimate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// startRefusalCodes are the estimate's errors that stop vLLM at start-up,
// as each finding's own message says: no memory left for the KV cache
// (EST101, "vLLM fails at start-up"), one max_model_len sequence does not
// fit (EST102, "vLLM refuses to start"), max_model_len above the model's
// derived maximum (EST107, "vLLM refuses it"), and the pipeline KV check's
// refusal (EST109 at error level; at warning it only may refuse), and a
// state model's P/D hand-off the release cannot make (EST110: the engine
// stops at start-up, "failed to convert the KV cache specs"). The other
// errors leave engines that start: EST103's sessions queue.
var startRefusalCodes = []diag.Code{codes.EstNoKVMemory, codes.EstSeqTooLong, codes.EstLenAboveConfig, codes.EstPPKVCheck, codes.EstPDHandoffRefused}

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

// PoolFindings are one P/D pool's memory findings (Role: spec.RolePrefill
// or spec.RoleDecode), before CheckPD names the pool in their messages.
type PoolFindings struct {
	Role     string
	Findings diag.Diagnostics
}

// PoolsNotStarting re-judges a P/D check's verdicts by whether each pool
// starts, with the decision the colocated check takes (StartRefusals on
// the pool's findings, slo.NotStartingBecause): a pool vLLM refuses to
// start serves no request, so no verdict of the deployment has a
// predicted figure ("the prefill pool does not start (EST101)"); before,
// a prefill pool of GLM-5 BF16 with 177 GiB of weights per GPU still got
// "FAIL throughput: predicted 0 tokens/s", and a decode pool whose KV held
// no max_model_len sequence PASS/FAIL figures of its simulation. It also
// returns the codes (none: both pools start).
func PoolsNotStarting(vs []slo.Verdict, pools ...PoolFindings) ([]slo.Verdict, []string) {
	var whys, all []string
	for _, p := range pools {
		stop := StartRefusals(p.Findings)
		if len(stop) == 0 {
			continue
		}
		whys = append(whys, fmt.Sprintf("the %s pool does not start (%s)", p.Role, strings.Join(stop, ", ")))
		for _, c := range stop {
			if !slices.Contains(all, c) {
				all = append(all, c)
			}
		}
	}
	return slo.NotStartingBecause(vs, strings.Join(whys, "; "), all), all
}
