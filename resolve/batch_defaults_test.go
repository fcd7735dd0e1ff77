package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestBatchDefaultsFactAudit2: EngineArgs' default batch limits as the
// release files read in factaudit2 give them (vllm.Release.BatchedDPMoEDefault,
// vllm.Release.SeqsCappedByBatchedTokens): from 0.21.0 deepep_low_latency
// with EP and DP > 1 defaults max_num_batched_tokens to 256 and an unset
// max_num_seqs follows it; from 0.11.0 an unset max_num_seqs is capped at
// an explicit max_num_batched_tokens too; 0.9.0 does not cap.
func TestBatchDefaultsFactAudit2(t *testing.T) {
	intp := func(v int) *int { return &v }
	for _, tt := range []struct {
		version, all2all string
		tokens           *int
		seqs, toks       int
	}{
		// H20 (96 GiB): 1024 sequences, 8192 tokens under vllm serve.
		{"0.28.0", vllm.BackendDeepEPLowLatency, nil, 256, 256},
		{"0.19.0", vllm.BackendDeepEPLowLatency, nil, 1024, 8192},
		{"0.28.0", vllm.BackendDeepEPHighThroughput, nil, 1024, 8192},
		{"0.28.0", vllm.BackendDeepEPHighThroughput, intp(512), 512, 512},
		{"0.28.0", vllm.BackendDeepEPLowLatency, intp(4096), 1024, 4096},
		{"0.11.0", vllm.BackendDeepEPHighThroughput, intp(512), 512, 512},
	} {
		d := example(t, "deepseek-v3-32xh20.yaml")
		d.VLLM.Version, d.VLLM.All2AllBackend, d.VLLM.MaxNumBatchedTokens, d.VLLM.MaxNumSeqs = tt.version, tt.all2all, tt.tokens, nil
		e := mustResolve(t, d).Engine
		if e.All2All.Value != tt.all2all {
			t.Fatalf("%s: backend %s, want %s", tt.version, e.All2All.Value, tt.all2all)
		}
		if e.MaxNumSeqs.Value != tt.seqs || e.MaxNumBatchedTokens.Value != tt.toks {
			t.Errorf("%s %s tokens %v: %d seqs / %d tokens (%s), want %d / %d", tt.version, tt.all2all, tt.tokens,
				e.MaxNumSeqs.Value, e.MaxNumBatchedTokens.Value, e.MaxNumBatchedTokens.Why, tt.seqs, tt.toks)
		}
	}
}
