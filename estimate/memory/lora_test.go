package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

func llamaLoRAInput(t *testing.T, tp, pp int, extra ...string) *input.Input {
	t.Helper()
	m, err := catalog.LookupModel("meta-llama/Llama-3.1-8B-Instruct")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0",
		Layout: input.Layout{TP: tp, PP: pp, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192,
		ExtraArgs: extra}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestLoRASlotsLeaveTheKVPool: the slots are a weight term of their own
// and the KV pool shrinks by exactly their size. By hand (catalog
// TestLoRASlotParams): Llama-3.1-8B at TP 1, rank 64, one stage holding
// embedding and LM head: 167,772,160 + 2 × 8,470,528 = 184,713,216
// elements a slot; 4 slots × 2 B = 1,477,705,728 B = 1.376 GiB. At PP 2
// the first stage holds 16 layers and the embedding: (83,886,080 +
// 8,470,528) × 4 × 2 B = 0.688 GiB.
func TestLoRASlotsLeaveTheKVPool(t *testing.T) {
	lora := []string{"--enable-lora", "--max-loras", "4", "--max-lora-rank", "64"}
	cases := []struct {
		name    string
		tp, pp  int
		args    []string
		wantGiB float64
	}{
		{"tp1", 1, 1, lora, 1477705728.0 / GiB},
		{"pp2 first stage", 1, 2, lora, (83886080 + 8470528) * 4 * 2 / GiB},
		{"off", 1, 1, []string{"--max-loras", "4"}, 0},
	}
	for _, c := range cases {
		base := Estimate(llamaLoRAInput(t, c.tp, c.pp))
		got := Estimate(llamaLoRAInput(t, c.tp, c.pp, c.args...))
		var slot float64
		for _, w := range got.Stages[0].Weights {
			if w.Component == CompLoRASlots {
				slot = w.GiB
			}
		}
		if math.Abs(slot-c.wantGiB) > 1e-9 {
			t.Errorf("%s: lora_slots %.6f GiB, want %.6f", c.name, slot, c.wantGiB)
		}
		if d := base.Stages[0].AvailableKVGiB - got.Stages[0].AvailableKVGiB; math.Abs(d-c.wantGiB) > 1e-9 {
			t.Errorf("%s: KV pool shrank by %.6f GiB, want %.6f", c.name, d, c.wantGiB)
		}
		if got.ParamsPerGPU != base.ParamsPerGPU {
			t.Errorf("%s: slots counted as model parameters: %.0f vs %.0f", c.name, got.ParamsPerGPU, base.ParamsPerGPU)
		}
	}
}

// TestLoRASlotsMoEByRelease: Qwen3-30B-A3B on one H100 with 2 slots of
// rank 16 (catalog TestLoRASlotParamsMoE by hand). At 0.20.0 the experts
// take slots (FusedMoEWithLoRA) and Qwen3MoeForCausalLM declares the
// embedding and LM head: 850,440,192 elements a slot, × 2 slots × 2 B =
// 3.168 GiB, out of the KV pool. At 0.11.0 (before FusedMoEWithLoRA, and
// before qwen3_moe.py declared embedding_modules) only attention and the
// router: 48 × (278,528 + 34,816) = 15,040,512 elements a slot, 0.056 GiB.
func TestLoRASlotsMoEByRelease(t *testing.T) {
	lora := []string{"--enable-lora", "--max-loras", "2", "--max-lora-rank", "16"}
	for _, c := range []struct {
		version string
		want    float64
	}{
		{"0.20.0", 850440192 * 2 * 2 / GiB},
		{"0.11.0", 48 * (278528 + 34816) * 2 * 2 / GiB},
	} {
		m, err := catalog.LookupModel("Qwen/Qwen3-30B-A3B")
		if err != nil {
			t.Fatal(err)
		}
		g, _ := catalog.LookupGPU("h100-sxm")
		build := func(args []string) *input.Input {
			in := &input.Input{Model: m, GPU: g, VLLMVersion: c.version, Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
			util := 0.9
			if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192, ExtraArgs: args}); ds.HasErrors() {
				t.Fatal(ds)
			}
			return in
		}
		base, got := Estimate(build(nil)), Estimate(build(lora))
		var slot float64
		for _, w := range got.Stages[0].Weights {
			if w.Component == CompLoRASlots {
				slot = w.GiB
			}
		}
		if math.Abs(slot-c.want) > 1e-9 {
			t.Errorf("%s: lora_slots %.6f GiB, want %.6f", c.version, slot, c.want)
		}
		if d := base.Stages[0].AvailableKVGiB - got.Stages[0].AvailableKVGiB; math.Abs(d-c.want) > 1e-9 {
			t.Errorf("%s: KV pool shrank by %.6f GiB, want %.6f", c.version, d, c.want)
		}
	}
}
