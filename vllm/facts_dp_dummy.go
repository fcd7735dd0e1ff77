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
//
// So the run-ahead of a release follows from three changes (plus whether
// it schedules asynchronously, Release.AsyncSchedulingFor):
//   - (a) PR #27455, the non-blocking index copy. Without it every dummy pass
//     waits for its own graph: 0, async or not.
//   - (b) PRs #29311 and #30161, the gloo all-reduce under async scheduling.
//     Without it (or without async scheduling) the NCCL all-reduce waits
//     for the previous graph: 1.
//   - (c) PR #34866, the prepare_inputs_event wait: 2 under async scheduling
//     with (a) and (b). With (a) and (b) but not (c) nothing cited bounds
//     the host (issue #34619: it ran far enough ahead to overwrite pinned
//     buffers the GPU was reading; the CUDA launch queue and the 32-step
//     _has_global_unfinished_reqs gloo all-reduce, a CPU collective, bound
//     it by no number read): unknown.
//
// Which release has which (srcDPDummyChanges): a release whose branch was
// cut from main after a PR merged has it, the changes being on main from
// their merge to 0.19.0's main 08ed2b968 (no revert seen); vLLM cuts its
// release branches from main in release order.
const srcDPDummyRunAhead = "vllm: 0.11.0 tag b8b302cde434 gpu_model_runner.py _dummy_run (get_dp_padding, hidden_states[logit_indices]); " +
	"main 08ed2b968 (0.19.0) gpu_model_runner.py _dummy_run / synchronize_input_prep, dp_utils.py _get_device_and_group, config/vllm.py; " +
	"PRs #27455, #29311, #30161, #34866 (issue #34619); " + srcDPDummyChanges

// srcDPDummyChanges: the first release of each change, from vLLM's weekly
// merge summaries ("Weekly Summary for vllm-project/vllm", which list the
// PRs merged in the week ending that day; copies found by exact search
// of public repository files, whose repository the search does not name)
// and release contents read elsewhere in this package:
//   - (a) #27455: merged in the week ending 2025-10-31, after 0.11.0
//     (tag read without it). 0.12.0's branch point is after PR #29559
//     ("Implement multi-step Eagle with CUDA graph", merged in the week
//     ending 2025-11-28), which 0.12.0's notes list (srcDCPFlashInfer), so
//     0.12.0 on have it. 0.11.1 (out by 2025-11-19, IBM/ado PR #223) and
//     0.11.2 are not pinned either way.
//   - (b) #29311 merged in the week ending 2025-11-28 (the same week as
//     #29559, so 0.12.0 is not pinned), #30161 (moves the default into
//     VllmConfig.__post_init__, after async scheduling is enabled
//     implicitly) in the week ending 2025-12-12. 0.14.0 has PR #27614
//     (async scheduling on by default, srcAsyncScheduling), merged in the
//     week ending 2026-01-02, so its branch point is after both: 0.14.0 on
//     have it. 0.11.1 was out before #29311 merged; 0.11.2 (a small patch
//     of 0.11.1: torch-spyre/sendnn-inference PR #600), 0.12.0 and 0.13.0
//     are not pinned. PR #32197 (opened 2026-01-12) only lets the default
//     be overridden.
//   - (c) #34866: merged 2026-02-20, after 0.14.1 (out by 2026-01-30,
//     ai-dynamo/dynamo PR #5840). 0.17.1: the fork snapshot
//     github.com/ProtoAI-Bakari/vllm-asahi-vulkan-0.17.1 (commit 3cde9c25,
//     its install script builds TAG="v0.17.1") has _dummy_run's "with
//     self.synchronize_input_prep():" and the non-blocking index copy (the
//     fork turned its device into "cpu" for Vulkan). 0.15.x (release dates
//     not read), 0.16.0 (cut after 2026-02-02, srcAttnEnvGone; released by
//     2026-02-26, ai-dynamo/dynamo PR #6614) and 0.17.0 are not pinned.
const srcDPDummyChanges = "weekly summaries of vllm-project/vllm (#27455: week to 2025-10-31; #29311 and #29559: 2025-11-28; " +
	"#30161: 2025-12-12; #27614: 2026-01-02); 0.12.0 lists #29559, 0.14.0 has #27614 (async by default); " +
	"0.17.1 fork snapshot ProtoAI-Bakari/vllm-asahi-vulkan-0.17.1@3cde9c25 gpu_model_runner.py _dummy_run (synchronize_input_prep, non_blocking index copy)"

