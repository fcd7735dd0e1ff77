package slo

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// idlePrefill is the idle prefill of a prompt of n tokens (check's idle
// TTFT, the alternatives' and what-ifs' idle figures, the stagger of the
// simulated sessions): the tokens the workload's prefix cache serves
// (computedPrompt) are not computed, but the new tokens' attention reads
// them — vLLM starts the request at the hit and attends over the whole
// context (perf.StepModel.PrefillIdleCached). Pricing the new tokens as a
// fresh prompt of their own length left out qa44b F5's 129 TFLOP of a
// 12,800-token suffix attending to a 19,200-token prefix on Llama-3.1-8B.
func idlePrefill(sm *perf.StepModel, in *input.Input, n int) perf.PrefillPoint {
	return sm.PrefillIdleCached(n, n-computedPrompt(in, n), max(1, in.MaxNumBatchedTokens))
}
