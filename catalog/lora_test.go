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
