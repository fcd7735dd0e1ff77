package resolve

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestUseV1EnvPicksTheEngine (qa44c F6): vllm PR #12569 served
// Llama-3.1-70B w8a8 on vLLM 0.7.x with VLLM_USE_V1=1; a spec with that
// variable in vllm.env was still described as running "vLLM V0 engine
// default" scheduler limits. The variable is read where the env table
// says the release reads it.
func TestUseV1EnvPicksTheEngine(t *testing.T) {
	for _, c := range []struct {
		version, env string
		seqs, toks   int
		why          string
	}{
		{"0.7.1", "", 256, 0, "V0 engine default"}, // tokens: V0's max(2048, max_model_len)
		{"0.7.1", "1", 1024, 2048, "V1 engine default (VLLM_USE_V1=1"},
	} {
		d := example(t, "llama-3.1-70b-8xa100.yaml")
		d.VLLM.Version = c.version
		d.VLLM.MaxNumSeqs, d.VLLM.MaxNumBatchedTokens = nil, nil
		if c.env != "" {
			d.VLLM.Env = map[string]string{vllm.UseV1Env: c.env}
		}
		e := mustResolve(t, d).Engine
		if e.MaxNumSeqs.Value != c.seqs || c.toks > 0 && e.MaxNumBatchedTokens.Value != c.toks || !strings.Contains(e.MaxNumSeqs.Why, c.why) {
			t.Errorf("%s VLLM_USE_V1=%q: max_num_seqs %d, max_num_batched_tokens %d (%s); want %d, %d (%s)",
				c.version, c.env, e.MaxNumSeqs.Value, e.MaxNumBatchedTokens.Value, e.MaxNumSeqs.Why, c.seqs, c.toks, c.why)
		}
	}
}
