package perf

import (
	"math"
	"testing"
)

// The micro-batches a step's work fills under PP (pipeline.go), by hand:
// decoding sequences and final chunks are one unit each (vLLM never splits
// a request's scheduled tokens over two scheduler outputs), a chunk with
// more of its prompt to come counts PP (its successors follow it one stage
// behind); the busiest micro-batch holds 1/m of the decodes and mid chunks
// and ⌈f/m⌉ of the f final chunks whole.
func TestMicroBatches(t *testing.T) {
	for _, c := range []struct {
		name     string
		pp       int
		load     RankLoad
		wantM    float64
		wantBusy RankLoad
	}{
		{"PP1: no pipeline", 1, RankLoad{DecodeSeqs: 16, DecodeCtx: 1600}, 1, RankLoad{DecodeSeqs: 16, DecodeCtx: 1600}},
		{"one decode: one micro-batch, not two halves", 2, RankLoad{DecodeSeqs: 1, DecodeCtx: 100}, 1, RankLoad{DecodeSeqs: 1, DecodeCtx: 100}},
		{"16 decodes over 2 stages: 8 each", 2, RankLoad{DecodeSeqs: 16, DecodeCtx: 1600}, 2, RankLoad{DecodeSeqs: 8, DecodeCtx: 800}},
		{"a lone final chunk crosses both stages whole", 2, RankLoad{PrefillTokens: 2000, PrefillPairs: 2001000, PrefillSeqs: 1, PrefillFinal: 1}, 1,
			RankLoad{PrefillTokens: 2000, PrefillPairs: 2001000, PrefillSeqs: 1, PrefillFinal: 1}},
		{"a mid chunk: the next one fills the other stage", 2, RankLoad{PrefillTokens: 2048, PrefillPairs: 2048 * 1024.5, PrefillSeqs: 1}, 2,
			RankLoad{PrefillTokens: 1024, PrefillPairs: 1024 * 1024.5, PrefillSeqs: 0.5}},
		{"16 decodes and a final chunk: 8 decodes beside the whole chunk", 2,
			RankLoad{DecodeSeqs: 16, DecodeCtx: 1600, PrefillTokens: 2000, PrefillPairs: 2001000, PrefillSeqs: 1, PrefillFinal: 1}, 2,
			RankLoad{DecodeSeqs: 8, DecodeCtx: 800, PrefillTokens: 2000, PrefillPairs: 2001000, PrefillSeqs: 1, PrefillFinal: 1}},
		{"PP4, three final chunks of 100: three micro-batches of one", 4, RankLoad{PrefillTokens: 300, PrefillPairs: 3 * 5050, PrefillSeqs: 3, PrefillFinal: 3}, 3,
			RankLoad{PrefillTokens: 100, PrefillPairs: 5050, PrefillSeqs: 1, PrefillFinal: 1}},
		{"PP2, three final chunks and 2 decodes: ⌈3/2⌉ chunks and 1 decode", 2,
			RankLoad{DecodeSeqs: 2, DecodeCtx: 200, PrefillTokens: 300, PrefillPairs: 3 * 5050, PrefillSeqs: 3, PrefillFinal: 3}, 2,
			RankLoad{DecodeSeqs: 1, DecodeCtx: 100, PrefillTokens: 200, PrefillPairs: 2 * 5050, PrefillSeqs: 2, PrefillFinal: 2}},
	} {
		pp := float64(c.pp)
		if m := c.load.microBatchCount(pp); m != c.wantM {
			t.Errorf("%s: %v micro-batches, want %v", c.name, m, c.wantM)
			continue
		}
		got := c.load.stageLoad(pp)
		for _, f := range [][3]any{{"decodes", got.DecodeSeqs, c.wantBusy.DecodeSeqs}, {"decode context", got.DecodeCtx, c.wantBusy.DecodeCtx},
			{"prefill tokens", got.PrefillTokens, c.wantBusy.PrefillTokens}, {"pairs", got.PrefillPairs, c.wantBusy.PrefillPairs},
			{"chunks", got.PrefillSeqs, c.wantBusy.PrefillSeqs}} {
			if g, w := f[1].(float64), f[2].(float64); math.Abs(g-w) > 1e-9*max(1, w) {
				t.Errorf("%s: busiest micro-batch's %s %v, want %v", c.name, f[0], g, w)
			}
		}
	}
}

