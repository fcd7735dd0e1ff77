package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// logInput resolves a catalog/testdata/hf config on one H100 at TP tp as the
// llm-d-planner sweep ran vLLM 0.19.0 (utilization 0.95, max_model_len
// 8,192, the logged device total 79.19 GiB).
func logInput(t *testing.T, file string, tp int) *input.Input {
	t.Helper()
	m := hfFixture(t, file)
	g, _ := catalog.LookupGPU("h100")
	cp := *g
	cp.MemoryMiB = 79.19 * 1024
	in := &input.Input{Model: m, GPU: &cp, VLLMVersion: "0.19.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.95
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestGemma3LogGroups reproduces the KV lines of Gemma-3-27B's vLLM 0.19.0
// log (published/vllm-memory-logs.yaml, gemma3-27b-llmd-h100-tp1) from its
// logged 19.53 GiB, by hand: pages of 16 tokens × 8,192 B (16 KV heads ×
// 128 × K,V × 2 B) = 131,072 B; the 52 sliding-window and 10 full layers
// grouped 10 at a time, 6 + 1 groups, a block of 10 pages = 1,310,720 B;
// the logged 19.53 GiB (rounded) makes 15,998 blocks (vLLM: 15,997) and
// the log prints 15,998 // 7 × 16 = 36,560 tokens; an 8,192-token request
// takes 512 full pages and 6 × 513 sliding ones (the window and an
// 8,192-token chunk cover the request): 15,998 / 3,590 = 4.46x.
func TestGemma3LogGroups(t *testing.T) {
	in := logInput(t, "gemma-3-27b-it.reconstructed.json", 1)
	kv := KVBytes(in, Stage{First: 0, End: in.Model.NumLayers})
	avail := 19.53 * GiB
	const block = 10 * 131072
	blocks := math.Floor(avail / block)
	if blocks != 15998 {
		t.Fatalf("%v blocks", blocks)
	}
	if got, ok := kv.ReportedTokens(avail, 8192, false); !ok || got != 15998/7*16 {
		t.Errorf("GPU KV cache size %d, the log says 36,560", got)
	}
	perRequest := int64(512 + 6*513)
	if got := kv.SequenceBytes(8192, 16); got != perRequest*block {
		t.Errorf("one 8,192-token request %d B, want %d", got, perRequest*block)
	}
	if c := blocks / float64(perRequest); math.Abs(c-4.46) > 0.005 {
		t.Errorf("concurrency %.3f, the log says 4.46", c)
	}
}

// TestLlama4ScoutRoPECache: vLLM builds RoPE's cos/sin cache over
// max_position_embeddings (10,485,760 for Llama-4-Scout) × 128 rotary
// dimensions in BF16 and keeps it with the weights: 2.5 GiB on every GPU,
// the difference between the TP4 log's 53.12 GiB of weights and the
// parameters' 50.19 (llama4-scout-llmd-h100-tp4).
func TestLlama4ScoutRoPECache(t *testing.T) {
	in := logInput(t, "llama-4-scout-17b-16e-instruct.verbatim.json", 4)
	r := Estimate(in)
	var rope float64
	for _, w := range r.Weights {
		if w.Component == CompRoPECache {
			rope = w.GiB * GiB
		}
	}
	if want := 10485760.0 * 128 * 2; rope != want {
		t.Errorf("RoPE cache %.0f B, want %.0f", rope, want)
	}
	if math.Abs(r.PerGPU.WeightsGiB/53.12-1) > 0.01 {
		t.Errorf("weights %.2f GiB per GPU, the log says 53.12", r.PerGPU.WeightsGiB)
	}
	// With the vision_config the published config.json holds (the
	// reconstructed fixture), vlaunch counts the vision tower vLLM loads
	// with the language model (catalog llama4Encoder): 871,932,416
	// parameters, all but 1,106,688 split over the 4 ranks, 0.406 GiB per
	// GPU in BF16, which the aiconfigurator copy of config.json above
	// leaves out: the 0.8% the log was under-predicted by.
	vin := logInput(t, "llama-4-scout-17b-16e-instruct.reconstructed.json", 4)
	vr := Estimate(vin)
	var enc float64
	for _, w := range vr.Weights {
		if w.Component == CompEncoder {
			enc = w.GiB * GiB
		}
	}
	if want := 2 * (1106688 + (llama4Vision-1106688)/4.0); math.Abs(enc-want) > 1 {
		t.Errorf("vision encoder %.0f B per GPU, want %.0f", enc, want)
	}
	t.Logf("Scout TP4: %.3f GiB without the vision tower, %.3f GiB with it; the log says 53.12", r.PerGPU.WeightsGiB, vr.PerGPU.WeightsGiB)
	if math.Abs(vr.PerGPU.WeightsGiB/53.12-1) > 0.002 {
		t.Errorf("weights with the vision tower %.2f GiB per GPU, the log says 53.12", vr.PerGPU.WeightsGiB)
	}
}
