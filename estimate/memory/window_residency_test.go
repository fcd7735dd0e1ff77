package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestWindowResidencyGemma4_31B (user QA 39, finding 1): Gemma-4-31B NVFP4
// on one B200, vLLM 0.22.1, max_model_len 32,768, 8,192 batched tokens, 64
// sessions of 2,000 + 500 tokens. By hand, as vLLM groups it
// (TestGemma4KVAsVLLMGroupsIt): 5 sliding-window groups of 16-token blocks
// and 1 global group of 32-token blocks, 10 layers each, every page
// 262,144 B, so one block of every layer of a group is 2,621,440 B.
//
//   - vLLM's start-up charge (SlidingWindowSpec.max_memory_usage_bytes) of a
//     2,500-token sequence: 5 × (ceil(min(1,023 + 8,192, 2,500) / 16) + 1) +
//     ceil(2,500 / 32) = 5 × 158 + 79 = 869 blocks; of a 32,768-token one
//     5 × (ceil(9,215 / 16) + 1) + 1,024 = 3,909 (the "Maximum concurrency" line).
//   - What the same sequence holds running: vLLM frees the blocks that left
//     the window before each step (SlidingWindowManager.remove_skipped_blocks:
//     blocks below (num_computed_tokens − 1,024 + 1) / 16), so a decoding
//     sequence keeps 5 × (ceil(1,024 / 16) + 1) + 79 = 404 blocks, and the
//     prompt chunks in flight (8,192 tokens a step) take at most 5 ×
//     8,192 / 16 = 2,560 blocks of the pool besides.
//
// Before the fix the capacity counted 869 blocks a session: 60 fit and
// check refused the spec (EST103) while its own simulation ran 63.4.
func TestWindowResidencyGemma4_31B(t *testing.T) {
	in := qa39Gemma(t)
	m := in.Model
	const unit = 10 * 262144
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if got, want := kv.SequenceBytes(2500, 16), int64(869*unit); got != want {
		t.Errorf("start-up charge of 2,500 tokens %d B, want %d", got, want)
	}
	run := kv.RunCost(16)
	if got, want := run.Bytes(2500), int64(404*unit); got != want {
		t.Errorf("running 2,500-token sequence %d B, want %d", got, want)
	}
	if run.Reserve != 2560*unit {
		t.Errorf("reserve %d B, want %d", run.Reserve, 2560*unit)
	}
	r := Estimate(in)
	blocks := int(float64(r.NumBlocks) * 16 * float64(r.KVBytesPerToken) / unit) // vLLM's blocks of a group
	c := r.Capacity
	if want := (blocks - 2560) / 404; c.MaxSeqsPerRank != want || !c.Fits {
		t.Errorf("%d vLLM blocks: %d sessions fit (fits %v), want %d and fits", blocks, c.MaxSeqsPerRank, c.Fits, want)
	}
	if got := r.SequencesFit(2500); got != c.MaxSeqsPerRank {
		t.Errorf("decode curve's KV mark %d, capacity %d: one rule", got, c.MaxSeqsPerRank)
	}
	if got, want := r.MaxConcurrencyAtMaxModelLen, float64(blocks)/3909; got < want-0.01 || got > want+0.01 {
		t.Errorf("maximum concurrency at 32,768 %.2f, want %.2f (start-up charge)", got, want)
	}
	if c.MaxSeqsPerRank <= 64 || c.MaxSeqsPerRank > 2*64 {
		t.Errorf("%d sessions fit: want above the 64 the spec runs", c.MaxSeqsPerRank)
	}
	UseWindowResidency = false
	defer func() { UseWindowResidency = true }()
	if c := Estimate(in).Capacity; c.Fits || c.MaxSeqsPerRank != blocks/869 {
		t.Errorf("switch off: %d fit (fits %v), want %d and not fitting, the start-up charge", c.MaxSeqsPerRank, c.Fits, blocks/869)
	}
}

// qa39Gemma is user QA 39's spec: Gemma-4-31B-IT-NVFP4 on one B200 under
// vLLM 0.22.1, max_model_len 32,768, 8,192 batched tokens, 64 sessions of
// 2,000 + 500 tokens.
func qa39Gemma(t *testing.T) *input.Input {
	t.Helper()
	m := hfFixture(t, "gemma-4-31b-it-nvfp4.verbatim.json")
	g, _ := catalog.LookupGPU("b200")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.22.1", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	batched := 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", MaxModelLen: 32768, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	in.Workload.Concurrency, in.Workload.InputTokens, in.Workload.OutputTokens = 64, 2000, 500
	return in
}
