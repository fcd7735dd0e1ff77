package resolve

import (
	"strings"
	"testing"
)

// TestV0SchedulerDefaults: releases that serve with the V0 engine by
// default (vllm.EngineEra: before 0.8.0, and versions older than the table,
// which resolve to its oldest release) get V0's scheduler defaults; 0.8.0
// and later the release's own.
func TestV0SchedulerDefaults(t *testing.T) {
	for _, tt := range []struct {
		version string
		v0      bool
	}{{"0.4.0", true}, {"0.7.3", true}, {"0.8.0", false}, {"0.11.0", false}} {
		d := example(t, "llama-3.1-70b-8xa100.yaml")
		d.VLLM.Version = tt.version
		e := mustResolve(t, d).Engine
		v0 := strings.Contains(e.MaxNumSeqs.Why, "V0")
		if v0 != tt.v0 || (v0 && (e.MaxNumSeqs.Value != 256 || e.MaxNumBatchedTokens.Value != max(e.MaxModelLen.Value, 2048))) {
			t.Errorf("vLLM %s: max_num_seqs %d (%s), max_num_batched_tokens %d; V0 defaults expected: %v",
				tt.version, e.MaxNumSeqs.Value, e.MaxNumSeqs.Why, e.MaxNumBatchedTokens.Value, tt.v0)
		}
	}
}
