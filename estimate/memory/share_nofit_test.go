package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestShareNoFitIsAWarning pins EST103 as a warning: vLLM's scheduler
// queues the requests its free KV blocks cannot take and preempts running
// ones when their decodes need blocks (shareNoFit), so a concurrency that
// does not fit at once costs latency, not the deployment. EST102 (one
// max_model_len sequence does not fit: vLLM refuses to start) stays an
// error.
func TestShareNoFitIsAWarning(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "qwen3-8b", GPU: "h100-sxm", MaxModelLen: 32768, Concurrency: 64})
	in.Workload.SessionTokens = 32768
	m := Estimate(in)
	if m.Capacity.Fits || !m.Capacity.OneSequenceFits {
		t.Fatalf("64 sessions of 32,768 tokens on one H100: fits %v, one sequence %v; the case needs a share that does not fit", m.Capacity.Fits, m.Capacity.OneSequenceFits)
	}
	ds := Findings(in, &m)
	var f *diag.Diagnostic
	for i := range ds {
		if ds[i].Code == CodeShareNoFit {
			f = &ds[i]
		}
	}
	if f == nil {
		t.Fatalf("no EST103 in %v", ds)
	}
	if f.Severity != diag.Warning || ds.HasErrors() || codes.Severity(CodeShareNoFit) != diag.Warning {
		t.Errorf("EST103 must be a warning (vLLM queues the excess), finding %v, catalog %v, errors %v", f.Severity, codes.Severity(CodeShareNoFit), ds.HasErrors())
	}
	held := m.Capacity.MaxSeqsPerRank
	for _, want := range []string{"queues the rest", "preempts running requests", fmt.Sprintf("at most %d run at once per rank", held)} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
	if !strings.Contains(f.Hint, "SLO verdicts") {
		t.Errorf("hint does not point to the SLO verdicts: %s", f.Hint)
	}

	in.Workload.SessionTokens = 0
	in.MaxModelLen = 2_000_000
	m = Estimate(in)
	ds = Findings(in, &m)
	if !ds.HasErrors() || codes.Severity(CodeSeqTooLong) != diag.Error {
		t.Errorf("a max_model_len that cannot fit once must stay an error (EST102: vLLM refuses to start): %v", ds)
	}
}
