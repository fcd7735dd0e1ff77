package perf

import "github.com/vlaunch/vlaunch/vllm"

// Decode context parallelism in the step model (vllm.DCPCommSource): a
// DCP group of DCP GPUs of one TP group holds every DCP-th token of each
// sequence, so a GPU's decode attention reads 1/DCP of every context
// (kvBytes). To attend over its tokens with every head of the group, each
// attention layer of a decode step
//   - all-gathers the decode queries over the group (MLA: the absorbed
//     query, kv_lora_rank + qk_rope_head_dim per head; GQA: head_dim),
//   - all-gathers the partial softmax LSE (float32 per token and head), and
//   - reduce-scatters the LSE-corrected partial outputs back to each GPU's
//     heads (MLA: kv_lora_rank per head; GQA: head_dim),
//
// (vLLM's cp_lse_ag_out_rs after the query all-gather, PR #23734; GQA with
// FlashAttention alike, PR #24864). The attention FLOPs are unchanged: a
// GPU computes DCP × its heads over 1/DCP of the tokens. Prefill is left
// as it is (its reads of the cached prefix across the group are not
// modelled).

// dcpTime is the step's DCP collectives on its busiest rank: the attention
// layers of a stage × the three collectives of the rank's decode positions,
// priced by the same NCCL figures and link model as the TP all-reduce.
func (sm *StepModel) dcpTime(runs []RankRun, frac float64) float64 {
	s := &sm.S
	if s.DCP <= 1 {
		return 0
	}
	var tokens float64
	eachLoad(runs, func(l RankLoad) { tokens = max(tokens, l.DecodeSeqs*float64(1+s.SpecTokens)) })
	tokens *= frac
	if tokens <= 0 {
		return 0
	}
	m := s.Model
	heads := float64(m.NumHeads) / float64(max(1, s.TP)) * float64(s.DCP) // the group's heads
	qDim, vDim := float64(m.HeadDim), float64(m.HeadDim)
	if m.IsMLA() {
		qDim, vDim = float64(m.KVLoraRank+m.QKRopeHeadDim), float64(m.KVLoraRank)
	}
	const act = 2 // BF16 queries and outputs
	q := tokens * heads * qDim * act
	lse := float64(s.DCP) * tokens * heads * vllm.DCPLSEBytes
	out := tokens * heads * vDim * act
	per := s.dcpCollective(ncclAllGather, q) + s.dcpCollective(ncclAllGather, lse) + s.dcpCollective(ncclReduceScatter, out)
	return sm.attnLayers * per
}

// dcpCollective is one collective o over the DCP group of bytes (the
// nccl-tests size: the gathered output, the scattered input): NCCL's
// measured figures inside a host where the GPU has them, else the link
// model — NVLink inside a node, the NICs and NVLink at once, the slower
// setting the time, for a group across nodes (as tpAllReduce).
func (s *StepSetup) dcpCollective(o ncclOp, bytes float64) float64 {
	n := s.DCP
	if t, ok := s.ncclTime(o, n, bytes); ok {
		return t
	}
	bus := o.busFactor(n) * bytes
	g := max(1, s.HW.GPUsPerNode)
	if n <= g {
		return s.ncclFirstPrinciples(bus)
	}
	nodes := (n + g - 1) / g
	lat := 2*float64(nodes)*s.HW.InterLatencyS + s.Eff.CollectiveS
	return max(LinkTime(bus, s.HW.InterBytesPerSPerNode, s.Eff.Link, 0, 0), LinkTime(bus, s.HW.IntraBytesPerS, s.Eff.Link, 0, 0)) + lat
}
