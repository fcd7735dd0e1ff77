package vllm

// The conditions under which a release keeps its async-scheduling default
// (AsyncSchedulingByDefault) off, read at the release tags for issue #28
// (session 40, amd40: were the MI300X gpt-oss rows and the H100
// DeepSeek-V4-Flash rows that perf.UseAsyncOverlap turned fast really
// overlapped?). Tags as stored in the fork kzwrime/vllm (upstream tags):
// v0.14.0 b17039bcc, v0.15.0 f17644344, v0.16.0 89a77b108, v0.17.0
// b31e9326a, v0.19.0 2a69949bd, v0.24.0 ee0da84ab.
//
// At every one of them the default is decided in one place,
// vllm/config/vllm.py VllmConfig.__post_init__ ("Enable async scheduling
// unless there is an incompatible option"), and the only other writer of
// scheduler_config.async_scheduling under vllm/ is the CPU platform
// (vllm/platforms/cpu.py check_and_update_config: "async scheduling is not
// required on CPU"). The options that keep it off:
//   - a speculative method other than EAGLE/MTP (v0.24.0 also keeps the
//     n-gram GPU proposer: NgramGPUTypes), or disable_padded_drafter_batch;
//   - an executor other than mp, uni or external_launcher (Ray);
//   - pipeline parallelism, at v0.14.0 only (srcAsyncPP);
//   - Mamba prefix caching, at v0.16.0 only (srcAsyncExecutor);
//   - a pooling model, at v0.24.0 (not at v0.19.0).
//
// Nothing names ROCm, the attention backend, structured outputs or the
// model: vllm/platforms/rocm.py and vllm/v1/attention/backends/ never
// touch async_scheduling at these tags. At world size 1 the executor is
// "uni" (v0.17.0 vllm/config/parallel.py: distributed_executor_backend
// None and world_size 1 -> "uni"), whose max_concurrent_batches is "2 if
// async_scheduling else 1" (vllm/v1/executor/uniproc_executor.py): a
// batch is scheduled while the previous one runs.
//
// Later, vLLM main 000fc94b adds one ROCm condition: ROCm DeepEP
// high-throughput all-to-all with dual-batch overlap keeps the default off
// ("can corrupt DP+EP generation accuracy"). It is absent at v0.24.0; the
// first release that has it was not read.
const srcAsyncConditions = "vllm/config/vllm.py VllmConfig.__post_init__ and vllm/platforms/cpu.py at v0.14.0 (b17039bcc), v0.15.0 (f17644344), " +
	"v0.16.0 (89a77b108), v0.17.0 (b31e9326a), v0.19.0 (2a69949bd), v0.24.0 (ee0da84ab), tags as stored in kzwrime/vllm: no ROCm, attention-backend " +
	"or structured-output condition; v0.17.0 vllm/config/parallel.py (world size 1 -> uni) and vllm/v1/executor/uniproc_executor.py " +
	"(max_concurrent_batches 2 with async scheduling); ROCm DeepEP high-throughput DBO condition first seen at main 000fc94b, absent at v0.24.0"

// asyncROCmRead is the last release read without the ROCm DeepEP DBO
// condition; after it the condition may apply.
var asyncROCmRead = mustVersion("0.24.0")

// AsyncSchedulingOnROCm reports whether the release's async-scheduling
// default (AsyncSchedulingByDefault) also holds on a ROCm GPU, and the
// source. The release tags read put no ROCm condition on it; only ROCm
// DeepEP high-throughput all-to-all with dual-batch overlap (deepEPHTDBO)
// turns it off, in releases after 0.24.0 whose first one was not read
// (Maybe there; the default elsewhere).
func (r Release) AsyncSchedulingOnROCm(deepEPHTDBO bool) (Presence, string) {
	def, _ := r.AsyncSchedulingByDefault()
	if def == Absent || !deepEPHTDBO || !asyncROCmRead.Less(r.Version) {
		return def, srcAsyncConditions
	}
	return Maybe, srcAsyncConditions
}