// Each DP rank splits its own work (its own engine core and batch queue):
// a rank with one decode does not put the other's 16 in one micro-batch.
func TestMicroBatchesPerDPRank(t *testing.T) {
	sm := &StepModel{S: StepSetup{PP: 2, DP: 2}}
	runs := []RankRun{{Loads: []RankLoad{{DecodeSeqs: 16, DecodeCtx: 1600}, {DecodeSeqs: 1, DecodeCtx: 100}}, N: 1}}
	if m := sm.microBatches(runs); m != 2 {
		t.Errorf("DP 2 × PP 2, 16 and 1 decodes: %v micro-batches in the busiest pipeline, want 2", m)
	}
	if f := sm.microBatchFrac(runs); f != 0.5 {
		t.Errorf("DP 2 × PP 2, 16 and 1 decodes: the busiest stage load carries %v of the busiest rank's tokens, want 8 of 16", f)
	}
}

// qa44b F1: Llama-3.1-405B FP8 on H100, TP8 × PP2 over two nodes against
// TP8 on one. A chunk crosses the two stages one after the other, so a
// prompt of one chunk costs the PP1 engine's GPU time, not half of it:
// 2,000 tokens × 807.5 GFLOP / 8 GPUs = 202 TFLOP per GPU of the chain,
// ≥ 102 ms at the FP8 dense peak of 1,979 TFLOP/s (the model gave 91.9 ms).
// Chunks with more of the prompt behind them pipeline: of four 2,048-token
// chunks the first three cost one stage each (½ of PP1's chunk, compute-
// bound) and the last both stages: (3 × ½ + 1) / 4 = 0.625 of PP1's GPU
// time (a little more: the later chunks' attention is the larger part of
// their stage). One decoding sequence is one micro-batch: both engines read
// the same weights once per token.
func TestPipelineStagesRunInTurn(t *testing.T) {
	g := perfGPU(t, "h100-sxm")
	hw := NewHardware(g, 8, 0, 2, 400, 8, 5)
	model := perfModel(t, "llama-3.1-405b")
	at := func(pp int) *StepModel {
		return NewStepModel(StepSetup{Model: model, HW: hw, TP: 8, PP: pp, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true,
			Eff: ForGPU(DefaultEfficiency, g)})
	}
	pp1, pp2 := at(1), at(2)
	gpu := func(st StepTime) float64 { return st.TotalS - st.OverheadS - st.ExposedNetworkS - st.KernelGapsS }
	for _, c := range []struct {
		name     string
		pp1, pp2 float64
		lo, hi   float64
	}{
		{"2,000-token prompt, one chunk", pp1.PrefillIdle(2000, 8192).GPUS, pp2.PrefillIdle(2000, 8192).GPUS, 0.95, 1.05},
		{"8,192-token prompt, four chunks of 2,048", pp1.PrefillIdle(8192, 2048).GPUS, pp2.PrefillIdle(8192, 2048).GPUS, 0.60, 0.70},
		{"one decoding sequence at 2,000", gpu(pp1.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 2000})),
			gpu(pp2.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 2000})), 0.95, 1.05},
	} {
		t.Logf("%s: TP8 × PP2 %.1f ms, TP8 %.1f ms, ratio %.3f", c.name, c.pp2*1e3, c.pp1*1e3, c.pp2/c.pp1)
		if r := c.pp2 / c.pp1; r < c.lo || r > c.hi {
			t.Errorf("%s: GPU time %.1f ms at TP8 × PP2, %.1f ms at TP8: ratio %.3f, want %.2f–%.2f", c.name, c.pp2*1e3, c.pp1*1e3, r, c.lo, c.hi)
		}
	}
	floor := 2000 * LinearFLOPsPerToken(model) / 8 / hw.FP8FLOPS
	if got := pp2.PrefillIdle(2000, 8192).GPUS; got < floor {
		t.Errorf("2,000-token prefill at TP8 × PP2: %.1f ms of GPU time, below the FP8 peak's %.1f ms", got*1e3, floor*1e3)
	}
}

