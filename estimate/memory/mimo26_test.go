package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestMiMoV26WeightsByHand sizes MiMo-V2.6-Flash's checkpoint (store_dtype
// mxfp4 under an FP8 config, o_proj in ignored_layers) on one GPU of TP 8 +
// EP on H100 as vLLM 0.31 loads it with --language-model-only (neither the
// vision nor the audio tower built: the wrapper's _mark_tower_model builds
// them on the meta device when every modality's limit is 0), component by
// component against a hand count. The log of the same deployment
// (published/vllm-memory-logs.yaml mimo-v26-flash-tant2-h100-tp8ep) says
// "Model loading took 20.1 GiB"; the checkpoint's 161.06 GiB over 8 GPUs is
// 20.13.
func TestMiMoV26WeightsByHand(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/mimo-v2.6-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.31.0", Layout: input.Layout{TP: 8, PP: 1, DP: 1, EP: true, Nodes: 1, GPUsPerNode: 8}}
	util, mml, mnbt, seqs := 0.9, 262144, 8192, 64
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: mml,
		MaxNumBatchedTokens: &mnbt, MaxNumSeqs: &seqs}); ds.HasErrors() {
		t.Fatal(ds)
	}
	rep := Estimate(in)
	got := map[string]float64{}
	for _, w := range rep.Stages[0].Weights {
		got[w.Component] += w.GiB * GiB
	}
	const fp8Block = 1 + 4.0/(128*128) // one fp32 scale per 128×128 block
	// One rank of TP 8: 8 query heads and one KV head in every layer (4 and
	// 8 KV heads both end at one per rank); q/k/v FP8 (K 192, V 128), o_proj
	// (8 heads × V 128 → 4,096) BF16, the 39 sliding-window layers' sinks
	// (8 per rank) counted with the attention at its blended width.
	qkv, o := 4096.0*(8*192+192+128), 8*128*4096.0
	share := qkv / (qkv + o)
	attn := (48*(qkv+o) + 39*8) * (share*fp8Block + (1-share)*2)
	want := map[string]float64{
		// 47 MoE layers × 32 local experts of 3 × 4,096 × 2,048, MXFP4:
		// ½ byte + one E8M0 scale per 32 values. The safetensors hold
		// exactly these 160,859,947,008 U8 bytes over 8 ranks.
		CompRouted:    47 * 32 * 3 * 4096 * 2048 * (0.5 + 1.0/32),
		CompAttention: attn,
		CompDenseMLP:  3 * 4096 * 16384 / 8 * fp8Block, // layer 0's MLP, TP-split
		CompEmbedding: 152576.0 / 8 * 4096 * 2,         // 19,072 rows per rank, a multiple of 64
		CompLMHead:    152576.0 / 8 * 4096 * 2,
		// A bfloat16 gate (moe_router_dtype) and its correction bias,
		// replicated: 47 × (256 × 4,096 + 256) × 2 B.
		CompRouter: 47 * (256*4096 + 256) * 2,
		// Two RoPE bases (1e7 full, 1e4 sliding-window): two caches of
		// 1,048,576 positions × 64 rotary dimensions (int(192 × 0.334)).
		CompRoPECache: 2 * 1048576 * 64 * 2,
	}
	var total float64
	for comp, w := range want {
		if math.Abs(got[comp]/w-1) > 1e-6 {
			t.Errorf("%s: %.0f B, hand %.0f B", comp, got[comp], w)
		}
		total += w
	}
	// Norms (48 × 2 + 1 of 4,096, BF16) are the rest.
	total += (48*2 + 1) * 4096 * 2
	if w := rep.Stages[0].WeightsGiB * GiB; math.Abs(w/total-1) > 1e-6 {
		t.Errorf("weights %.0f B, hand %.0f B", w, total)
	}
	if logged := 20.1 * GiB; math.Abs(total/logged-1) > 0.01 {
		t.Errorf("hand total %.3f GiB against the logged 20.1", total/GiB)
	}
	if r := StorageRule(in, CompRouted); r.DType != "mxfp4" {
		t.Errorf("experts stored as %s", r.DType)
	}
}

// TestQwen3VLEncoderProfileOutputs: on 0.11.0 the profile keeps Qwen3-VL's
// dummy video outputs padded to the item's placeholder length through the
// language model's dummy run: 12,288 embeddings × 12.5 = 153,600 rows (the
// sipeed log's "Encoder cache will be initialized with a budget of 153600
// tokens, and profiled with 1 video items") × 2,048 × (1 + 3 DeepStack
// levels) × 2 B = 2,516,582,400 B. Not charged where the padding is not
// pinned (a later release), below the largest video's length, or for an
// encoder without its numbers.
func TestQwen3VLEncoderProfileOutputs(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/qwen3-vl-30b-a3b-instruct.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	for _, tt := range []struct {
		name      string
		version   string
		mml, mnbt int
		want      float64
	}{
		{"0.11.0", "0.11.0", 65536, 2048, 153600 * 8192 * 2},
		{"0.11.0, two items' budget", "0.11.0", 65536, 307200, 2 * 153600 * 8192 * 2},
		{"0.11.0, max_model_len below the largest video", "0.11.0", 8192, 2048, 0},
		// Not pinned either way: charged, as the unpinned profile sampler
		// is, so the KV pool is not over-promised.
		{"a release where the padding is not pinned", "0.19.0", 65536, 2048, 153600 * 8192 * 2},
	} {
		in := &input.Input{Model: m, GPU: g, VLLMVersion: tt.version, Layout: input.Layout{TP: 4, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 4}}
		util, mnbt := 0.9, tt.mnbt
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: tt.mml,
			MaxNumBatchedTokens: &mnbt}); ds.HasErrors() {
			t.Fatal(ds)
		}
		a := PeakActivation(in, Stage{Index: 0})
		if math.Abs(a.EncoderOutputsGiB*GiB-tt.want) > 1 {
			t.Errorf("%s: encoder outputs %.0f B, want %.0f", tt.name, a.EncoderOutputsGiB*GiB, tt.want)
		}
		if rest := a.PeakGiB - a.EncoderOutputsGiB; math.Abs(rest-(max(a.ForwardGiB, a.SamplerGiB+float64(mnbt)*2048*2/GiB*boolF(a.SamplerGiB > 0))+a.MoEWorkspaceGiB)) > 1e-9 {
			t.Errorf("%s: peak %.4f GiB is not the rest + the encoder outputs", tt.name, a.PeakGiB)
		}
	}
	m.Encoder = nil
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: 4, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 4}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 65536}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if a := PeakActivation(in, Stage{Index: 0}); a.EncoderOutputsGiB != 0 {
		t.Errorf("no encoder: %.3f GiB charged", a.EncoderOutputsGiB)
	}
}
