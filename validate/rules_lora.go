package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// srcLoRASlots cites what vLLM pre-allocates for LoRA (srcLoRASlotsShort
// in messages).
const srcLoRASlots = "vLLM v0.20.0 vllm/lora/model_manager.py (_create_lora_modules: from_layer(module, self.lora_slots, …) for every " +
	"LoRA-capable module) and vllm/lora/layers/base_linear.py, column_parallel_linear.py, row_parallel_linear.py (create_lora_weights: " +
	"lora_a_stacked (max_loras, 1, rank, input_size) and lora_b_stacked (max_loras, 1, output_size, rank) per slice, in lora_dtype)"

const srcLoRASlotsShort = "vLLM v0.20.0 vllm/lora/layers/base_linear.py create_lora_weights: lora_a/lora_b_stacked of max_loras slots"

// loraArgs is what vllm.extra_args asks of LoRA: on, the slots
// (--max-loras), the largest rank (--max-lora-rank), --fully-sharded-loras.
type loraArgs struct {
	on, sharded bool
	slots, rank int
}

// readLoRA reads extra_args the way argparse will (the last value wins),
// the release's defaults filling what is not given (flag table: max-loras
// 1, max-lora-rank 16).
func readLoRA(args []string, r vllm.Release) loraArgs {
	out := loraArgs{slots: flagDefaultInt(r, "max-loras", 1), rank: flagDefaultInt(r, "max-lora-rank", 16)}
	if on := vllm.ExtraArgBool(args, "--enable-lora"); on != nil {
		out.on = *on
	}
	if fs := vllm.ExtraArgBool(args, "--fully-sharded-loras"); fs != nil {
		out.sharded = *fs
	}
	for i, a := range args {
		name, val, inline := strings.Cut(a, "=")
		if !inline && i+1 < len(args) {
			val = args[i+1]
		}
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			continue
		}
		switch strings.ReplaceAll(name, "_", "-") {
		case "--max-loras":
			out.slots = n
		case "--max-lora-rank":
			out.rank = n
		}
	}
	return out
}

func flagDefaultInt(r vllm.Release, name string, fallback int) int {
	if f, ok := r.Flag(name); ok {
		if n, err := strconv.Atoi(f.Default); err == nil {
			return n
		}
	}
	return fallback
}

// loraSlotParams is the LoRA slot parameters one GPU holds per adapter
// slot, for a dense model with standard attention: per layer, the column-
// parallel qkv (3 slices) and gate_up (2 slices) take A of rank × hidden
// each (rank/tp with fully sharded LoRA) and B of their output shard ×
// rank; the row-parallel o and down projections take A of rank × their
// input shard and B of hidden (hidden/tp fully sharded) × rank. Layers are
// the GPU's pipeline stage's. 0 when the model is not of that shape
// (experts, MLA, linear attention: their LoRA layers differ and are not
// derived here).
func loraSlotParams(m *catalog.Model, tp, pp int, a loraArgs) float64 {
	if m == nil || m.NumExperts > 0 || m.IsMLA() || m.HiddenSize <= 0 || m.NumHeads <= 0 || m.NumLayers <= 0 || m.IntermediateSize <= 0 {
		return 0
	}
	tp, pp = max(tp, 1), max(pp, 1)
	hd := m.HeadDim
	if hd <= 0 {
		hd = m.HiddenSize / m.NumHeads
	}
	h, r, t := float64(m.HiddenSize), float64(a.rank), float64(tp)
	q := float64(m.NumHeads*hd) / t
	kv := float64(max(1, m.NumKVHeads/tp) * hd) // a rank holds at least one KV head
	inter := float64(m.IntermediateSize) / t
	aRank, bOut := r, h
	if a.sharded {
		aRank, bOut = r/t, h/t
	}
	column := 5*aRank*h + r*(q+2*kv+2*inter)
	row := r*(q+inter) + 2*bOut*r
	layers := float64((m.NumLayers + pp - 1) / pp)
	return (column + row) * layers
}

// checkLoRA warns that LoRA in vllm.extra_args is not in the estimate
// (qa44b F7): vLLM pre-allocates max_loras adapter slots of the largest
// rank on every LoRA-capable linear layer when it loads the model, so the
// memory profile counts them with the weights and the KV cache is that
// much smaller than check and plan say; the punica shrink/expand kernels
// add to every step. The slot memory is derived for dense standard-
// attention models (loraSlotParams, at 2 bytes: lora_dtype auto is the
// model's bf16/fp16 dtype, and its other choices are 2-byte too).
func checkLoRA(c *checker) {
	if !c.relOK {
		return
	}
	a := readLoRA(c.d.VLLM.ExtraArgs, c.rel)
	if !a.on {
		return
	}
	path := p("vllm", "extra_args")
	for i, w := range c.d.VLLM.ExtraArgs {
		if strings.HasPrefix(w, "--enable-lora") || strings.HasPrefix(w, "--enable_lora") {
			path = p("vllm", "extra_args", i)
		}
	}
	tp, pp := c.d.Parallelism.Tensor, c.d.Parallelism.Pipeline
	if c.dep != nil && c.dep.Layout.TP > 0 {
		tp, pp = c.dep.Layout.TP, c.dep.Layout.PP
	}
	what := fmt.Sprintf("LoRA (%d adapter slots of rank up to %d) is not in the estimate", a.slots, a.rank)
	size := "vlaunch does not derive the slots' size for this model (its experts, MLA or linear-attention layers take other LoRA shapes)"
	if per := loraSlotParams(c.model, tp, pp, a); per > 0 {
		bytes := per * 2
		size = fmt.Sprintf("%.2f M parameters a slot per GPU at TP %d, PP %d: %.0f MB a slot, %.2f GiB for %d slots, in bf16",
			per/1e6, max(tp, 1), max(pp, 1), bytes/1e6, bytes*float64(a.slots)/(1<<30), a.slots)
	}
	c.add(diag.Warning, CodeLoRA, path, "expect the KV cache to be smaller by the slots' memory and the steps slower than check says; serve without LoRA (or merge the adapter) for the figures to hold",
		"%s: vLLM pre-allocates every slot on each LoRA-capable linear layer at load (%s), %s, which vLLM counts with the weights, so the KV cache is smaller than check and plan say; the punica shrink/expand kernels on every step are not costed either", what, srcLoRASlotsShort, size)
}
