package vllm

// What one pipeline-parallel step does on the host (issue #28, item 2:
// "PP hand-offs and bubbles; the host cost of a cross-node step"; read
// 2026-12-06, session pp29). The step model does not use this beyond what
// it already prices (estimate/perf: pp × stage + StepTime.PPS, and the
// host's serial time once per step, as for any TP × PP > 1 engine):
// no public measurement of a cross-node vLLM pipeline was found to set
// the terms below (published/README.md, "Sources added 2026-12-06
// (pipeline parallelism)"). It is recorded here for the next try.
//
// Sources read: vllm@00b31a36 (main of 2025-11-02, between 0.11.0 and
// 0.11.1; the jasl/vllm snapshot) vllm/v1/engine/core.py
// EngineCore.step_with_batch_queue; vllm/v1/executor/multiproc_executor.py
// (max_concurrent_batches, _execute_with_aggregation, output_rank;
// "Multiprocessing-based executor does not support multi-node setting");
// vllm/v1/executor/ray_executor.py (max_concurrent_batches,
// _compiled_ray_dag, sample_tokens); vllm/v1/executor/ray_utils.py
// RayWorkerWrapper.execute_model_ray; vllm/v1/worker/gpu_worker.py
// Worker.execute_model; vllm/distributed/parallel_state.py
// GroupCoordinator.send_tensor_dict / send_object; vllm/v1/core/sched/
// scheduler.py (num_new_tokens == 0 "PP>1 and we have already scheduled
// all prompt tokens but they are not finished yet"; use_pp: "the scheduler
// sends the sampled tokens back, because there's no direct communication
// between the first-stage worker and the last-stage worker"); the
// Yuran-7/vllm-0.11 snapshot's vllm/engine/arg_utils.py (async scheduling
// refused for PP > 1, as PR #19970 introduced it); PR #32359 and #32618
// (async scheduling with PP, 2026-01, after 0.14.0); PR #23691 (--nnodes,
// the mp executor across nodes, 0.11.1 per the flag table). Ray's own
// compiled-graph channel code was not read.
//
//	what, per step                       | mp executor (one node; --nnodes    | Ray executor (the only one for an
//	                                     | from 0.11.1)                       | engine across nodes before 0.11.1)
//	-------------------------------------+------------------------------------+-----------------------------------------
//	batches in flight                    | PP (no async scheduling; PP > 1    | PP (the same rule)
//	  (batch_queue_size)                 | refuses it until PR #32359)        |
//	SchedulerOutput to the workers       | one shm broadcast to every rank    | compiled-DAG input to stage 0; stage k
//	                                     | (remote readers over ZMQ)          | hands (SchedulerOutput, GrammarOutput,
//	                                     |                                    | IntermediateTensors) to stage k+1
//	hand-off between stages              | send_tensor_dict: a pickled        | the DAG channel: CPU objects, then the
//	                                     | metadata list over the CPU (gloo)  | tensors over NCCL (channel type "auto",
//	                                     | group (size, then bytes), then     | VLLM_USE_RAY_WRAPPED_PP_COMM on)
//	                                     | hidden_states and residual over    |
//	                                     | NCCL, each rank sending 1/TP and   |
//	                                     | the receiver all-gathering over TP |
//	stage k+1's input preparation        | after recv_tensor_dict returns     | after the channel delivers stage k's
//	                                     | (gpu_worker.execute_model)         | tuple (execute_model_ray)
//	sampled tokens back                  | output rank (first TP rank of the  | the last stage returns the output over
//	                                     | last stage) through its response   | the DAG; execute_model_ray waits for
//	                                     | queue                              | the sampled ids (get_output) first
//	next step of the same sequence       | only after update_from_output: the | the same
//	                                     | sequence has no new token to       |
//	                                     | schedule while in flight, and the  |
//	                                     | token returns in new_token_ids     |
//
// So a sequence's token interval is one full traversal plus one host round
// trip (schedule, broadcast, stage preparations, hand-offs, output back,
// update), whatever PP is: at batch 1 nothing of it overlaps the GPU
// except a later stage's input preparation behind an earlier stage's
// kernels. Across nodes the hand-off's CPU part (two gloo sends of a few
// hundred bytes, or the DAG channel's objects) and the output's way back
// cross the network once per stage boundary and once per step; what each
// costs was not measured in any source read. Under load the PP batches in
// flight are whatever the scheduler formed (a schedule() call takes every
// request not in flight), not PP equal shares.
const srcPPStep = "vllm@00b31a36 (jasl/vllm snapshot) vllm/v1/engine/core.py, vllm/v1/executor/{multiproc_executor,ray_executor,ray_utils}.py, " +
	"vllm/v1/worker/gpu_worker.py, vllm/distributed/parallel_state.py, vllm/v1/core/sched/scheduler.py; Yuran-7/vllm-0.11 vllm/engine/arg_utils.py; " +
	"vllm PRs #19970, #23691, #32359, #32618; Ray's channel code not read"
