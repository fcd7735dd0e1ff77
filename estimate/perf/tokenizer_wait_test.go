package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// The micro-batching wait by release, by hand from the tags read
// (vllm.tokenizerBatchWaitSpan): AsyncMicrobatchTokenizer with
// batch_wait_timeout_s = 0.002 is in v0.10.0 (vllm/utils/__init__.py),
// v0.10.2, v0.11.0, v0.22.1 and v0.23.0 (vllm/utils/async_utils.py), so they
// wait 2 ms; v0.9.2 and v0.24.0 have no such class (0), nor has 0.9.0. A prompt
// sent as token ids (gpt-oss's harmony chat path) never waits, and with the
// switch off nothing does.
func TestTokenizerBatchWaitByRelease(t *testing.T) {
	defer func(v bool) { UseTokenizerBatchWait = v }(UseTokenizerBatchWait)
	UseTokenizerBatchWait = true
	for _, c := range []struct {
		release string
		want    float64
	}{
		{"0.9.0", 0}, {"0.9.1", 0}, {"0.9.2", 0}, {"0.10.0", 2e-3}, {"0.10.2", 2e-3}, {"0.11.0", 2e-3}, {"0.19.0", 2e-3}, {"0.22.1", 2e-3}, {"0.23.0", 2e-3}, {"0.24.0", 0}, {"0.26.0", 0},
	} {
		rel, _, err := vllm.ResolveString(c.release)
		if err != nil {
			t.Fatal(err)
		}
		if got := TokenizerBatchWait(rel, false); got != c.want {
			t.Errorf("%s: wait %g s, want %g", c.release, got, c.want)
		}
		if got := TokenizerBatchWait(rel, true); got != 0 {
			t.Errorf("%s: a token-id prompt waits %g s, want 0", c.release, got)
		}
	}
	rel, _, _ := vllm.ResolveString("0.11.0")
	UseTokenizerBatchWait = false
	if got := TokenizerBatchWait(rel, false); got != 0 {
		t.Errorf("switch off: wait %g s, want 0", got)
	}
}
