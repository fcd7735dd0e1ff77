package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

func TestPPStagesFollowVLLM(t *testing.T) {
	got := PPStages(61, 4)
	want := []int{15, 15, 16, 15} // remainder goes to the stage before the last
	for i, s := range got {
		if s.Layers() != want[i] {
			t.Fatalf("PPStages(61,4) = %+v, want layer counts %v", got, want)
		}
	}
	if s := PPStages(61, 2); s[0].Layers() != 31 || s[1].First != 31 || s[1].End != 61 {
		t.Errorf("PPStages(61,2) = %+v", s)
	}
}

// At TP=PP=DP=1 one GPU holds the whole model: the placement must add up to
// the catalog's parameter count (vocabulary padding aside) plus a
// multimodal wrapper's vision encoder.
func TestPlacementSumsToModel(t *testing.T) {
	for _, m := range catalog.Models() {
		in := testinput.Quick(t, resolve.QuickOptions{Model: m.ID, GPU: "b200", MaxModelLen: 4096})
		got := Estimate(in).ParamsPerGPU
		want := m.ParamCounts().Total + m.Encoder.PerGPU(1)
		if math.Abs(got-want)/want > 0.001 {
			t.Errorf("%s: placed %.4gB params on one GPU, model has %.4gB", m.ID, got/1e9, want/1e9)
		}
	}
}

func TestReferenceScenarioMemory(t *testing.T) {
	in := testinput.Example(t, "deepseek-v3-32xh20.yaml")
	r := Estimate(&in)
	if p := r.ParamsPerGPU / 1e9; p < 37.3 || p > 37.7 {
		t.Errorf("params per GPU = %.2fB, want ≈37.5B", p)
	}
	if r.KVBytesPerToken != 70272 {
		t.Errorf("KV bytes per token = %d, want 70,272", r.KVBytesPerToken)
	}
	c := r.Capacity
	if c.SeqsPerRank != 7 {
		t.Errorf("sequences per rank = %d, want ceil(200/32) = 7", c.SeqsPerRank)
	}
	if gb := c.NeededGiBPerRank * GiB / 1e9; math.Abs(gb-16.1) > 0.05 {
		t.Errorf("per-rank need = %.2f GB, want ≈16.1 GB", gb)
	}
	if math.Abs(c.NeededGBTotal-460.5) > 0.1 {
		t.Errorf("total need = %.1f GB, want 460.5 GB", c.NeededGBTotal)
	}
	if c.Fits {
		t.Errorf("BF16 weights on H20 leave %.1f GiB of KV: 7 × 32K sequences must not fit", r.PerGPU.KVCacheGiB)
	}
	in.SetDTypes("auto", "auto")
	if f := Estimate(&in); !f.Capacity.Fits || f.PerGPU.WeightsGiB > 40 {
		t.Errorf("official FP8 checkpoint: weights %.1f GiB, fits %v; want ≈37 GiB and fits", f.PerGPU.WeightsGiB, f.Capacity.Fits)
	}
}

func TestKVBytesPerToken(t *testing.T) {
	cases := []struct {
		o    resolve.QuickOptions
		want int64
	}{
		{resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100"}, 32 * 8 * 128 * 2 * 2},
		{resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", KVCacheDType: "fp8"}, 32 * 8 * 128 * 2},
		{resolve.QuickOptions{Model: "qwen3-235b-a22b-fp8", GPU: "h100", TP: 4}, 94 * 1 * 128 * 2 * 2},
		// TP 16 > 8 KV heads: one head per GPU, replicated.
		{resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100", TP: 16}, 80 * 1 * 128 * 2 * 2},
		// MLA is not split by TP.
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8}, 61 * 576 * 2},
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8, KVCacheDType: "fp8"}, 61 * 576},
		{resolve.QuickOptions{Model: "deepseek-v2-lite", GPU: "h100"}, 27 * 576 * 2},
	}
	for _, c := range cases {
		if got := Estimate(testinput.Quick(t, c.o)).KVBytesPerToken; got != c.want {
			t.Errorf("%+v: %d B/token, want %d", c.o, got, c.want)
		}
	}
}

func TestExpertPlacementEPRemainder(t *testing.T) {
	// 256 experts over EP = 24: 256//24 = 10 with 16 left over, so the
	// fullest rank holds 11.
	in := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", DP: 24, EP: true})
	for _, w := range Estimate(in).Weights {
		if w.Component == CompRouted {
			per := in.Model.ParamCounts().ExpertPerLayerEach * 58
			if n := w.ParamsPerGPU / per; math.Abs(n-11) > 1e-9 {
				t.Errorf("experts per GPU = %.2f, want 11", n)
			}
		}
	}
	// Without EP the experts are split over TP×DP ranks (flattened TP).
	noEP := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", DP: 8})
	for _, w := range Estimate(noEP).Weights {
		if w.Component == CompRouted && math.Abs(w.ParamsPerGPU-w.ParamsTotal/8)/w.ParamsTotal > 1e-3 {
			t.Errorf("no-EP routed share = %.3gB, want total/8 = %.3gB", w.ParamsPerGPU/1e9, w.ParamsTotal/8e9)
		}
	}
}

func TestEPLBRedundantExpertsCostWeights(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", DP: 16, EP: true})
	base := Estimate(in).PerGPU.WeightsGiB
	in.EnableEPLB, in.NumRedundantExperts = true, 32 // 2 extra experts per rank
	got := Estimate(in).PerGPU.WeightsGiB
	expert := in.Model.ParamCounts().ExpertPerLayerEach * 58 * (1 + 4.0/(128*128)) / GiB
	if math.Abs((got-base)-2*expert) > 0.01 {
		t.Errorf("32 redundant experts over 16 ranks add %.2f GiB, want 2 experts = %.2f GiB", got-base, 2*expert)
	}
}

func TestMaxModelLenTooLongFailsLikeVLLM(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100", TP: 2, MaxModelLen: 131072, GPUMemoryUtilization: 0.95})
	c := Estimate(in).Capacity
	if c.OneSequenceFits || c.LargestMaxModelLen <= 0 || c.LargestMaxModelLen >= 131072 {
		t.Errorf("one 128K sequence must not fit on 2×H100 with 70B BF16: %+v", c)
	}
	if c.LargestMaxModelLen%in.BlockSize != 0 {
		t.Errorf("largest max_model_len %d not a multiple of the block size", c.LargestMaxModelLen)
	}
}

func TestSlidingWindowLayersHoldOnlyTheWindow(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "gpt-oss-20b", GPU: "h100", MaxModelLen: 65536})
	kv := Estimate(in).KV
	if kv.SlidingLayers == 0 {
		t.Fatal("gpt-oss has sliding-window layers")
	}
	full := kv.BytesPerToken * 65536
	if seq := kv.SequenceBytes(65536, 16); seq*3/2 > full {
		t.Errorf("a 64K sequence costs %d B, full-attention accounting %d B: sliding layers not discounted", seq, full)
	}
}

func TestFindingsWhenItFitsOrNot(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", MaxModelLen: 8192, Concurrency: 10})
	m := Estimate(in)
	if fs := Findings(in, &m); fs.HasErrors() {
		t.Errorf("Llama-3.1-8B on one H100 must fit 10 × 8K: %v", fs)
	}
	in = testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-405b", GPU: "h100", TP: 8, MaxModelLen: 8192})
	m = Estimate(in)
	if fs := Findings(in, &m); len(fs) == 0 || fs[0].Code != CodeNoKVMemory {
		t.Errorf("405B BF16 on 8 × H100 cannot hold its weights: %v", fs)
	}
}
