package memory

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// weightsPerGPU is vlaunch's weights on one GPU of a TP group of tp ranks
// (one node, a GPU large enough), less RoPE's cos/sin cache, which no
// checkpoint stores.
func weightsPerGPU(t *testing.T, m *catalog.Model, tp int) float64 {
	t.Helper()
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g := &catalog.GPU{ID: "custom", Name: "a GPU large enough", MemoryMiB: 4 << 20, ComputeMajor: 9, IntraNodeKind: "nvlink"}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: tp}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
		t.Fatal(ds)
	}
	r := Estimate(in)
	total := r.PerGPU.WeightsGiB * GiB
	for _, w := range r.Weights {
		if w.Component == CompRoPECache {
			total -= w.GiB * GiB
		}
	}
	return total
}

// TestAWQGPTQWeightsPerGPUByHand holds vlaunch's weights per GPU for the
// published AWQ and GPTQ configs (catalog/testdata/hf, cited in its
// README) to a derivation by hand, tensor by tensor as the checkpoints
// store them and vLLM loads them:
//
//   - every linear layer of the decoder (q, k, v, o, gate, up, down) is
//     quantized (modules_to_not_convert null; GPTQ's config names no
//     exclusions): qweight int32 [K/8, N] (AWQ: [K, N/8]), ½ byte per
//     weight; scales fp16 [K/128, N], 2 bytes per group of 128 inputs;
//     qzeros int32 [K/128, N/8], ½ byte per group (AWQ with zero_point,
//     and GPTQ whatever sym says: AutoGPTQ stores them and vLLM's
//     GPTQ linear method allocates them): 0.5 + 2.5/128 bytes per weight;
//   - the q/k/v biases (Qwen2), the RMSNorms, the embedding and the LM
//     head stay 16-bit; embedding, LM head, q/k/v biases and the linear
//     layers split over TP, norms whole on every GPU.
//
// Left out by both: GPTQ's g_idx (int32 per input row of each linear,
// 233,472 B per Qwen2.5-32B layer, 0.08% of the checkpoint; vLLM's
// gptq_marlin drops it after loading when desc_act is false, as here).
// vlaunch sizes the q/k/v biases as 4-bit weights (they are counted with
// the attention parameters): (64 + 16) × 128 biases × (2 − b4) = 15,160 B
// per Qwen2.5-72B layer, 1.2 MB in 41.6 GB (7,168 × (2 − b4) = 10,612 B
// per Qwen2.5-32B layer). The test asserts that gap to the byte, so that
// any other difference fails it.
func TestAWQGPTQWeightsPerGPUByHand(t *testing.T) {
	const b4 = 0.5 + 2.5/128 // bytes per quantized weight, group 128
	type qwen2 struct{ h, inter, layers, heads, kv, vocab float64 }
	byHand := func(c qwen2, tp float64) float64 {
		const hd = 128.0
		linear := c.h*c.heads*hd + 2*c.h*c.kv*hd + c.heads*hd*c.h + 3*c.h*c.inter
		bias := (c.heads + 2*c.kv) * hd * 2
		norms := c.layers*2*c.h*2 + c.h*2
		return c.layers*(linear*b4+bias)/tp + norms + 2*c.vocab*c.h*2/tp
	}
	// Qwen2.5-72B-Instruct-AWQ pads intermediate_size to 29,696 (the BF16
	// model's is 29,568) so that it splits into whole groups of 128 at TP 8.
	awq72 := qwen2{8192, 29696, 80, 64, 8, 152064}
	gptq32 := qwen2{5120, 27648, 64, 40, 8, 152064}
	for _, tc := range []struct {
		file string
		c    qwen2
		tp   int
		want float64 // bytes per GPU, written out from byHand
	}{
		{"qwen2.5-72b-instruct-awq.json", awq72, 1, 41595518976},
		{"qwen2.5-72b-instruct-awq.json", awq72, 2, 20799078400},
		{"qwen2.5-72b-instruct-awq.json", awq72, 4, 10400858112},
		{"qwen2.5-72b-instruct-awq.json", awq72, 8, 5201747968},
		{"qwen2.5-32b-instruct-gptq-int4.json", gptq32, 1, 19328804864},
		{"qwen2.5-32b-instruct-gptq-int4.json", gptq32, 2, 9665062912},
		{"qwen2.5-32b-instruct-gptq-int4.json", gptq32, 4, 4833191936},
	} {
		if got := byHand(tc.c, float64(tc.tp)); got != tc.want {
			t.Errorf("%s TP%d: the derivation gives %.0f B, the table %.0f", tc.file, tc.tp, got, tc.want)
		}
		m := hfFixture(t, tc.file)
		got := weightsPerGPU(t, m, tc.tp)
		biasGap := tc.c.layers * (tc.c.heads + 2*tc.c.kv) * 128 * (2 - b4) / float64(tc.tp)
		t.Logf("%s TP%d: vlaunch %.0f B, by hand %.0f B (%+.4f%%; the biases' %.0f B)", tc.file, tc.tp, got, tc.want, 100*(got/tc.want-1), biasGap)
		if math.Abs(got-(tc.want-biasGap)) > 1024 {
			t.Errorf("%s TP%d: %.0f B per GPU, by hand %.0f less the biases' %.0f (%+.0f B)", tc.file, tc.tp, got, tc.want, biasGap, got-(tc.want-biasGap))
		}
	}
}

