package memory

import (
	"math"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// step3p7NVFP4HFQuant is a ModelOpt NVFP4 recipe for stepfun-ai/
// Step-3.7-Flash-NVFP4 that quantizes the routed experts and nothing else:
// the split TestStep3p7NVFP4CheckpointBytes found the published total_size
// to hold (+0.08%). The checkpoint's own exclude_modules list was not read
// (reconstructed); the patterns name vlaunch's module paths for Step-3.x.
const step3p7NVFP4HFQuant = `{"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16,
 "exclude_modules": ["lm_head", "*self_attn*", "*shared_expert*", "*mlp.gate_proj", "*mlp.up_proj", "*mlp.down_proj"]}}`

// step3p7NVFP4 is Step-3.7-Flash-NVFP4 as vlaunch sizes it: the
// reconstructed wrapper (catalog/testdata/hf/step-3.7-flash.reconstructed.json)
// under step3p7NVFP4HFQuant. Its whole-model bytes are held to the
// checkpoint's total_size, 124,385,012,840 B (a public test of its
// model.safetensors.index.json at snapshot 36afbf6e, search index id
// 57398570390), within 0.1%.
func step3p7NVFP4(t *testing.T) *catalog.Model {
	t.Helper()
	data, err := os.ReadFile("../../catalog/testdata/hf/step-3.7-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := catalog.ParseHFConfigWithQuant(data, []byte(step3p7NVFP4HFQuant))
	if err != nil {
		t.Fatal(err)
	}
	if whole, _ := wholeModelWeights(t, m); math.Abs(whole/124385012840-1) > 0.001 {
		t.Fatalf("Step-3.7-Flash-NVFP4 sized at %.3f GB, total_size 124.385 GB", whole/1e9)
	}
	return m
}

// step3p7LogInput is the model at TP 2 with the logged engine settings on
// the vLLM release vlaunch reads the build as. Both logs ran the
// vllm/vllm-openai:stepfun37 image, "vLLM 0.1.dev16944+ge9c8946e7" (a main
// build of about 2026-05-28, not a release: the Step-3.7 recipe asks for a
// nightly); vlaunch applies 0.22.0's rules, the release before it, which
// prints "GPU KV cache size" as max_concurrency × max_model_len — what both
// logs' own figures show (2,968,516 = ⌊11.324 × 262,144⌋).
func step3p7LogInput(t *testing.T, gpu string, nodes int, es resolve.EngineSettings) *input.Input {
	t.Helper()
	g, err := catalog.LookupGPU(gpu)
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: step3p7NVFP4(t), GPU: g, VLLMVersion: "0.22.0",
		Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: nodes, GPUsPerNode: 2 / nodes}}
	es.Weights, es.KVCacheDType, es.MaxModelLen = "auto", "fp8", 262144
	if ds := in.Resolve(es); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// step3p7Block is one block of Step-3.x's uniform pages at TP 2, fp8 KV:
// a 16-token page of 8 / 2 KV heads × (K + V) 128 × 1 B = 16,384 B, times
// the 12 layers of a group (12 full-attention layers; 33 sliding ones in 3
// groups, padded to 36 — or 36 with the three MTP layers).
const step3p7Block = 12 * 16 * 4 * 256

// step3p7PagesPerRequest: a 262,144-token request takes 16,384 full pages
// and, in each of the 3 sliding groups, ceil((511 + 8,192) / 16) + 1 = 545
// (max_num_batched_tokens 8,192): 18,019 blocks.
const step3p7PagesPerRequest = 16384 + 3*545

// TestStep3p7LogRTXPro6000 replays a public start-up of Step-3.7-Flash-NVFP4
// on 2 × RTX PRO 6000 Blackwell Workstation Edition (96 GB, PCIe, no NVLink)
// at TP 2: a public rig note of 2026-05-28 (search index id 61469866857:
// vllm/vllm-openai:stepfun37, vLLM 0.1.dev16944+ge9c8946e7; --tensor-parallel-size
// 2 --gpu-memory-utilization 0.92 --quantization modelopt --kv-cache-dtype fp8
// --max-model-len 262144 --moe-backend cutlass --disable-custom-all-reduce,
// max_num_seqs and max_num_batched_tokens at their defaults): "loads (58.6
// GiB weights/GPU), KV cache 2.06M tokens (FP8, 7.88× concurrency at 262k
// ctx)". The note quotes no "Available KV cache memory" line, so that
// figure is derived here from the logged concurrency by vLLM's rule: 7.88×
// is 141,900–142,079 blocks of 18,019 a request, 25.98–26.01 GiB of
// 196,608-byte blocks; vlaunch's available memory is held to it within
// 10%, as are its KV tokens and concurrency end to end, and its weights
// within 3% of the logged 58.6 GiB.
func TestStep3p7LogRTXPro6000(t *testing.T) {
	in := step3p7LogInput(t, "rtx-pro-6000", 1, resolve.EngineSettings{Util: ptrFloat(0.92)})
	r := Estimate(in)
	s := r.Stages[0]
	if got := s.KV.SequenceBytes(262144, in.BlockSize); got != step3p7PagesPerRequest*step3p7Block {
		t.Fatalf("a 262,144-token request: %d B, want 18,019 blocks of 196,608 B", got)
	}
	lo, hi := math.Ceil(7.875*step3p7PagesPerRequest), math.Ceil(7.885*step3p7PagesPerRequest)-1
	implied := (lo + hi) / 2 * step3p7Block / GiB
	t.Logf("weights %.2f GiB (logged 58.6); available %.2f GiB (implied %.2f–%.2f); %d tokens (logged 2.06M); %.2fx (logged 7.88x)",
		s.WeightsGiB, s.AvailableKVGiB, lo*step3p7Block/GiB, hi*step3p7Block/GiB, r.KVTokensLogged, r.MaxConcurrencyAtMaxModelLen)
	within(t, "weights GiB", s.WeightsGiB, 58.6, 0.03)
	within(t, "available KV GiB (from the logged concurrency)", s.AvailableKVGiB, implied, targetNewArch)
	within(t, "GPU KV cache size", float64(r.KVTokensLogged), 2.06e6, targetNewArch)
	within(t, "maximum concurrency", r.MaxConcurrencyAtMaxModelLen, 7.88, targetNewArch)
}

// TestStep3p7LogDGXSparkMTP replays a public start-up of Step-3.7-Flash-NVFP4
// across 2 × DGX Spark (GB10, TP 2 over RoCE, --nnodes 2) with MTP
// speculative decoding, the BF16 MTP layers grafted from
// stepfun-ai/Step-3.7-Flash: a public deployment note of 2026-06-30
// (search index id 55692706943; the MiaAI-Lab/Dual-DGX-Spark-Step-3.7-Flash-NVFP4
// recipe on vllm/vllm-openai:stepfun37; --max-model-len 262144
// --max-num-batched-tokens 8192 --max-num-seqs 8 --gpu-memory-utilization
// 0.85 --quantization modelopt --kv-cache-dtype fp8 --speculative-config
// {"method":"mtp","num_speculative_tokens":3}): "Model loading took 60.94
// GiB", "GPU KV cache size: 2,968,516 tokens", "Maximum concurrency for
// 262,144 tokens per request: 11.32x". No "Available KV cache memory" line
// is quoted.
//
// By hand: the three MTP layers (step3p5_mtp.py: Step3p5DecoderLayer at
// layers 45–47, dense because moe_layers_enum lists 3–44, sliding by
// layer_types) join the target's KV groups: 12 full and 36 sliding layers,
// groups of 12, no padding, a block of 196,608 B and 18,019 blocks a
// request; 204,047 blocks are the only count that prints 2,968,516 tokens
// (204,047 / 18,019 = 11.3240 → "11.32x"), 37.36 GiB. The MTP weights per
// GPU: 3 × (sliding attention of 96 query heads + a dense MLP of 11,264 +
// an LM head of 128,896 × 4,096 split over TP, eh_proj 8,192 → 4,096
// replicated), 2.42 GiB beside the target's 58.33 — the logged 60.94 less
// the RTX PRO 6000 start-up's 58.6 is 2.34. Before vlaunch read
// step3p5_mtp.py it sized the MTP layers as MoE layers of 288 experts and
// copied the wrapper's vision tower into the proposer (65.99 GiB), and
// added the proposer's KV as a full-attention term outside the groups
// (8.08x).
func TestStep3p7LogDGXSparkMTP(t *testing.T) {
	seqs, batched := 8, 8192
	in := step3p7LogInput(t, "gb10", 2, resolve.EngineSettings{Util: ptrFloat(0.85), MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched,
		Speculative: &spec.Speculative{Method: "mtp", NumSpeculativeTokens: 3}})
	r := Estimate(in)
	s := r.Stages[0]
	p := s.KV.pack()
	groups := 0
	for _, k := range p.kinds {
		groups += k.groups
	}
	if s.KV.Layers != 48 || s.KV.SlidingLayers != 36 || p.groupSize != 12 || groups != 4 || p.page*int64(p.unitLayers) != step3p7Block {
		t.Errorf("KV groups: %d layers (%d sliding), groups of %d, %d groups, block %d B; want 48 (36), 12, 4, %d",
			s.KV.Layers, s.KV.SlidingLayers, p.groupSize, groups, p.page*int64(p.unitLayers), step3p7Block)
	}
	if got := s.KV.SequenceBytes(262144, in.BlockSize); got != step3p7PagesPerRequest*step3p7Block {
		t.Errorf("a 262,144-token request: %d B, want 18,019 blocks", got)
	}
	const blocks = 204047
	if tok, ok := s.KV.ReportedTokens(blocks*step3p7Block, 262144, true); !ok || tok != 2968516 {
		t.Errorf("204,047 blocks print %d tokens, the log 2,968,516", tok)
	}
	draft := map[string]float64{}
	for _, w := range r.Weights {
		if isDraft(w.Component) {
			draft[w.Component] = w.GiB
		}
	}
	const mlp = 3 * 3 * 4096 * 11264 * 2 / 2 // gate, up, down of 3 layers, BF16, split over TP 2
	if draft[draftPrefix+CompRouted] != 0 || draft[draftPrefix+CompEncoder] != 0 || math.Abs(draft[draftPrefix+CompDenseMLP]*GiB-mlp) > 1 {
		t.Errorf("proposer: experts %.3f GiB, tower %.3f GiB, dense MLP %.3f GiB (by hand %.3f)", draft[draftPrefix+CompRouted],
			draft[draftPrefix+CompEncoder], draft[draftPrefix+CompDenseMLP], mlp/GiB)
	}
	implied := float64(blocks) * step3p7Block / GiB
	t.Logf("weights %.2f GiB (logged 60.94); available %.2f GiB (implied %.2f); %d tokens (logged 2,968,516); %.2fx (logged 11.32x)",
		s.WeightsGiB, s.AvailableKVGiB, implied, r.KVTokensLogged, r.MaxConcurrencyAtMaxModelLen)
	within(t, "weights GiB", s.WeightsGiB, 60.94, 0.03)
	within(t, "available KV GiB (from the logged tokens)", s.AvailableKVGiB, implied, targetNewArch)
	within(t, "GPU KV cache size", float64(r.KVTokensLogged), 2968516, targetNewArch)
	within(t, "maximum concurrency", r.MaxConcurrencyAtMaxModelLen, 11.32, targetNewArch)
}

// within fails t when got is more than tol (a fraction) from want.
func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got/want-1) > tol {
		t.Errorf("%s: %.4g, want %.4g within %.0f%% (%+.1f%%)", what, got, want, 100*tol, 100*(got/want-1))
	}
}

func ptrFloat(v float64) *float64 { return &v }