// The three changes, as spans: Since is the first release that may have
// the change, Confirmed the first one shown to (srcDPDummyChanges).
var (
	// dpDummyNonBlockingIndex: (a), PR #27455.
	dpDummyNonBlockingIndex = Span{Since: v0111, Confirmed: v0120}
	// dpDummyGlooUnderAsync: (b), PRs #29311 and #30161.
	dpDummyGlooUnderAsync = Span{Since: v0112, Confirmed: v0140}
	// dpDummyPrepareInputsWait: (c), PR #34866.
	dpDummyPrepareInputsWait = Span{Since: v0150, Confirmed: mustVersion("0.17.1")}
)

// DPDummyChanges reports which of the changes that set the dummy loop's
// run-ahead release r has: (a) the non-blocking index copy (#27455), (b)
// the gloo all-reduce under async scheduling (#29311, #30161), (c) the
// prepare_inputs_event wait (#34866); Maybe where no source pins it.
func (r Release) DPDummyChanges() (nonBlockingIndex, glooUnderAsync, prepareInputsWait Presence) {
	return dpDummyNonBlockingIndex.In(r.Version), dpDummyGlooUnderAsync.In(r.Version), dpDummyPrepareInputsWait.In(r.Version)
}

// dpRunAhead derives the run-ahead from the three changes (see
// srcDPDummyRunAhead): the value, and Present if it is known, Maybe if
// not (then the value is 0, the pricing before it was read).
func dpRunAhead(a, b, c Presence, async bool) (int, Presence) {
	switch {
	case a == Absent:
		return 0, Present // each dummy pass waits for its own graph
	case a == Maybe:
		return 0, Maybe
	case !async || b == Absent:
		return 1, Present // the NCCL all-reduce waits for the previous graph
	case b == Maybe:
		return 0, Maybe
	case c == Present:
		return 2, Present // prepare_inputs_event: the graph before the previous one
	default:
		return 0, Maybe // nothing cited bounds the host (c absent or unpinned)
	}
}

// DPDummyRunAheadKnown is how many dummy forward passes more than the one
// the GPU is running when a request reaches an idle DP engine (a DP wave's
// dummy steps) run before the request's step, with or without async
// scheduling; known is Present where the release's changes are pinned,
// Maybe where they are not (the count is then 0, unknown), with the
// source:
//   - 0.11.0 and before: 0 (each dummy pass waits for its own graph);
//   - 0.11.1, 0.11.2: unknown (#27455 not pinned);
//   - 0.12.0, 0.13.0: 1 without async scheduling, unknown with it;
//   - 0.14.0 to 0.17.0: 1 without async scheduling; with it unknown (no
//     prepare_inputs_event wait in 0.14.x, not pinned in 0.15.0 to 0.17.0);
//   - 0.17.1 on: 2 under async scheduling, 1 without (releases after
//     0.19.0 assumed alike, the fork snapshot of 2026-05-24 having the same
//     code).
func (r Release) DPDummyRunAheadKnown(async bool) (n int, known Presence, src string) {
	a, b, c := r.DPDummyChanges()
	n, known = dpRunAhead(a, b, c, async)
	return n, known, srcDPDummyRunAhead
}

// DPDummyRunAhead is DPDummyRunAheadKnown without the flag: the count (0
// where it is unknown) and the source.
func (r Release) DPDummyRunAhead(async bool) (int, string) {
	n, _, src := r.DPDummyRunAheadKnown(async)
	return n, src
}
