package validate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
)

// srcLoRASlotsShort cites what vLLM pre-allocates for LoRA, in messages
// (catalog.LoRASlotSource in full).
const srcLoRASlotsShort = "vLLM v0.20.0 vllm/lora/layers/base_linear.py create_lora_weights: lora_a/lora_b_stacked of max_loras slots"

// checkLoRA warns about what of LoRA serving (resolve.Engine.LoRA, read
// once from vllm.extra_args) the estimate leaves out (qa44b F7). vLLM
// pre-allocates max_loras adapter slots of the largest rank on every
// LoRA-capable layer at load; for the models whose slot shapes are derived
// (catalog.Model.LoRASlotParams) the memory model takes them from the KV
// pool as their own weights line, so only the punica shrink/expand
// kernels' cost on every step is missing; for the others the slots'
// memory is missing too.
func checkLoRA(c *checker) {
	if !c.relOK || c.model == nil {
		return
	}
	l, tp, pp, dp, ep := loraOf(c)
	if !l.Enabled.Value {
		return
	}
	path := p("vllm", "extra_args")
	if l.Arg >= 0 {
		path = p("vllm", "extra_args", l.Arg)
	}
	what := fmt.Sprintf("LoRA (%d adapter slots of rank up to %d)", l.MaxLoras.Value, l.MaxRank.Value)
	// The largest stage's share: the first stage holds the embedding's
	// slots and at least as many layers as any other (vLLM's
	// get_pp_indices gives the remainder to the last stages but one,
	// a layer at most), a fair figure for the message.
	per, ok := c.model.LoRASlotParams(catalog.LoRASlot{TP: tp, Layers: (c.model.NumLayers + pp - 1) / pp,
		First: true, Last: pp == 1, Embeddings: l.Embeddings, ExtraVocab: l.ExtraVocab.Value, Rank: l.MaxRank.Value, FullySharded: l.FullySharded.Value,
		Experts: l.Experts, MoERanks: tp * dp, EP: ep, MLA: l.MLA})
	if !ok {
		c.add(diag.Warning, CodeLoRA, path, "expect the KV cache to be smaller by the slots' memory and the steps slower than check says; serve without LoRA (or merge the adapter) for the figures to hold",
			"%s is not in the estimate: vLLM pre-allocates every slot on each LoRA-capable layer at load (%s), which vLLM counts with the weights, "+
				"but vlaunch does not derive the slots' size for this model (its experts, MLA, linear-attention or per-layer attention shapes take other LoRA shapes), "+
				"so the KV cache is smaller than check and plan say; the punica shrink/expand kernels on every step are not costed either", what, srcLoRASlotsShort)
		return
	}
	bytes := per * l.SlotBytesPerElement()
	c.add(diag.Warning, CodeLoRA, path, "expect the steps to be slower than check says; serve without LoRA (or merge the adapter) for the step times to hold",
		"%s: the adapter slots are in the estimate (%.2f M elements a slot on a GPU of the first stage at TP %d, PP %d: %.0f MB a slot, %.2f GiB for %d slots, "+
			"check's lora_slots weights line, taken from the KV cache as vLLM's profile does; %s), but the punica shrink/expand kernels' cost on every step is not",
		what, per/1e6, tp, pp, bytes/1e6, bytes*float64(l.MaxLoras.Value)/(1<<30), l.MaxLoras.Value, srcLoRASlotsShort)
}

// loraOf is the deployment's LoRA settings (resolve.Engine.LoRA) and
// layout; a spec that did not assemble (c.dep nil: an error elsewhere) is
// read by the same resolve.ReadLoRA, at the spec's own layout.
func loraOf(c *checker) (l resolve.LoRA, tp, pp, dp int, ep bool) {
	if c.dep != nil {
		return c.dep.Engine.LoRA, max(c.dep.Layout.TP, 1), max(c.dep.Layout.PP, 1), max(c.dep.Layout.DP, 1), c.dep.Layout.EP
	}
	return resolve.ReadLoRA(c.model, c.rel, c.ver.Value, c.d.VLLM.ExtraArgs), max(c.d.Parallelism.Tensor, 1), max(c.d.Parallelism.Pipeline, 1),
		max(c.d.Parallelism.Data, 1), c.d.Parallelism.Expert
}
