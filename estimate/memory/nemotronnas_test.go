package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestNemotronSuper49BPlacement places nvidia/Llama-3_3-Nemotron-Super-49B-v1
// (catalog/nemotronnas.go; BF16, vLLM's nemotron_nas.py) on H100s, by hand.
// Its block_configs give layers 0–39 37 attention layers and FFN widths
// summing to 1,093,120, layers 40–79 12 attention layers and 549,376
// (every layer has an FFN; 49 attention layers, 1,642,496 in all).
//
// TP 2, PP 1 (parameters per GPU; BF16, 2 B each):
//
//	embed_tokens, lm_head: 2 × 64,128 (128,256 / 2, a multiple of 64) × 8,192 = 1,050,673,152
//	attention: 49 × (32 × 128 × 8,192 × 2 + 2 × 4 × 128 × 8,192)                = 3,699,376,128
//	MLP: 3 × 8,192 × 1,642,496 / 2                                               = 20,182,990,848
//	norms (49 + 80 + 1) × 8,192, replicated                                      =      1,064,960
//	RoPE cos/sin cache 131,072 × 128, replicated                                 =     16,777,216
//	→ 24,950,882,304 × 2 B = 46.4746 GiB.
//
// TP 2, PP 2: the first stage (layers 0–39) binds: embedding 525,336,576 +
// attention 37 × 75,497,472 = 2,793,406,464 + MLP 3 × 8,192 × 1,093,120 / 2
// = 13,432,258,560 + norms (37 + 40) × 8,192 = 630,784 + RoPE 16,777,216 =
// 16,768,409,600 × 2 B = 31.2336 GiB; the second (12 attention layers,
// lm_head, final norm) 15.2723 GiB. A uniform split (the mean layer × 40)
// would have put 23.2 GiB on each.
//
// KV per token per GPU: attention layers × KV heads per GPU × 128 × (K, V) ×
// 2 B: TP 2 49 × 4 → 100,352 B; TP 8 49 × 1 → 25,088 B; PP 2's first stage
// 37 × 4 → 75,776 B, its second 12 × 4 → 24,576 B.
//
// Llama-3.1-Nemotron-Ultra-253B-v1 (catalog's TestNemotronUltra253B) at TP 8:
// embed_tokens and lm_head 2 × 16,064 (128,256 / 8 padded to 64) × 16,384 +
// attention 36,507,222,016 / 8 + MLP 212,688,961,536 / 8 (every width a
// multiple of 256) + norms 2,392,064 + RoPE cache 16,777,216 =
// 31,695,077,376 parameters, 59.04 GiB in BF16; KV 64 × 1 × 128 × 2 × 2 =
// 32,768 B per token.
//
// No public vLLM start-up log of this model was found to compare against
// (searched 2026-12-07: the issues corpus for "Nemotron Super 49B" with
// "Model loading took", "GPU KV cache size", "DeciLMForCausalLM",
// vllm-project/vllm#15008, #15068, #15625, #15779; code and pages corpora;
// find_string on the model's serve command lines): the weights and KV
// figures here are checked by hand only.
func TestNemotronSuper49BPlacement(t *testing.T) {
	super, err := catalog.LoadHFConfig("../../catalog/testdata/hf/llama-3.3-nemotron-super-49b-v1.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	ultra, err := catalog.LoadHFConfig("../../catalog/testdata/hf/llama-3.1-nemotron-ultra-253b-v1.megatron-bridge.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m           *catalog.Model
		tp, pp      int
		weights     []float64 // params per GPU by stage
		kvPerToken  []int64   // B by stage
		attnLayers  []int
		denseParams []float64
	}{
		{super, 2, 1, []float64{24950882304}, []int64{100352}, []int{49}, []float64{20182990848}},
		{super, 8, 1, []float64{2*16064*8192 + 7398752256/8 + 40365981696/8 + 1064960 + 16777216}, []int64{25088}, []int{49}, []float64{40365981696 / 8}},
		{super, 2, 2, []float64{16768409600, 64128*8192 + 12*75497472 + 3*8192*549376/2 + (12+40+1)*8192 + 16777216}, []int64{75776, 24576}, []int{37, 12}, []float64{13432258560, 3 * 8192 * 549376 / 2}},
		{ultra, 8, 1, []float64{31695077376}, []int64{32768}, []int{64}, []float64{212688961536 / 8}},
	} {
		g, _ := catalog.LookupGPU("h100")
		m := c.m
		in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.19.0", Layout: input.Layout{TP: c.tp, PP: c.pp, DP: 1, Nodes: 1, GPUsPerNode: 8}}
		util := 0.9
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
			t.Fatal(ds)
		}
		r := Estimate(in)
		if len(r.Stages) != c.pp {
			t.Fatalf("TP %d PP %d: %d stages", c.tp, c.pp, len(r.Stages))
		}
		for i, s := range r.Stages {
			if got := s.WeightsGiB * GiB / 2; got != c.weights[i] {
				t.Errorf("TP %d PP %d stage %d: %.0f parameters per GPU, want %.0f", c.tp, c.pp, i, got, c.weights[i])
			}
			if s.KV.BytesPerToken != c.kvPerToken[i] || s.KV.Layers != c.attnLayers[i] {
				t.Errorf("TP %d PP %d stage %d: KV %d B per token over %d layers, want %d over %d", c.tp, c.pp, i, s.KV.BytesPerToken, s.KV.Layers, c.kvPerToken[i], c.attnLayers[i])
			}
			var dense float64
			for _, w := range s.Weights {
				if w.Component == CompDenseMLP {
					dense = w.ParamsPerGPU
				}
			}
			if dense != c.denseParams[i] {
				t.Errorf("TP %d PP %d stage %d: dense MLP %.0f per GPU, want %.0f", c.tp, c.pp, i, dense, c.denseParams[i])
			}
		}
	}
}