// TestCompressedTensorsFP8WeightsByHand holds vlaunch's weights for a
// compressed-tensors FP8 checkpoint (catalog/testdata/hf/
// llama-3.1-8b-instruct-fp8-ct.reconstructed.json: nm-testing/Meta-Llama-3.1-
// 8B-Instruct-FP8-hf, strategy tensor, lm_head ignored) to a derivation by
// hand and to the footprint huggingface/transformers' documentation
// measures for that checkpoint ("mem_params/2**30 ... # 8.4575 GB": the sum
// of its parameters' bytes as transformers loads them; search index id
// 1495961898). By hand: 32 layers of q/o 4096 × 4096, k/v 1024 × 4096 and
// three MLP matrices 4096 × 14,336 at 1 byte (6,979,321,856 B); the
// embedding and the untied LM head 128,256 × 4096 in BF16 (2,101,346,304
// B); 65 RMSNorms of 4096 in BF16 (532,480 B); one BF16 weight_scale and
// input_scale per linear (896 B, which vlaunch leaves out): 9,081,201,536
// B = 8.4575 GiB. With strategy channel (RedHatAI's FP8-dynamic) the scales
// are one fp32 per output channel, which vlaunch counts as 4 B per
// hidden_size weights (6,815,744 B here; exactly, 43,008 output channels ×
// 32 layers × 4 B = 5,505,024 B: down_proj's inputs are 14,336, not 4096).
func TestCompressedTensorsFP8WeightsByHand(t *testing.T) {
	const linear, wide, norms, scales = 6979321856.0, 2101346304.0, 532480.0, 896.0
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/llama-3.1-8b-instruct-fp8-ct.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Quant.WeightStrategy != "tensor" {
		t.Fatalf("strategy %q", m.Quant.WeightStrategy)
	}
	for _, tp := range []int{1, 2, 4} {
		want := (linear+wide)/float64(tp) + norms
		got := weightsPerGPU(t, m, tp)
		t.Logf("TP%d: vlaunch %.0f B, by hand %.0f B", tp, got, want)
		if math.Abs(got-want) > 1024 {
			t.Errorf("TP%d: %.0f B per GPU, by hand %.0f (%+.0f B)", tp, got, want, got-want)
		}
	}
	if whole := weightsPerGPU(t, m, 1) + scales; math.Abs(whole/GiB-8.4575) > 0.00005 {
		t.Errorf("%.5f GiB with the per-tensor scales, transformers measures 8.4575", whole/GiB)
	}
	// The same checkpoint with per-channel weight scales.
	data, err := os.ReadFile("../../catalog/testdata/hf/llama-3.1-8b-instruct-fp8-ct.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	channel := strings.Replace(string(data), `"strategy": "tensor",
     "type": "float"
    }
   }`, `"strategy": "channel",
     "type": "float"
    }
   }`, 1)
	if channel == string(data) {
		t.Fatal("the weights' strategy not found in the fixture")
	}
	mc, err := catalog.ParseHFConfig([]byte(channel))
	if err != nil || mc.Quant.WeightStrategy != "channel" {
		t.Fatalf("%v; strategy %q", err, mc.Quant.WeightStrategy)
	}
	if got, want := weightsPerGPU(t, mc, 1), linear*(1+4.0/4096)+wide+norms; math.Abs(got-want) > 1024 {
		t.Errorf("per-channel scales: %.0f B, want %.0f", got, want)
	}
}

// TestGPTQGroupSizesAgainstTheBloke holds vlaunch's GPTQ sizing, group
// scales and zero points included, to the three branch sizes
// TheBloke/Llama-2-7b-Chat-GPTQ's model card lists (its Provided Files
// table, code search index id 1467458793: main 4-bit group 128 3.90 GB;
// gptq-4bit-64g-actorder_True 4.02 GB; gptq-4bit-32g-actorder_True 4.28 GB;
// rounded to 0.01 GB, ±0.13%). The config is catalog/testdata/hf/
// llama-2-7b-chat-gptq.reconstructed.json (Llama-2-7b-chat-hf's published
// architecture with the card's GPTQ settings); the other branches change
// group_size and desc_act. By hand: 32 layers of 4 × 4096² + 3 × 4096 ×
// 11,008 = 6,476,005,376 linear weights at ½ byte + 2.5 bytes per group
// (fp16 scale, packed 4-bit zero); the embedding and LM head 32,000 × 4096
// and 65 RMSNorms in fp16 (524,820,480 B). Llama has no biases, so the
// derivation is vlaunch's to the byte. The checkpoints also store g_idx,
// int32 per input row of each linear (32 × (6 × 4096 + 11,008) × 4 B =
// 4,554,752 B), which vlaunch leaves out (vLLM's gptq_marlin keeps it, with
// its sort indices, only when desc_act is true): the by-hand bytes
// without it sit 0.10–0.27% below the card, with it within 0.16%.
func TestGPTQGroupSizesAgainstTheBloke(t *testing.T) {
	const linear, wide = 6476005376.0, 524820480.0
	data, err := os.ReadFile("../../catalog/testdata/hf/llama-2-7b-chat-gptq.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		branch      string
		group       int
		actOrder    bool
		publishedGB float64
	}{
		{"main", 128, false, 3.90},
		{"gptq-4bit-64g-actorder_True", 64, true, 4.02},
		{"gptq-4bit-32g-actorder_True", 32, true, 4.28},
	} {
		cfg := strings.Replace(string(data), `"group_size": 128`, fmt.Sprintf(`"group_size": %d`, c.group), 1)
		if c.actOrder {
			cfg = strings.Replace(cfg, `"desc_act": false`, `"desc_act": true`, 1)
		}
		m, err := catalog.ParseHFConfig([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		want := linear*(0.5+2.5/float64(c.group)) + wide
		got := weightsPerGPU(t, m, 1)
		t.Logf("%s: vlaunch %.0f B, by hand %.0f B, the card %.2f GB (%+.2f%%)", c.branch, got, want, c.publishedGB, 100*(got/(c.publishedGB*1e9)-1))
		if math.Abs(got-want) > 1024 {
			t.Errorf("%s: %.0f B, by hand %.0f (%+.0f B)", c.branch, got, want, got-want)
		}
		if d := got/(c.publishedGB*1e9) - 1; d < -0.005 || d > 0.0013 {
			t.Errorf("%s: %.4f GB, the card's %.2f GB (%+.2f%%)", c.branch, got/1e9, c.publishedGB, 100*d)
		}
	}
}
