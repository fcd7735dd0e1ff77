package validate

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestLoRASlotParams (qa44b F7): Llama-3.1-8B at rank 64 holds
// 7·4096 + 2·4096 + 2·1024 + 3·14336 = 81,920 × 64 = 5.24 M LoRA parameters
// a layer and slot on one GPU (335 MB a slot over 32 layers in bf16); TP
// shards the B of column-parallel and the A of row-parallel layers only,
// and fully sharded LoRA the rest too; MoE models are not derived.
func TestLoRASlotParams(t *testing.T) {
	m, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	r := vllm.Newest()
	a := readLoRA([]string{"--enable-lora", "--max-loras", "4", "--max-lora-rank=64"}, r)
	if !a.on || a.slots != 4 || a.rank != 64 {
		t.Fatalf("read %+v, want on, 4 slots, rank 64", a)
	}
	if got, want := loraSlotParams(m, 1, 1, a), 81920.0*64*32; got != want {
		t.Errorf("TP1: %.0f parameters a slot, want %.0f", got, want)
	}
	// TP2: 5·64·4096 + 64·(2048+1024+14336) + 64·(2048+7168) + 2·4096·64 a layer.
	if got, want := loraSlotParams(m, 2, 1, a), float64(5*64*4096+64*(2048+1024+14336)+64*(2048+7168)+2*4096*64)*32; got != want {
		t.Errorf("TP2: %.0f, want %.0f", got, want)
	}
	a.sharded = true
	if s, u := loraSlotParams(m, 2, 1, a), loraSlotParams(m, 2, 1, loraArgs{on: true, slots: 4, rank: 64}); !(s < u) || math.IsNaN(s) {
		t.Errorf("fully sharded %.0f is not below %.0f", s, u)
	}
	if d := readLoRA(nil, r); d.on || d.slots != 1 || d.rank != 16 {
		t.Errorf("defaults %+v, want off, 1 slot, rank 16", d)
	}
	moe, err := catalog.LookupModel("qwen3-30b-a3b")
	if err != nil {
		t.Fatal(err)
	}
	if got := loraSlotParams(moe, 1, 1, a); got != 0 {
		t.Errorf("MoE: %.0f, want 0 (not derived)", got)
	}
}
