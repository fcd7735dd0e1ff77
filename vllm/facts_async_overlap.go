package vllm

// Which host work async scheduling hides behind the GPU (issue #28, item
// 1; read 2026-12-06). The step model does not use this yet (see the
// comment at the OverlapHost assignment in SetupFromInput in estimate/perf/perf_input.go for the trials
// and why): it is recorded here, where vLLM's facts live, for the next
// try.
//
// Sources read: vllm@00080ee1 (main, 2026) vllm/v1/engine/core.py
// EngineCore.step_with_batch_queue and EngineCore.__init__
// (batch_queue_size = max_concurrent_batches); vllm@01e4fce0 (main)
// vllm/v1/executor/uniproc_executor.py UniProcExecutor.collective_rpc and
// max_concurrent_batches (2 with async scheduling); PR #23569 ("Fully
// overlap model execution": the runner returns an AsyncGPUModelRunnerOutput
// holding the sampled ids on the GPU, a worker thread waits for their copy;
// "full overlap of the cpu operations (including prepare_inputs) and the
// model forward pass"); PR #19970 (the batch queue; scheduler and worker
// in separate processes at first); PR #26467 and #27910 (penalties and
// bad_words under async, in 0.11.1 per vllm-project/recipes PR #131);
// PR #27615 (output logprobs no longer sync); the async rule of
// vllm/config/vllm.py VllmConfig.__post_init__ and the multiprocess
// executor's WorkerProc.handle_output / async_output_busy_loop in copies
// of main read through the code index. The 0.14, 0.15, 0.17, 0.19 and 0.24
// release trees were not read (none is stored). PRs #19970, #26467 and
// #27910 predate 0.14.0 (2026-01-17); #23569 and #27615 were opened in
// 2025 and merged (dates not read). That these releases share the loop
// below is an inference from that, not a reading.
//
// The loop (batch queue of two): each call schedules step N+2 and submits
// it without blocking, then blocks on the oldest step N's sampled tokens,
// then runs update_from_output(N). The GPU meanwhile runs step N+1.
//
//	host work (what it grows with)       | runs on                          | with async scheduling
//	-------------------------------------+----------------------------------+---------------------------------------------
//	Scheduler.schedule, step N+2         | engine-core main thread          | beside GPU step N+1
//	  (running and waiting requests)     |                                  |
//	SchedulerOutput to the workers       | TP*PP = 1 ("uni"): none; "mp":   | beside N+1; on the host chain below
//	  (pickled; request count)           | shm MessageQueue broadcast       |
//	_update_states, _prepare_inputs      | "uni": engine-core main thread,  | beside N+1: the runner returns at once;
//	  (N+2's sequences), graph replay or | inline (run_method); "mp": each  | N+1's tokens reach N+2's inputs on the
//	  eager launches, sampler launches   | worker's main thread             | GPU (prev_sampled_token_ids)
//	sampled ids D2H, tolist (sequences)  | "uni": WorkerAsyncOutput thread; | beside N+1; the engine core waits for it
//	                                     | "mp": async_output_busy_loop     | only through future.result() of step N
//	update_from_output, step N           | engine-core main thread          | beside N+1, once N's tokens arrived
//	  (sequences: tokens, stop checks)   |                                  |
//	outputs to the API server            | engine-core output thread (GIL)  | beside N+1
//	  (sequences)                        |                                  |
//	grammar bitmask with pending         | engine core                      | not hidden: the step's sampling waits for
//	  structured-output tokens           |                                  | N's output (deferred_scheduler_output)
//	penalties, bad_words                 | worker                           | the sampler waits for the previous step's
//	                                     |                                  | copy (update_async_output_token_ids)
//
// So the host chain for step N+2 starts when step N's tokens reach the
// engine core and must end before the GPU finishes step N+1. Every
// per-sequence loop, the broadcast and the launches are on that chain:
// they hide exactly while it is shorter than one step's GPU time, and a
// step takes the longer of the two (the queue holds two batches, so
// nothing hides behind more than one step). Per-sequence preparation of
// step N+2 overlaps step N+1, not step N+2. What the chain adds beyond its
// parts is the hand-off of N's tokens (copy done, thread wake-up, in "mp"
// the response queue), microseconds, no figure read.
//
// Async scheduling stays off for pooling models; speculative methods
// other than EAGLE/MTP (main adds n-gram on the GPU, draft models); a
// drafter without padded batches; executors other than mp, uni and
// external_launcher; pipeline parallelism before PR #32359 (after 0.14.0);
// --no-async-scheduling. The only platform term is main's ROCm DeepEP
// high-throughput with DBO; nothing turns it off on ROCm otherwise.
// Release 0.14.0 turned it on by default (PR #27614; torch-spyre PR #636
// turns it back off for its 0.14.0 support).
//
// Checked again 2026-12-06 (branch asyncov, issue #28 item 1), what the
// step model needs of it:
//   - The loop: vllm@00080ee1 vllm/v1/engine/core.py step_with_batch_queue
//     read again. It schedules, calls execute_model(non_block=True) and
//     then sample_tokens(grammar_output, non_block=True), appends the
//     future, and returns without blocking while len(batch_queue) <
//     batch_queue_size; only a full queue (two) pops the oldest batch,
//     blocks on future.result() and runs update_from_output. A batch with
//     pending structured-output tokens defers its sample_tokens call until
//     the previous batch's output is processed (the one exception on the
//     GPU's path in the engine core). step() (sync) does schedule ->
//     execute -> result -> update_from_output in sequence: the host's
//     work adds to the GPU's there.
//   - How far ahead the host can run: the worker's synchronize_input_prep
//     waits on prepare_inputs_event (recorded after the previous step's
//     H2D input copies, which queue on the GPU stream behind the step
//     before): input preparation of step N+2 cannot start before the GPU
//     has reached step N+1. So the host chain has exactly one step's GPU
//     time to hide in, and a step takes max(GPU, host chain); nothing
//     accumulates slack. (The event and its comment: code index copies of
//     gpu_model_runner.py, "Ensure prior step has finished with reused
//     CPU tensors. This is required in the async scheduling case because
//     the CPU->GPU transfer happens async.")
//   - What stays on the GPU's path: the sampler's kernels (temperature,
//     softmax, exponential, argmax, the int32 cast; vllm/v1/sample/
//     sampler.py) run eagerly on the GPU stream after the graph replay, and
//     the H2D input copies queue on it too. The step model books them in
//     the host constant StepOverheadS (perf eager.go kernelsOutsideLayers
//     says so); under async scheduling they are not hidden. About eight
//     small kernels: at H100's measured kernel gap (2.45 µs, perf kernels.go) ≈ 20–30 µs a step
//     at batch 1 (0.4% of the 6.44 ms H100 Llama-8B anchor), not split out.
//     The hand-off of N's tokens (copy event, output thread, in "mp" the
//     response queue) is on the host chain, microseconds. So: max(GPU,
//     host chain), not GPU + a part of any size the rows could see.
//   - Which releases: the full overlap of input preparation is PR #23569
//     (reviews 2025-08-25..27; "Expected speedup is 5-10% over the current
//     async scheduling"); before it, async scheduling overlapped the
//     scheduler only, and PR #19970 (the first version) says "the
//     scheduler and GPU worker must run in separate processes for parallel
//     execution" (TP 1 "uni" did not overlap); PR #23391 (closed) says of
//     that state "only deserialization of scheduler outputs is
//     overlapped". Whether #23569 is in 0.10.2 or first in 0.11.0 was not
//     established (vllm-ascend PR #2783 ports it against a main commit, no
//     release); it matters only for the two calibration rows of vLLM
//     0.10.2 with an explicit --async-scheduling at TP 2
//     (gpustack-oss120b-h100-vllm-tp2-async-sharegpt*), which the replay
//     overlaps in full. 0.11.0 (explicit flag only), 0.15.1 and 0.17 (the
//     rows' releases) and 0.19 postdate it.
//   - Default on from 0.14.0, as facts_async_scheduling.go records: not in
//     0.13.0 (vllm-ascend PR #5495, 2025-12-30), on in 0.14.0 (torch-spyre
//     PR #636, 2026-01-20: "Adds support for vllm 0.14.0 … Disables async
//     scheduling which is now enabled by default" citing PR #27614;
//     deepjavalibrary/djl issue #3833). No 0.14.0 release file was read.
//   - 0.31 dev (the DeepSeek-V4-Flash rows): Model Runner V2 became the
//     default for dense models with PR #44443 (merged 2026-07-02) and for
//     MoE models only with PR #53183 (after 2026-08-27); which runner that
//     build ran for V4 was not established. The engine core's batch queue
//     above is the same for both runners.
const srcAsyncOverlap = "vllm@00080ee1 vllm/v1/engine/core.py EngineCore.step_with_batch_queue; vllm@01e4fce0 vllm/v1/executor/uniproc_executor.py; vllm PRs #19970, #23391, #23569, #26467, #27615, #27614, #44443; torch-spyre PR #636; vllm-ascend PRs #2783, #5495"
