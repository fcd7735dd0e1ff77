package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestFA2VarlenFor checks which deployments run FA2's one varlen call:
// vLLM V1 on compute capability 8.x with a GQA model, not Hopper (FA3),
// not MLA, not sinks or an FP8 KV cache, not V0, not another backend.
func TestFA2VarlenFor(t *testing.T) {
	v011, _, err := vllm.ResolveString("0.11.0")
	if err != nil {
		t.Fatal(err)
	}
	v05, _, err := vllm.ResolveString("0.5.0")
	if err != nil {
		t.Fatal(err)
	}
	qwen, dsv3, oss := perfModel(t, "qwen3-14b"), perfModel(t, "deepseek-v3"), perfModel(t, "gpt-oss-20b")
	a100, h100 := perfGPU(t, "a100-80g"), perfGPU(t, "h100-sxm")
	for _, tt := range []struct {
		name string
		got  bool
		want bool
	}{
		{"A100 Qwen3-14B 0.11.0", FA2VarlenFor(v011, a100, qwen, false, nil), true},
		{"H100 runs FA3", FA2VarlenFor(v011, h100, qwen, false, nil), false},
		{"MLA", FA2VarlenFor(v011, a100, dsv3, false, nil), false},
		{"sinks (gpt-oss): Triton", FA2VarlenFor(v011, a100, oss, false, nil), false},
		{"FP8 KV: Triton", FA2VarlenFor(v011, a100, qwen, true, nil), false},
		{"V0 release", FA2VarlenFor(v05, a100, qwen, false, nil), false},
		{"another backend named", FA2VarlenFor(v011, a100, qwen, false, map[string]string{"VLLM_ATTENTION_BACKEND": "FLASHINFER"}), false},
		{"FLASH_ATTN named", FA2VarlenFor(v011, a100, qwen, false, map[string]string{"VLLM_ATTENTION_BACKEND": "FLASH_ATTN"}), true},
		{"no GPU", FA2VarlenFor(v011, nil, qwen, false, nil), false},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestFA2MixedDecodeRowsByHand derives the padded tiles of Qwen3-14B on
// one A100 (312 TFLOPS BF16) for 100 decodes at 2,048 context beside a
// 2,000-token chunk:
//
//	useful decode FLOPs = 4 × 128 (head dim) × 40 heads × 40 layers × 100 × 2,048
//	                    = 167.8 GFLOPs
//	padded: 64 rows a tile, 63 of them empty → 63 × 167.8 = 10.57 TFLOPs
//	at 0.5 × 312 TFLOPS = 67.8 ms
//
// and checks that decode-only and prefill-only steps add nothing, that
// the step grows by at most the tiles' time, and that H100 (FA3) and the
// switch off add nothing.
func TestFA2MixedDecodeRowsByHand(t *testing.T) {
	defer func(v bool) { UseFA2MixedDecodeRows = v }(UseFA2MixedDecodeRows)
	UseFA2MixedDecodeRows = true
	m, g := perfModel(t, "qwen3-14b"), perfGPU(t, "a100-80g")
	if m.NumHeads != 40 || m.HeadDim != 128 || m.NumLayers != 40 || g.BF16TFLOPS != 312 {
		t.Fatalf("catalog moved: heads %d, head dim %d, layers %d, A100 %v TF", m.NumHeads, m.HeadDim, m.NumLayers, g.BF16TFLOPS)
	}
	s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, FA2Varlen: true, Eff: idealEff}
	sm := NewStepModel(s)
	dec := RankLoad{DecodeSeqs: 100, DecodeCtx: 100 * 2048}
	pre := RankLoad{PrefillTokens: 2000, PrefillPairs: 2000 * 2001 / 2.0, PrefillSeqs: 1}
	mixed := RankLoad{DecodeSeqs: dec.DecodeSeqs, DecodeCtx: dec.DecodeCtx, PrefillTokens: pre.PrefillTokens, PrefillPairs: pre.PrefillPairs, PrefillSeqs: 1}
	useful := 4.0 * 128 * 40 * 40 * 100 * 2048
	if f := sm.attnFLOPs(dec, true); math.Abs(f/useful-1) > 1e-9 {
		t.Fatalf("decode FLOPs %.4g, hand %.4g", f, useful)
	}
	want := 63 * useful / (0.5 * 312e12)
	if got := sm.fa2MixedDecodeS(mixed); math.Abs(got/want-1) > 1e-9 {
		t.Errorf("padded tiles %.2f ms, hand %.2f ms", 1e3*got, 1e3*want)
	}
	if d, p := sm.fa2MixedDecodeS(dec), sm.fa2MixedDecodeS(pre); d != 0 || p != 0 {
		t.Errorf("decode-only %.3g s, prefill-only %.3g s: want 0 (max_seqlen_q == 1 packs the group; no decodes)", d, p)
	}
	on := sm.StepUniform(mixed).TotalS
	UseFA2MixedDecodeRows = false
	off := sm.StepUniform(mixed).TotalS
	if on <= off || on-off > want*(1+1e-9) {
		t.Errorf("step %.1f ms on, %.1f ms off: want it to grow by at most the tiles' %.1f ms", 1e3*on, 1e3*off, 1e3*want)
	}
	UseFA2MixedDecodeRows = true
	s.FA2Varlen = false // Hopper's FA3, SGLang, …
	if x := NewStepModel(s).fa2MixedDecodeS(mixed); x != 0 {
		t.Errorf("without FA2's varlen call: %.3g s, want 0", x)
	}
}
