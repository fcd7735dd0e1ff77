package catalog

import "testing"

// TestLoRASlotParams checks the slot size against a hand derivation for
// Llama-3.1-8B (hidden 4096, 32 heads of 128, 8 KV heads, intermediate
// 14336, 32 layers, vocab 128256) at rank 64:
//
//	TP 1 per layer: column 5·64·4096 + 64·(4096 + 2·1024 + 2·14336) = 3,538,944;
//	row 64·(4096 + 14336) + 2·4096·64 = 1,703,936; × 32 layers = 167,772,160;
//	embedding 128256·64 + 4096·64 = 8,470,528, LM head the same.
//	TP 2 fully sharded per layer: column 5·32·4096 + 64·(2048 + 512 + 2·7168)
//	= 1,769,472; row 64·(2048 + 7168) + 2·2048·64 = 851,968; × 32 = 83,886,080.
func TestLoRASlotParams(t *testing.T) {
	llama, err := LookupModel("meta-llama/Llama-3.1-8B-Instruct")
	if err != nil {
		t.Fatal(err)
	}
	moe := *llama
	moe.NumExperts = 8
	mla := *llama
	mla.KVLoraRank = 512
	cases := []struct {
		name string
		m    *Model
		s    LoRASlot
		want float64
		ok   bool
	}{
		{"tp1 whole model", llama, LoRASlot{TP: 1, Layers: 32, First: true, Last: true, Embeddings: true, Rank: 64}, 167772160 + 2*8470528, true},
		{"tp1 middle stage", llama, LoRASlot{TP: 1, Layers: 16, Rank: 64}, 167772160 / 2, true},
		{"tp2 fully sharded", llama, LoRASlot{TP: 2, Layers: 32, First: true, Last: true, Embeddings: true, Rank: 64, FullySharded: true}, 83886080 + 2*8470528, true},
		{"tp16 replicates kv heads", llama, LoRASlot{TP: 16, Layers: 1, Rank: 16},
			5*16*4096 + 16*(256+2*128+2*896) + 16*(256+896) + 2*4096*16, true},
		// v0.11.0: + 256 extra-vocab rows of A (256·64) and two 256 × 4096
		// embeddings_tensors; 128256 is a multiple of 256 (no LM-head pad).
		{"v0.11 extra vocab", llama, LoRASlot{TP: 1, Layers: 32, First: true, Last: true, Embeddings: true, Rank: 64, ExtraVocab: 256},
			167772160 + 2*8470528 + 256*64 + 2*256*4096, true},
		{"no embedding modules", llama, LoRASlot{TP: 1, Layers: 32, First: true, Last: true, Rank: 64}, 167772160, true},
		{"experts not derived", &moe, LoRASlot{TP: 1, Layers: 32, Rank: 64}, 0, false},
		{"mla not derived", &mla, LoRASlot{TP: 1, Layers: 32, Rank: 64}, 0, false},
		{"no rank", llama, LoRASlot{TP: 1, Layers: 32}, 0, false},
		{"nil model", nil, LoRASlot{TP: 1, Layers: 32, Rank: 8}, 0, false},
	}
	for _, c := range cases {
		got, ok := c.m.LoRASlotParams(c.s)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: LoRASlotParams = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestLoRAEmbeddingSince: Llama's class declares LoRA-capable embeddings
// at every release read, Qwen3's from v0.16.0, Qwen2's at none.
func TestLoRAEmbeddingSince(t *testing.T) {
	for id, want := range map[string]string{"meta-llama/Llama-3.1-8B-Instruct": "0.9.0", "Qwen/Qwen3-8B": "0.16.0", "Qwen/Qwen2.5-72B-Instruct": ""} {
		m, err := LookupModel(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.LoRAEmbeddingSince(); got != want {
			t.Errorf("%s (%s): %q, want %q", id, m.Architecture, got, want)
		}
	}
}

// TestLoRASlotParamsMoE: Qwen3-30B-A3B (48 layers, all MoE: 128 experts of
// 768, hidden 2,048, 32 query and 4 KV heads of 128), rank 16, by hand from
// vLLM's shapes (LoRASlotSource). TP 1, one layer: attention qkv A 3 × 16 ×
// 2,048 = 98,304, B 16 × (4,096 + 2 × 512) = 81,920, o A 16 × 4,096 =
// 65,536, B 2,048 × 16 = 32,768 (278,528); router A 16 × 2,048 + B 128 ×
// 16 = 34,816; experts 128 × (2 × 16 × 2,048 + 2 × 768 × 16 + 16 × 768 +
// 2,048 × 16) = 128 × 135,168 = 17,301,504: 17,614,848 a layer, × 48 =
// 845,512,704, + the embedding and LM head (v0.16.0 on: 2 × (151,936 + 2,048)
// × 16 = 4,927,488) = 850,440,192 elements, 1.58 GiB a slot in BF16. TP 4:
// attention 98,304 + 16 × (1,024 + 256) + 16 × 1,024 + 32,768 = 167,936
// (one KV head a rank), experts at 192 wide 128 × 107,520 = 13,762,560;
// with EP 32 whole experts, 32 × 135,168 = 4,325,376; fully sharded (from
// v0.12.0) attention 24,576 + 20,480 + 16,384 + 8,192 = 69,632 and experts
// 128 × (2 × 4 × 2,048 + 2 × 192 × 16 + 16 × 192 + 512 × 16) = 4,325,376,
// at v0.11.1 (A and B not sharded) 13,762,560; before v0.11.1 no experts.
func TestLoRASlotParamsMoE(t *testing.T) {
	q, err := LookupModel("Qwen/Qwen3-30B-A3B")
	if err != nil {
		t.Fatal(err)
	}
	const router = 34816
	cases := []struct {
		name string
		s    LoRASlot
		want float64
	}{
		{"tp1 whole model", LoRASlot{TP: 1, Layers: 48, First: true, Last: true, Embeddings: true, Rank: 16, Experts: LoRAExpertsSharded}, 850440192},
		{"tp4 one layer", LoRASlot{TP: 4, Layers: 1, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 4}, 167936 + router + 13762560},
		{"tp4 ep one layer", LoRASlot{TP: 4, Layers: 1, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 4, EP: true}, 167936 + router + 4325376},
		{"tp4 fully sharded", LoRASlot{TP: 4, Layers: 1, Rank: 16, FullySharded: true, Experts: LoRAExpertsSharded, MoERanks: 4}, 69632 + router + 4325376},
		{"tp4 fully sharded v0.11.1", LoRASlot{TP: 4, Layers: 1, Rank: 16, FullySharded: true, Experts: LoRAExpertsWhole, MoERanks: 4}, 69632 + router + 13762560},
		{"tp4 before v0.11.1", LoRASlot{TP: 4, Layers: 1, Rank: 16, Experts: LoRAExpertsNone, MoERanks: 4}, 167936 + router},
		{"tp2 dp2 spans 4 ranks", LoRASlot{TP: 2, Layers: 1, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 4},
			98304 + 16*(2048+2*256) + 16*2048 + 32768 + router + 13762560},
	}
	for _, c := range cases {
		got, ok := q.LoRASlotParams(c.s)
		if !ok || got != c.want {
			t.Errorf("%s: LoRASlotParams = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	// Shapes not derived: shared experts, a dense first layer, MLA.
	shared := *q
	shared.NumSharedExperts = 1
	dense := *q
	dense.FirstKDenseReplace = 1
	for name, m := range map[string]*Model{"shared experts": &shared, "dense first layer": &dense} {
		if _, ok := m.LoRASlotParams(LoRASlot{TP: 1, Layers: 48, Rank: 16, Experts: LoRAExpertsSharded}); ok {
			t.Errorf("%s: derived, want false", name)
		}
	}
}

// TestLoRASlotParamsMixtral: Mixtral-8x7B (32 layers, 8 experts of 14,336,
// hidden 4,096, 32 query and 8 KV heads of 128), rank 8, TP 2, one layer:
// attention 3 × 8 × 4,096 + 8 × (2,048 + 2 × 512) + 8 × 2,048 + 4,096 × 8
// = 98,304 + 24,576 + 16,384 + 32,768 = 172,032; router 8 × 4,096 + 8 × 8 =
// 32,832; experts 8 × (2 × 8 × 4,096 + 2 × 7,168 × 8 + 8 × 7,168 + 4,096 ×
// 8) = 8 × 270,336 = 2,162,688.
func TestLoRASlotParamsMixtral(t *testing.T) {
	m, err := LookupModel("mistralai/Mixtral-8x7B-v0.1")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := m.LoRASlotParams(LoRASlot{TP: 2, Layers: 1, Rank: 8, Experts: LoRAExpertsSharded, MoERanks: 2})
	if want := float64(172032 + 32832 + 2162688); !ok || got != want {
		t.Errorf("LoRASlotParams = %v, %v; want %v", got, ok, want)
	}
}

// TestLoRASlotParamsMLA: DeepSeek MLA models, by hand from vLLM v0.24.0's
// modules (loraMLA, loraDeepseekMoEDerived), per unit of rank.
//
// DeepSeek-V2-Lite (no q_lora_rank; hidden 2,048, 16 heads, kv_lora 512,
// rope 64, nope 128, v 128; 1 dense layer of 10,944, 26 MoE layers of 64
// experts of 1,408 and 2 shared), TP 1: attention q_proj 2,048 + 16 × 192
// = 3,072, kv_a_proj_with_mqa 2,048 + 576, kv_b_proj 512 + 16 × 256 =
// 4,096, o_proj 16 × 128 + 2,048 (16,448); the dense MLP 2 × 2,048 + 2 ×
// 10,944 + 10,944 + 2,048 = 38,976; a MoE layer's router 2,048 + 64, shared
// experts (2,816 wide) 4,096 + 5,632 + 2,816 + 2,048 = 14,592, experts 64 ×
// (4,096 + 2,816 + 1,408 + 2,048) = 663,552 (680,256): 16,448 + 38,976 + 26
// × (16,448 + 680,256) = 18,169,728 a rank unit, × 16 = 290,715,648.
//
// DeepSeek-V3 (q_lora 1,536; hidden 7,168, 128 heads; 3 dense layers of
// 18,432, MoE of 256 experts of 2,048 and 1 shared), TP 8, rank 16, one
// layer: fused_qkv_a_proj (TP size 1) 2 × 16 × 7,168 + (1,536 + 512 + 64)
// × 16 = 263,168, q_b_proj 16 × 1,536 + 16 × 16 × 192 = 73,728, kv_b_proj
// 16 × 512 + 16 × 16 × 256 = 73,728, o_proj 16 × 16 × 128 + 7,168 × 16 =
// 147,456 (558,080); a dense layer's MLP at 2,304 a GPU 454,656; a MoE
// layer's router 118,784, experts at 256 a GPU 256 × 356,352 = 91,226,112,
// shared expert 356,352.
func TestLoRASlotParamsMLA(t *testing.T) {
	lite, err := LookupModel("deepseek-ai/DeepSeek-V2-Lite")
	if err != nil {
		t.Fatal(err)
	}
	v3, err := LookupModel("deepseek-ai/DeepSeek-V3")
	if err != nil {
		t.Fatal(err)
	}
	const mla, dense, moe = 558080, 454656, 118784 + 91226112 + 356352
	cases := []struct {
		name string
		m    *Model
		s    LoRASlot
		want float64
		ok   bool
	}{
		{"v2-lite tp1", lite, LoRASlot{TP: 1, Layers: 27, First: true, Last: true, Rank: 16, Experts: LoRAExpertsSharded, MLA: true}, 18169728 * 16, true},
		{"v3 tp8 first layer", v3, LoRASlot{TP: 8, Layers: 1, First: true, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 8, MLA: true}, mla + dense, true},
		{"v3 tp8 a later MoE layer", v3, LoRASlot{TP: 8, Layers: 1, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 8, MLA: true}, mla + moe, true},
		{"v3 tp8 whole model", v3, LoRASlot{TP: 8, Layers: 61, First: true, Last: true, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 8, MLA: true},
			61*mla + 3*dense + 58*moe, true},
		{"before v0.20.0", lite, LoRASlot{TP: 1, Layers: 27, Rank: 16, Experts: LoRAExpertsSharded}, 0, false},
		{"ep over dp ranks", v3, LoRASlot{TP: 8, Layers: 1, Rank: 16, Experts: LoRAExpertsSharded, MoERanks: 16, EP: true, MLA: true}, 0, false},
	}
	for _, c := range cases {
		got, ok := c.m.LoRASlotParams(c.s)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: LoRASlotParams = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
