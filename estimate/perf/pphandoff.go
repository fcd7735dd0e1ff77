package perf

// A pipeline stage's hand-off to the next (issue #28, item 2: "PP hand-offs
// ... from bytes and hops"), as vLLM does it. Read at the v0.11.0 tag
// (vllm@b8b302cde434, the kzwrime/vllm mirror's copy of the tag):
//
//   - What is sent. A stage that is not the last returns IntermediateTensors;
//     every model the catalog carries but DeepSeek-V4 builds them from
//     make_empty_intermediate_tensors_factory(["hidden_states", "residual"],
//     hidden_size) (vllm/model_executor/models/llama.py, qwen2.py,
//     qwen2_moe.py, qwen3_moe.py, qwen3_next.py, deepseek_v2.py, glm4_moe.py,
//     gpt_oss.py, mixtral.py, gemma3.py): two tensors of tokens × hidden in
//     the activation dtype (BF16), the residual stream beside the hidden
//     state, both whole on every TP rank. DeepSeek-V4 sends its hc_mult
//     residual streams as one tensor (mhc.go).
//   - Multiprocess executor (one node; across nodes with --nnodes from
//     0.11.1): vllm/v1/worker/gpu_worker.py Worker.execute_model calls
//     get_pp_group().send_tensor_dict(output.tensors,
//     all_gather_group=get_tp_group()), and the next stage
//     recv_tensor_dict(all_gather_group=get_tp_group());
//     vllm/distributed/parallel_state.py GroupCoordinator.send_tensor_dict
//     sends each tensor as tensor.reshape(all_gather_size, -1)[all_gather_rank]
//     ("send-allgather: send only a slice, then do allgather"), one
//     torch.distributed.send per tensor after a pickled metadata list over
//     the CPU group, and recv_tensor_dict receives the slice and
//     all_gather_group.all_gather(tensor, dim=0)s it. So each TP rank sends
//     1/TP of each tensor: the stage's bytes cross the link once, then an
//     all-gather over the receiving TP group rebuilds them.
//   - Ray executor (the only executor of an engine spanning nodes before
//     --nnodes: vllm/v1/executor/multiproc_executor.py "Multiprocessing-based
//     executor does not support multi-node setting"; vlaunch's bundles for
//     such releases use it, resolve.KindRay): vllm/executor/
//     ray_distributed_executor.py _compiled_ray_dag binds TP rank i of stage
//     k to TP rank i of stage k+1 and sends the output over Ray's channel
//     (with_tensor_transport, VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE "auto";
//     with VLLM_USE_RAY_WRAPPED_PP_COMM on by default over vLLM's own PP
//     communicator, ray_communicator.py RayPPCommunicator.send), and
//     vllm/executor/ray_utils.py RayWorkerWrapper.execute_model_ray returns
//     (scheduler_output, IntermediateTensors) straight from
//     model_runner.execute_model — no slicing: every TP rank sends both whole
//     tensors, the same bytes TP times over, and no all-gather follows.
//     (gpu_model_runner.py's own send_tensor_dict runs only with
//     broadcast_pp_output, "Rare case".)
//
// Before this the hand-off was one tensor (hidden_states, no residual)
// sent whole by every GPU of the node: the Ray executor's duplication
// without its second tensor, also for the multiprocess executor's split
// sends; and its bytes were not counted in the NIC bytes check prints.

// UsePPHandoffTensors: price a hand-off as vLLM sends it (ppHandoff): both
// tensors of the IntermediateTensors, split over the TP ranks plus the
// receiver's all-gather under the multiprocess executor, whole from every
// TP rank under Ray's compiled graph (StepSetup.PPRayDAG). false: the
// earlier pricing, one hidden state sent whole by every GPU, whatever the
// executor.
var UsePPHandoffTensors = true

// ppTensors is the tensors a stage hands on per token and their width in
// hidden-size BF16 values each.
func (sm *StepModel) ppTensors() (count, width float64) {
	if sm.mhc != nil {
		return 1, sm.mhc.streams() // DeepSeek-V4: one tensor of hc_mult streams
	}
	if !UsePPHandoffTensors {
		return 1, 1
	}
	return 2, 1 // hidden_states and residual
}

// ppHandoff is one micro-batch of tokens (per DP rank) crossing one stage
// boundary: its time, and the bytes the sending node pushes through its
// NICs (zero when the boundary stays inside a node).
//
// Across nodes (each stage fills whole nodes, TP × DP ≥ GPUs per node) the
// node's GPUs send at once through the node's NICs, each its share: the
// tensors over TP (multiprocess executor) or whole (Ray). Inside a node
// each GPU sends its share over its own NVLink. The multiprocess executor's
// receiver then all-gathers each tensor over its TP group.
func (sm *StepModel) ppHandoff(tokens float64) (t, nodeBytes float64) {
	s := &sm.S
	count, width := sm.ppTensors()
	whole := tokens * sm.hidden * 2 * width * count // one TP rank's tensors
	split := UsePPHandoffTensors && !s.PPRayDAG && s.TP > 1
	perGPU := whole
	if split {
		perGPU = whole / float64(s.TP)
	}
	messages := int(count)
	g := max(1, s.HW.GPUsPerNode)
	if s.TP*s.DP >= g && s.HW.InterBytesPerSPerNode > 0 {
		nodeBytes = float64(g) * perGPU
		t = LinkTime(nodeBytes, s.HW.InterBytesPerSPerNode, s.Eff.Link, messages, s.HW.InterLatencyS)
	} else {
		t = LinkTime(perGPU, s.HW.IntraBytesPerS, s.Eff.Link, messages, s.HW.IntraLatencyS)
	}
	if split {
		t += count * sm.tpAllGather(whole/count)
	}
	return t, nodeBytes
}

// tpAllGather is one all-gather over the TP group whose gathered buffer is
// size bytes: NCCL's measured latency inside a host where the GPU has
// tables, the link model otherwise; a TP group across nodes moves its
// ring share, (n−1)/n × size, through each node's NICs as tpAllReduce's
// cross-node ring does, NVLink alongside.
func (sm *StepModel) tpAllGather(size float64) float64 {
	s := &sm.S
	if s.TP <= 1 || size <= 0 {
		return 0
	}
	ring := ncclAllGather.busFactor(s.TP) * size
	if s.TP <= s.HW.hostGPUs() {
		if t, ok := s.ncclTime(ncclAllGather, s.TP, size); ok {
			return t
		}
		return s.ncclFirstPrinciples(ring)
	}
	g := max(1, s.HW.GPUsPerNode)
	nodes := (s.TP + g - 1) / g
	inter := LinkTime(ring, s.HW.InterBytesPerSPerNode, s.Eff.Link, 0, 0)
	intra := LinkTime(ring, s.HW.IntraBytesPerS, s.Eff.Link, 0, 0)
	return max(inter, intra) + 2*float64(nodes)*s.HW.InterLatencyS + s.Eff.CollectiveS
}
