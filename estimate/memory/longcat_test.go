package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestLongCatFlashPlacement places LongCat-Flash-Chat (catalog/longcat.go;
// BF16, vLLM's longcat_flash.py) on 16 H800s, by hand. Per GPU:
//
// TP 16, experts TP-sharded (EP off):
//
//	embed_tokens, lm_head: 2 × 8,192 (131,072 / 16) × 6,144        =    100,663,296
//	attention: 56 MLA × (q_a 6,144 × 1,536 + 1,536 + kv_a 6,144 × 576 + 512,
//	  replicated; q_b 1,536 × 4 × 192 + kv_b 512 × 4 × 256 + o 4 × 128 × 6,144)
//	  = 56 × 17,827,840                                            =    998,359,040
//	dense MLPs: 56 × 3 × 6,144 × 12,288 / 16                       =    792,723,456
//	routed experts: 28 × 512 × 37,748,736 / 16                     = 33,822,867,456
//	norms 694,272 and the RoPE cache 131,072 × 64 = 8,388,608, replicated
//	→ 35,723,696,128 × 2 B, + the float32 router 28 × 6,144 × 768 + 28 ×
//	768 = 132,142,080 × 4 B = 71,975,960,576 B = 67.0328 GiB.
//
// TP 8 × DP 2 with EP: 32 whole experts per GPU (the same 33,822,867,456
// parameters: the zero experts hold none), 8 heads per GPU (56 ×
// 22,677,504 = 1,269,940,224), dense 56 × 28,311,552 = 1,585,446,912,
// embedding and LM head 2 × 16,384 × 6,144 → 36,888,664,064 × 2 B +
// router × 4 B = 69.2028 GiB.
//
// KV: one 576-value latent per MLA and token, replicated on every TP rank,
// 56 of them: 64,512 B per token (two per decoder layer).
//
// No public vLLM start-up log of LongCat-Flash was found to compare against
// (searched 2026-12-07: the issues corpus for "LongCat" with "Model loading
// took" / "GPU KV cache size", "LongcatFlashForCausalLM vllm serve
// LongCat-Flash-Chat-FP8", "vllm LongCat-Flash tensor-parallel-size 16
// Available KV cache memory"; find_string "LongCat-Flash-Chat-FP8" and
// "Resolved architecture: LongcatFlashForCausalLM" — recipes, API model
// lists and launch lines, no vLLM log): these figures are checked by hand
// only. Meituan's deployment guide (a public copy, code search index id
// 27738169823) runs BF16 on 16 × H800 as TP 8 × DP 2 without EP: the TP 8
// × DP 2 row's 69.2028 GiB, which at gpu_memory_utilization 0.9 (71.18 GiB
// usable) leaves no KV cache (check_longcat.txtar) — a prediction no log
// confirms or refutes.
func TestLongCatFlashPlacement(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/longcat-flash-chat.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tp, dp   int
		ep       bool
		bytes    float64
		routed   float64
		attn     float64
		denseMLP float64
	}{
		{16, 1, false, 71975960576, 33822867456, 998359040, 792723456},
		{8, 2, true, 36888664064*2 + 132142080*4, 33822867456, 1269940224, 1585446912},
	} {
		g, _ := catalog.LookupGPU("h800")
		in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: c.tp, PP: 1, DP: c.dp, EP: c.ep, Nodes: 2, GPUsPerNode: 8}}
		util := 0.9
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
			t.Fatal(ds)
		}
		r := Estimate(in)
		s := r.Stages[0]
		if got := s.WeightsGiB * GiB; math.Abs(got-c.bytes) > 1 {
			t.Errorf("TP %d DP %d EP %v: %.0f B of weights per GPU (%.4f GiB), want %.0f (%.4f GiB)", c.tp, c.dp, c.ep, got, got/GiB, c.bytes, c.bytes/GiB)
		}
		want := map[string]float64{CompRouted: c.routed, CompAttention: c.attn, CompDenseMLP: c.denseMLP, CompShared: 0}
		for _, w := range s.Weights {
			if v, ok := want[w.Component]; ok && math.Abs(w.ParamsPerGPU-v) > 0.5 {
				t.Errorf("TP %d DP %d EP %v: %s %.0f per GPU, want %.0f", c.tp, c.dp, c.ep, w.Component, w.ParamsPerGPU, v)
			}
		}
		if s.KV.BytesPerToken != 64512 || s.KV.Layers != 56 {
			t.Errorf("TP %d: KV %d B per token over %d layers, want 64,512 over 56", c.tp, s.KV.BytesPerToken, s.KV.Layers)
		}
	}
}
