package vllm

// srcDPDummyRunAhead: how far the host of an idle DP engine runs ahead of
// its GPU while the engines of a DP wave execute dummy batches, read in
// vLLM's V1 model runner at the v0.11.0 tag (b8b302cde434, the fork
// snapshot github.com/Yuran-7/vllm-0.11) and at upstream main 08ed2b968
// (2026-04-02, the Gemma 4 commit 0.19.0 ships; its
// gpu_model_runner.py, dp_utils.py and cudagraph_dispatcher.py lines are
// those the pegainfer source cites from its 0.19.0 install), the same at
// upstream main 28be48fa9's fork snapshot (github.com/local-inference-lab/vllm,
// 2026-05-24):
//   - DPEngineCoreProc.run_busy_loop (vllm/v1/engine/core.py) reads its
//     input queue only at the top of a pass; a pass with nothing scheduled
//     calls execute_dummy_batch → GPUModelRunner._dummy_run(1,
//     uniform_decode=True), whose forward replays a CUDA graph and returns
//     without waiting for it unless something on the way syncs.
//   - 0.11.0: _dummy_run's get_dp_padding all-reduces the token counts on
//     the DP group's NCCL device group and copies them to the CPU (a GPU
//     sync: the previous dummy graph has finished), and its return value
//     hidden_states[logit_indices] indexes a CUDA tensor with a NumPy array
//     (a synchronous host-to-device copy of the indices: PyTorch's
//     memcpy_and_sync, cudaStreamSynchronize), so the pass ends when its own
//     graph has: a request read at the next pass runs next. Run-ahead 0.
//   - 0.19.0: PR #27455 (2025-10-25, "Remove CPU->GPU sync in dummy_run")
//     made that index copy non_blocking; PR #29311 (2025-11-25) and #30161
//     make coordinate_batch_across_dp's all-reduce a gloo one on the CPU
//     under async scheduling (ParallelConfig.disable_nccl_for_dp_
//     synchronization defaults to True then: VllmConfig.__post_init__,
//     "Disabling NCCL for DP synchronization when using async scheduling"),
//     so no GPU sync is left but PR #34866's (2026-02-20): _dummy_run waits
//     on prepare_inputs_event, recorded after the previous step's input
//     copies and before its graph launch, i.e. until the graph before the
//     previous one has finished (#34866 fixed the illegal-address crash of
//     issue #34619, back-to-back dummy steps overwriting pinned buffers the
//     GPU was still reading: the host did run ahead). The host blocks in
//     pass k+2 while the GPU runs dummy graph k with k+1 queued; released,
//     it launches k+2, then reads the request, whose step follows k+2: two
//     dummy graphs more than the one running when the request came.
//     Without async scheduling there is no prepare_inputs_event, and the
//     NCCL all-reduce's .item() at the start of each dummy pass waits for
//     the previous graph: the request's step follows the graph launched in
//     the pass that was waiting, one more.
//   - not read: 0.11.1 to 0.18.x. Between #29311 and #34866 (0.12-0.16 or
//     so) nothing bounded the run-ahead under async scheduling; not
//     modelled (0 for those releases).
const srcDPDummyRunAhead = "vllm: 0.11.0 tag b8b302cde434 gpu_model_runner.py _dummy_run (get_dp_padding, hidden_states[logit_indices]); " +
	"main 08ed2b968 (0.19.0) gpu_model_runner.py _dummy_run / synchronize_input_prep, dp_utils.py _get_device_and_group, config/vllm.py; " +
	"PRs #27455, #29311, #30161, #34866 (issue #34619)"

// dpDummyRunAhead: the releases read whose dummy loop runs ahead of the
// GPU as srcDPDummyRunAhead says (0.19.0; later releases assumed alike, the
// fork snapshot of 2026-05-24 having the same code).
var dpDummyRunAhead = Span{Since: v0190}

// DPDummyRunAhead is how many dummy forward passes more than the one the
// GPU is running when a request reaches an idle DP engine (a DP wave's
// dummy steps) run before the request's step: 2 under async scheduling,
// 1 without, in the releases read from 0.19.0 on; 0 otherwise (0.11.0:
// each dummy pass waits for its own graph; 0.11.1-0.18.x not read).
func (r Release) DPDummyRunAhead(async bool) (int, string) {
	if dpDummyRunAhead.In(r.Version) == Absent {
		return 0, srcDPDummyRunAhead
	}
	if async {
		return 2, srcDPDummyRunAhead
	}
	return 1, srcDPDummyRunAhead
}
