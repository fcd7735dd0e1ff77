package slo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// startCodesAlternativesCheck are the start refusals an alternative's Fits
// (whatif.go: one max_model_len sequence fits and the KV pool is not empty)
// rules out: no memory for the KV cache (EST101) and one max_model_len
// sequence that does not fit (EST102). An alternative layout is evaluated
// as starting against these only; a refusal of another kind (max_model_len
// above the model's maximum, the pipeline KV check) holds for it unknown.
var startCodesAlternativesCheck = []string{string(codes.EstNoKVMemory), string(codes.EstSeqTooLong)}

// NotStarting re-judges the verdicts of a deployment vLLM refuses to start:
// refusals are the codes of the estimate's errors that stop it (the
// caller's one decision on that, in the order found). A deployment that
// does not start serves no request, so every SLO fails with no predicted
// figure (NotPredicted; Predicted 0, written null): the simulation the
// verdict rested on ran with no KV capacity and its "0 s" read as a
// measured latency (newuser40 spec 06: "FAIL TPOT (mean): target 40 ms,
// predicted 0 s" beside EST102). What it would take keeps only the
// alternative layouts evaluated as starting (their Fits), and only when
// every refusal is one that evaluation rules out; the other lines
// (sessions, router, load) were about the layout that does not start.
func NotStarting(vs []Verdict, refusals []string) []Verdict {
	return NotStartingBecause(vs, "vLLM does not start ("+strings.Join(refusals, ", ")+")", refusals)
}

// NotStartingBecause is NotStarting with the words of why (a P/D check's
// "the prefill pool does not start (EST101)": each pool judged by the
// same decision, estimate.StartRefusals), refusals being every code
// named in it.
func NotStartingBecause(vs []Verdict, why string, refusals []string) []Verdict {
	if len(refusals) == 0 {
		return vs
	}
	keepAlts, kvRefusal := true, false
	for _, c := range refusals {
		keepAlts = keepAlts && slices.Contains(startCodesAlternativesCheck, c)
		kvRefusal = kvRefusal || c != string(codes.EstLenAboveConfig) // all but max_model_len above the model's maximum are KV refusals
	}
	out := make([]Verdict, len(vs))
	for i, v := range vs {
		v.Verdict, v.Predicted, v.Unbounded = VerdictFail, 0, false
		v.Band, v.BandBasis = nil, ""
		v.NotPredicted = why
		if kvRefusal {
			v.Binding = BindKV
		}
		v.Explanation = fmt.Sprintf("%s: the error%s under Findings stop%s it at start-up, so it serves no request and there is nothing to simulate or predict",
			why, map[bool]string{true: "s", false: ""}[len(refusals) > 1], map[bool]string{true: "", false: "s"}[len(refusals) > 1])
		v.WouldPass = nil
		if keepAlts {
			v.WouldPass = slices.Clone(v.alternatives)
		}
		out[i] = v
	}
	return out
}

// verdictFields is Verdict without its methods (no MarshalJSON recursion).
type verdictFields Verdict

// MarshalJSON writes Predicted as null when the verdict has none
// (NotPredicted): 0 would read as a predicted figure of zero. The field
// keeps its place after target: the one top-level "predicted" key is
// rewritten (a string value cannot hold it, its quotes being escaped).
func (v Verdict) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(verdictFields(v))
	if err != nil || v.NotPredicted == "" {
		return b, err
	}
	return bytes.Replace(b, []byte(`,"predicted":0,`), []byte(`,"predicted":null,`), 1), nil
}
