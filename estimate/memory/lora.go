package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// CompLoRASlots is the LoRA adapter slots' weight term: not the model's
// parameters, so not in ParamsPerGPU, but memory vLLM allocates with the
// weights (loraTerm).
const CompLoRASlots = "lora_slots"

// loraTerm is the LoRA adapter slots one GPU of stage s holds when the
// deployment serves LoRA (resolve.Engine.LoRA): max_loras slots of the
// largest rank on every LoRA-capable layer (catalog.Model.LoRASlotParams,
// catalog.LoRASlotSource). vLLM allocates them inside load_model's
// DeviceMemoryProfiler (vLLM v0.20.0 vllm/v1/worker/gpu_model_runner.py
// load_model: self.load_lora_model(...) before model_memory_usage =
// m.consumed_memory), so the profile counts them with the weights
// (gpu_worker.py determine_available_memory: weights_memory) and the KV
// pool is that much smaller. ok is false when LoRA is off, or on for a
// model whose slot shapes are not derived (validate's SPEC142 says so).
func loraTerm(in *input.Input, s Stage) (WeightTerm, bool) {
	d := in.Resolved()
	if d == nil || !d.Engine.LoRA.Enabled.Value {
		return WeightTerm{}, false
	}
	l := d.Engine.LoRA
	per, ok := in.Model.LoRASlotParams(catalog.LoRASlot{TP: in.Layout.TP, Layers: s.Layers(), First: s.Index == 0,
		Last: s.Index == in.Layout.PP-1, Embeddings: l.Embeddings, ExtraVocab: l.ExtraVocab.Value, Rank: l.MaxRank.Value, FullySharded: l.FullySharded.Value,
		Experts: l.Experts, MoERanks: in.Layout.EPSize(), EP: in.Layout.EP, MLA: l.MLA})
	if !ok || per <= 0 {
		return WeightTerm{}, false
	}
	n := per * float64(l.MaxLoras.Value)
	b := l.SlotBytesPerElement()
	sh := share(CompLoRASlots, 0, n, fmt.Sprintf("%d LoRA slots of rank %d (%.2fM elements a slot on this GPU)", l.MaxLoras.Value, l.MaxRank.Value, per/1e6))
	rule := DTypeRule{DType: l.Storage, BytesPerParam: b, Why: "lora_dtype " + l.DType.Value + " (2 B)"}
	return WeightTerm{Share: sh, DTypeRule: rule, GiB: n * b / GiB}, true
}
