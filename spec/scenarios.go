package spec

import "slices"

// ScenarioInputLengths are the prompt lengths `vlaunch check` simulates
// the workload at, one scenario each: the workload's input length, then
// every other input length a TTFT target names.
func ScenarioInputLengths(w Workload, s SLO) []int {
	out := []int{max(1, w.InputTokens)}
	for _, t := range s.TTFT {
		if t.InputTokens > 0 && !slices.Contains(out, t.InputTokens) {
			out = append(out, t.InputTokens)
		}
	}
	return out
}

// MaxBurstReplays bounds a finite run's cost in a check: its
// burst_requests are simulated whole at every scenario input length
// (ScenarioInputLengths), so their product is what one check replays.
// 60,000 is three lengths (the reference's) of the largest run the schema
// accepts.
const MaxBurstReplays = 60_000
