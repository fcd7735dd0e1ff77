package catalog

import "fmt"

// TPSplitProblem is the one rule for whether vLLM can split the model's
// attention over tp tensor-parallel ranks: "" when it can, else what vLLM
// refuses, in its own words where it has them. validate (SPEC123), the
// layout enumeration of `parallelism: auto` and plan all ask it.
//
//   - Query heads: the total must divide by tp (ModelConfig.
//     verify_with_parallel_config: "Total number of attention heads (64)
//     must be divisible by tensor parallel size (6)").
//   - KV heads of GQA/MHA attention: with at least tp of them they are
//     partitioned, so tp must divide them; with fewer they are replicated,
//     so they must divide tp (the attention layers assert it:
//     total_num_kv_heads % tp_size == 0 or tp_size % total_num_kv_heads ==
//     0; vllm/model_executor/models/llama.py and glm4_moe.py,
//     LlamaAttention / Glm4MoeAttention, read at commit 002d6073).
//     MLA has no separate KV heads to split (the latent is replicated).
func (m *Model) TPSplitProblem(tp int) string {
	if m == nil || tp < 2 {
		return ""
	}
	if m.NumHeads > 0 && m.NumHeads%tp != 0 {
		return fmt.Sprintf("Total number of attention heads (%d) must be divisible by tensor parallel size (%d)", m.NumHeads, tp)
	}
	if s := m.Step3p5; s != nil && s.SWAHeads > 0 && s.SWAHeads%tp != 0 {
		// Step3p5Attention asserts total_num_heads % tp_size == 0 for the
		// sliding layers' own heads (vllm/model_executor/models/step3p5.py).
		return fmt.Sprintf("Step-3.x's sliding-window layers' %d attention heads (attention_other_setting) must be divisible by tensor parallel size (%d)", s.SWAHeads, tp)
	}
	if d := m.DSV4; d != nil {
		// DeepSeek-V4's wo_a runs per group of heads: n_local_groups =
		// o_groups // tp (vllm/model_executor/models/deepseek_v4.py), so tp
		// must divide o_groups; its one KV head is replicated.
		if d.OGroups > 0 && d.OGroups%tp != 0 {
			return fmt.Sprintf("DeepSeek-V4's o_groups (%d) must be divisible by tensor parallel size (%d): wo_a runs o_groups / TP groups per rank", d.OGroups, tp)
		}
		return ""
	}
	if m.IsMLA() {
		return ""
	}
	kvs := []int{m.NumKVHeads}
	if m.HasLayerAttention() {
		// Gemma 4's global layers and MiMo-V2-Flash's sliding layers have
		// their own KV heads, split or replicated by the same assert.
		for i := 0; i < m.NumLayers; i++ {
			if kv, _, _ := m.LayerKV(i); kv != kvs[len(kvs)-1] {
				kvs = append(kvs, kv)
			}
		}
	}
	for _, kv := range kvs {
		if kv < 1 {
			continue
		}
		if kv >= tp && kv%tp != 0 {
			return fmt.Sprintf("its %d KV heads are partitioned over TP ranks and tensor parallel size %d does not divide them", kv, tp)
		}
		if kv < tp && tp%kv != 0 {
			return fmt.Sprintf("its %d KV heads are replicated over TP ranks and they do not divide tensor parallel size %d", kv, tp)
		}
	}
	return ""
}

// TPDivisors lists the tensor sizes up to limit vLLM accepts for the model,
// for hints.
func (m *Model) TPDivisors(limit int) []int {
	var out []int
	for tp := 1; tp <= limit; tp++ {
		if m.TPSplitProblem(tp) == "" {
			out = append(out, tp)
		}
	}
	return out
}
