package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestCapacityFollowsTheWorkload is issue #27's case: 64 sessions of
// 4,096 + 512 tokens under max_model_len 32,768 fit (vLLM admits requests
// by their blocks; max_model_len only limits one request), while 64
// sessions that grow to the full 32,768 tokens — stated with
// session_tokens — do not; a max_model_len that does not fit once still
// refuses whatever the sessions.
func TestCapacityFollowsTheWorkload(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "qwen3-8b", GPU: "h100-sxm", MaxModelLen: 32768, Concurrency: 64})
	in.Workload.SessionTokens = 0
	in.Workload.InputTokens, in.Workload.OutputTokens = 4096, 512
	c := Estimate(in).Capacity
	if c.SessionTokens != 4608 || c.SessionBasis != "input + output tokens" || !c.Fits {
		t.Fatalf("64 × (4,096 + 512): %d tokens (%s), fits %v (max %d per rank); want 4,608 and fits", c.SessionTokens, c.SessionBasis, c.Fits, c.MaxSeqsPerRank)
	}
	perRequest := c.MaxSeqsPerRank

	in.Workload.SessionTokens = 32768
	c = Estimate(in).Capacity
	if c.SessionTokens != 32768 || c.SessionBasis != "workload.session_tokens" || c.Fits {
		t.Fatalf("64 sessions of 32,768: %d tokens (%s), fits %v (max %d per rank); want no fit", c.SessionTokens, c.SessionBasis, c.Fits, c.MaxSeqsPerRank)
	}
	if c.MaxSeqsPerRank*7 > perRequest {
		t.Errorf("32K sessions: %d per rank, 4.6K requests %d: the unit did not change", c.MaxSeqsPerRank, perRequest)
	}

	in.Workload.SessionTokens = 0
	in.MaxModelLen = 2_000_000
	if c := Estimate(in).Capacity; c.OneSequenceFits || c.Fits {
		t.Errorf("a 2M-token max_model_len that cannot fit once must refuse (vLLM does not start): %+v", c)
	}
}
