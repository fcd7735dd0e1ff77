package memory

import (
	"fmt"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// step3p5PPInput is Step-3.5-Flash (catalog/testdata/hf/
// step-3.5-flash.verbatim.json) at TP 1 and PP pp, the KV cache in the
// model's BF16 (--quantization fp8 quantizes weights only), 8,192 batched
// tokens, max_model_len 262,144, on vLLM 0.16.0. The GPU is not in the log
// read; the KV layout does not depend on it.
func step3p5PPInput(t *testing.T, pp int) *input.Input {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/step-3.5-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.16.0", Layout: input.Layout{TP: 1, PP: pp, DP: 1, Nodes: pp, GPUsPerNode: 1}}
	util, batched := 0.94, 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 262144, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// partition is VLLM_PP_LAYER_PARTITION's stages.
func partition(sizes ...int) []Stage {
	out := make([]Stage, len(sizes))
	start := 0
	for i, n := range sizes {
		out[i] = Stage{Index: i, First: start, End: start + n}
		start += n
	}
	return out
}

// TestStep3p5PPGroupsAsVLLM: vLLM groups the KV caches of a pipeline
// stage from the whole model's layers and projects them onto the stage
// (vllm/v1/core/kv_cache_utils.py get_kv_cache_configs,
// _project_kv_cache_groups_to_worker, get_kv_cache_config_from_groups;
// vllm.Release.KVGroupsFromWholeModel). Step-3.5-Flash has 12 full-attention
// layers (0, 4, …, 44) and 33 sliding-window ones: groups of 12, 1 full and
// 3 sliding (33 padded to 36: "Add 3 padding layers, may waste at most
// 9.09%"), the n-th sliding layer in sliding group n mod 3. A stage's block
// is the layers of its busiest group, by hand:
//
//	13,8,8,8,8 (the log's VLLM_PP_LAYER_PARTITION)
//	  0-12:  full 0,4,8,12 (4); sliding 9 → 3 a group      → 4
//	  13-20 … 37-44: full 2; sliding 6 → 2 a group          → 2
//	9,9,9,9,9 (vLLM's own split of 45 layers into 5)
//	  0-8:   full 0,4,8 (3); sliding 6 → 2                  → 3
//	  9-17:  full 12,16 (2); sliding 7 (the 7th-13th) → 3   → 3
//	  18-26, 27-35: full 2; sliding 7 → 3                   → 3
//	  36-44: full 36,40,44 (3); sliding 6 → 2               → 3
//
// and every stage keeps all 4 groups. Grouping each stage by its own
// counts, as vlaunch did, puts stage 9-17's 2 full and 7 sliding layers in
// groups of 2 (5 groups, a block of 2 layers): 1.5 × vLLM's blocks, and a
// 262,144-token request 4 sliding groups instead of 3.
func TestStep3p5PPGroupsAsVLLM(t *testing.T) {
	const page = 16 * 8 * 128 * 2 * 2 // 16 tokens × 8 KV heads × (K + V 128) × 2 B
	for _, tc := range []struct {
		name   string
		stages []Stage
		busy   []int
	}{
		{"13,8,8,8,8", partition(13, 8, 8, 8, 8), []int{4, 2, 2, 2, 2}},
		{"vLLM's split", PPStages(45, 5), []int{3, 3, 3, 3, 3}},
	} {
		in := step3p5PPInput(t, len(tc.stages))
		for i, s := range tc.stages {
			kv := KVBytes(in, s)
			p := kv.pack()
			groups := 0
			for _, k := range p.kinds {
				groups += k.groups
			}
			if p.page != page || p.groupSize != 12 || groups != 4 || p.unitLayers != tc.busy[i] {
				t.Errorf("%s stage %d (layers %d-%d): page %d, groups of %d, %d groups, busiest %d; want %d, 12, 4, %d",
					tc.name, i, s.First, s.End-1, p.page, p.groupSize, groups, p.unitLayers, page, tc.busy[i])
			}
			// 262,144 tokens: 16,384 full pages and 3 × (ceil((511 + 8,192) / 16) + 1) sliding ones.
			if got, want := kv.SequenceBytes(262144, 16), int64(16384+3*545)*int64(tc.busy[i])*page; got != want {
				t.Errorf("%s stage %d: one 262,144-token request %d B, want %d", tc.name, i, got, want)
			}
		}
	}
	// One stage holding the whole model is the PP 1 layout.
	in := step3p5PPInput(t, 1)
	if p := KVBytes(in, Stage{First: 0, End: 45}).pack(); p.stage || p.unitLayers != 12 {
		t.Errorf("whole model: stage %v, busiest group %d", p.stage, p.unitLayers)
	}
}

// TestStep3p5LogPP5 reproduces what the one public vLLM start-up log of
// Step-3.5-Flash found determines (vllm-project/vllm#33685, turn 1 by
// gregporter, 2026-02-04: image vllm/vllm-openai:nightly-d88a1df6…, a main
// build between 0.15 and 0.16.0, VLLM_ATTENTION_BACKEND=FLASH_ATTN,
// VLLM_PP_LAYER_PARTITION=13,8,8,8,8; the command, quoted from the same
// reporter's #33823 by a public issue digest: stepfun-ai/Step-3.5-Flash,
// --tensor-parallel-size 1 -pp 5 --enable-expert-parallel --quantization
// fp8 --gpu-memory-utilization 0.94 --distributed-executor-backend ray
// --enforce-eager; the engine then fails in the PP forward):
//
//	[kv_cache_utils.py:1047] Add 3 padding layers, may waste at most 9.09% KV cache memory
//	[kv_cache_utils.py:1307] GPU KV cache size: 692,656 tokens
//	[kv_cache_utils.py:1312] Maximum concurrency for 262,144 tokens per request: 9.61x
//
// The lines read hold no "Available KV cache memory", no GPU and no
// vLLM version line, so the log fixes the layout, not the memory. By hand
// (vllm/v1/core/kv_cache_utils.py as read): the padding line is the whole
// model's, 36 − 33 = 3 sliding slots, 3 / 33 = 9.09% (a stage's own 9 or 6
// sliding layers would pad 3 of 9 or none); before 0.20.1 the log prints
// num_blocks // 4 groups × 16, so 692,656 tokens are 43,291 blocks a group,
// num_blocks 173,164 to 173,167; a request of 262,144 tokens takes 16,384
// full pages and 3 × 545 sliding ones (max_num_batched_tokens 8,192, the
// only round value giving 545), 18,019 in all, and 173,164 / 18,019 =
// 9.6101: "9.61x". num_blocks is the smallest stage's: 173,164 blocks of 4
// BF16 pages (65,536 B each) = 42.28 GiB of KV memory if stage 0 binds,
// of 2 pages = 21.14 GiB if another stage does; which one bound, and how
// much each had, the log read does not say.
func TestStep3p5LogPP5(t *testing.T) {
	in := step3p5PPInput(t, 5)
	if asConc, _ := in.Release().KVTokensAsConcurrency(); asConc != vllm.Absent {
		t.Fatalf("0.16.0 prints blocks divided among groups: %v", asConc)
	}
	// The padding line, from the whole model's groups.
	whole := KVBytes(in, Stage{First: 0, End: 45}).pack()
	var warn []string
	for _, k := range []struct{ layers, groups int }{{33, whole.kinds[0].groups}, {12, whole.kinds[1].groups}} {
		if pad := k.groups*whole.groupSize - k.layers; pad > 0 {
			warn = append(warn, fmt.Sprintf("Add %d padding layers, may waste at most %.2f%% KV cache memory", pad, float64(pad)/float64(k.layers)*100))
		}
	}
	if len(warn) != 1 || warn[0] != "Add 3 padding layers, may waste at most 9.09% KV cache memory" {
		t.Errorf("padding lines %q", warn)
	}
	for _, s := range partition(13, 8, 8, 8, 8) {
		kv := KVBytes(in, s)
		p := kv.pack()
		block := float64(p.page) * float64(p.unitLayers)
		for _, blocks := range []float64{173164, 173167} {
			tokens, ok := kv.ReportedTokens(blocks*block, 262144, false)
			if !ok || tokens != 692656 {
				t.Errorf("stage %d, %v blocks: GPU KV cache size %d, the log says 692,656", s.Index, blocks, tokens)
			}
			perRequest := float64(kv.SequenceBytes(262144, 16)) / block
			if c := blocks / perRequest; perRequest != 18019 || math.Abs(c-9.61) >= 0.005 {
				t.Errorf("stage %d: %v blocks a request, %.4fx; the log says 9.61x", s.Index, perRequest, c)
			}
		}
		if s.Index == 0 {
			if gib := 173164 * block / GiB; math.Abs(gib-42.28) > 0.005 {
				t.Errorf("stage 0's KV memory for 173,164 blocks: %.3f GiB", gib)
			}
		}
	}
}