// qa44b F5: a prefix-cache hit skips the cached tokens' KV, not the new
// tokens' attention over them. Llama-3.1-8B on one H100, a 32,000-token
// prompt whose first 19,200 are cached, chunks of 8,192. By hand, with a
// prefill's GPU time a·tokens + b·pairs (linear layers per token, causal
// attention per query-key pair, both compute-bound at these sizes):
//   - fresh 12,800: 12,800 tokens, 12,800²/2 ≈ 81.9 M pairs;
//   - fresh 32,000: 32,000 tokens, 512 M pairs;
//   - 12,800 after 19,200 cached: 12,800 tokens, 12,800 × (19,200 + 6,400)
//     = 327.7 M pairs (16,384 FLOP a pair and layer × 32 layers: 172 TFLOP
//     of attention beside 179 TFLOP of linear layers, where the fresh
//     12,800 has 43).
//
// a and b solved from the two fresh prompts predict the cached one; the
// model gave it the fresh 12,800's time.
func TestPrefixHitAttendsToTheCachedPrefix(t *testing.T) {
	g := perfGPU(t, "h100-sxm")
	sm := NewStepModel(StepSetup{Model: perfModel(t, "llama-3.1-8b"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)})
	pairs := func(cached, n float64) float64 { return n * (cached + n/2) }
	f, w := sm.PrefillIdle(12800, 8192).GPUS, sm.PrefillIdle(32000, 8192).GPUS
	// f = 12,800a + P(0,12,800)b; w = 32,000a + P(0,32,000)b
	pf, pw := pairs(0, 12800), pairs(0, 32000)
	b := (w - 2.5*f) / (pw - 2.5*pf)
	a := (f - pf*b) / 12800
	want := 12800*a + pairs(19200, 12800)*b
	got := sm.PrefillIdleCached(32000, 19200, 8192)
	t.Logf("cached %.0f ms, hand %.0f ms; fresh 12,800 %.0f ms, 32,000 %.0f ms", got.GPUS*1e3, want*1e3, f*1e3, w*1e3)
	if math.Abs(got.GPUS/want-1) > 0.05 {
		t.Errorf("12,800 tokens after 19,200 cached: %.0f ms of GPU time, want ≈ %.0f ms (a = %.3g s/token, b = %.3g s/pair; fresh 12,800 %.0f ms, 32,000 %.0f ms)",
			got.GPUS*1e3, want*1e3, a, b, f*1e3, w*1e3)
	}
	if got.InputTokens != 32000 || got.Steps != 2 {
		t.Errorf("cached prefill: %d tokens in %d steps, want 32,000 in 2 (8,192 + 4,608 computed)", got.InputTokens, got.Steps)
	}
	if none := sm.PrefillIdleCached(32000, 0, 8192); none != sm.PrefillIdle(32000, 8192) {
		t.Errorf("nothing cached: %+v, want PrefillIdle's %+v", none, sm.PrefillIdle(32000, 8192))
	}
	// Bad input never panics: a hit beyond the prompt recomputes its last token.
	if over := sm.PrefillIdleCached(100, 500, 8192); over.Steps != 1 || over.TTFTS <= 0 {
		t.Errorf("hit of 500 on a 100-token prompt: %+v, want one step of the last token", over)
	}
}
