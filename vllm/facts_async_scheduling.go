package vllm

// Async scheduling: the engine schedules step N+1 while the GPU runs step N
// (vLLM PR #19970, opt-in with --async-scheduling), so the host's work
// between steps hides behind the GPU's. PR #27614 ("[Core] Enable async
// scheduling by default", opened 2025-10-27) turned it on by default:
//   - not in 0.13.0: vllm-ascend PR #5495 (2025-12-30) keeps its tests
//     "compatible with both vllm version of v0.13.0 and latest main
//     commitID, while vllm enables async scheduling by default";
//   - 0.14.0 (released 2026-01-17): "Async scheduling is now enabled by
//     default in v0.14" (deepjavalibrary/djl issue #3833, a user's reading of the
//     release), with EAGLE/MTP speculative decoding too (PR #31998);
//   - 0.20.2: vllm-ascend PR #9567 drops --async-scheduling from its
//     configs, "now enabled by default".
//
// It stays off where vLLM turns it off: pipeline parallelism before PR
// #32359 (merged after 0.14.0's branch; AsyncSchedulingWithPP, followed by
// AsyncSchedulingFor only with UseAsyncSchedulingWithPP),
// speculative methods other than EAGLE/MTP (draft models until PR #48341,
// n-gram), and --no-async-scheduling.
const srcAsyncScheduling = "vllm PR #27614; vllm-ascend PR #5495 (off in 0.13.0); djl issue #3833 (on in 0.14.0); vllm-ascend PR #9567 (on in 0.20.2)"

// asyncSchedulingDefaultOn: releases that schedule asynchronously unless
// told not to.
var asyncSchedulingDefaultOn = Span{Since: v0140}

// AsyncSchedulingByDefault reports whether the release schedules the next
// step while the GPU runs this one without being asked, and the source.
func (r Release) AsyncSchedulingByDefault() (Presence, string) {
	return asyncSchedulingDefaultOn.In(r.Version), srcAsyncScheduling
}

// srcAsyncPP: pipeline parallelism no longer turns the default off. PR
// #32359 ("Support async scheduling + PP with constraints", opened
// 2026-01-14) was merged by 2026-01-21 (PR #32775's review: "PP has already
// been supported with #32359"), after 0.14.0 (released 2026-01-17); PR
// #32618 completed it. vLLM main 000fc94b's vllm/config/vllm.py
// VllmConfig.__post_init__ enables async scheduling by default unless the
// model is a pooling model, the speculative method is not EAGLE/MTP,
// n-gram GPU, draft_model or DSpark, disable_padded_drafter_batch is set,
// the executor class does not support async scheduling, or ROCm DeepEP
// high-throughput DBO is used: no pipeline-parallel condition. 0.16.0 was
// cut after 2026-02-02 (srcAttnEnvGone), so it has PR #32359; 0.15.x is
// not read. The executor still decides: the Ray executor kept
// "assert pipeline_parallel_size == 1" for async scheduling (PR #40084,
// 2026-04, open), so a Ray PP engine may still run synchronously. Issue
// #23 audit (factaudit). Session 40 (amd40) read the tags: v0.14.0
// (b17039bcc) vllm/config/vllm.py still turns the default off at
// pipeline_parallel_size > 1; v0.15.0 (f17644344) no longer does, and
// carries PR #32359 itself (commit b34474bf2 "[Feature] Support async
// scheduling + PP (#32359)" lies between the two tags;
// multiproc_executor.py max_concurrent_batches "2 if pp_size <= 1 and
// async_scheduling else pp_size"), so 0.15.0 is the first release.
const srcAsyncPP = "PR #32359 (async scheduling + PP, merged by 2026-01-21 per PR #32775, after 0.14.0); PR #32618; " +
	"vllm main 000fc94b vllm/config/vllm.py __post_init__ (no PP condition on the default); " +
	"v0.14.0 (b17039bcc) vllm/config/vllm.py keeps the PP condition, v0.15.0 (f17644344) drops it and has #32359 (b34474bf2) — tags as stored in the fork kzwrime/vllm; " +
	"Ray executor with PP still asserted PP == 1 (PR #40084, open 2026-04)"

// asyncPPSince is the first release whose async-scheduling default holds
// with pipeline parallelism (mp executor).
var (
	asyncPPSince   = v0150
	asyncPPCertain = v0150 // releases before it keep PP synchronous for certain
)

// UseAsyncSchedulingWithPP makes AsyncSchedulingFor follow
// AsyncSchedulingWithPP: from 0.15.0 a PP engine (mp executor) schedules
// asynchronously by default. Off by default: the fact is recorded, but the
// performance model's PP calibration was fitted with PP synchronous and
// the executor (Ray keeps PP synchronous) is not known here; the integrator
// decides.
var UseAsyncSchedulingWithPP = false

// AsyncSchedulingWithPP reports whether the release's async-scheduling
// default also holds with pipeline parallelism (mp executor): Absent
// before 0.15.0, Present from 0.15.0.
func (r Release) AsyncSchedulingWithPP() (Presence, string) {
	return Span{Since: asyncPPCertain, Confirmed: asyncPPSince}.In(r.Version), srcAsyncPP
}

// AsyncSchedulingFor reports whether an engine of release r runs with async
// scheduling: asked for explicitly (on, off: --async-scheduling or
// --no-async-scheduling; nil: not said), or by the release's default where
// vLLM keeps it on — no pipeline parallelism, and no speculative method
// other than EAGLE or MTP (method "" when speculative decoding is off).
//
// Such an engine has scheduled one step ahead of the GPU when it takes new
// requests: a request that arrives while step k runs is scheduled into
// step k+2, which the GPU starts after step k+1; one that finds nothing
// running is scheduled at once. Source: vllm@00080ee1 (main, 2026)
// vllm/v1/engine/core.py — EngineCore.__init__ sets batch_queue_size =
// vllm_config.max_concurrent_batches ("Async scheduling requires 2
// concurrent batches to overlap", vllm/config/vllm.py);
// step_with_batch_queue schedules and launches the next batch before it
// blocks on the oldest one's output ("fulfilling the batch queue has a
// higher priority than getting model outputs"), and the busy loop reads
// new requests between two calls, after that block. The batch queue came
// with the async scheduling PR #19970; the 0.14–0.22 release files were not
// read.
func (r Release) AsyncSchedulingFor(explicit *bool, pp int, specMethod string) bool {
	if explicit != nil {
		return *explicit
	}
	if p, _ := r.AsyncSchedulingByDefault(); p != Present {
		return false
	}
	switch specMethod {
	case "", "mtp", "eagle", "eagle3":
	default:
		return false
	}
	if pp <= 1 {
		return true
	}
	if p, _ := r.AsyncSchedulingWithPP(); UseAsyncSchedulingWithPP && p == Present {
		return true
	}
	return false
}

// srcAsyncExecutor: the executor condition of the async-scheduling default.
// At the v0.16.0 release branch, vllm/config/vllm.py leaves
// async_scheduling off by default unless distributed_executor_backend is
// mp, uni or external_launcher ("Async scheduling will be disabled because
// it is not supported with the `%s` distributed executor backend"), and
// refuses it when asked for with another one; at the v0.19.0 commit the
// test is executor_class.supports_async_scheduling(), True only for the
// multiprocessing and uniprocess executors (abstract.py's default False is
// not overridden by ray_executor.py). 0.16.0 also keeps it off with Mamba
// prefix caching (mamba_cache_mode != "none"), a condition 0.19.0 no longer
// has. 0.14.x-0.15.x not read.
const srcAsyncExecutor = "vllm/config/vllm.py at " + srcFA016 + " (executor_supports_async_sched = backend in (mp, uni, external_launcher)) and at " + srcFA019 +
	" (executor_class.supports_async_scheduling(): multiproc_executor.py and uniproc_executor.py True, abstract.py False); 0.14.x-0.15.x unverified"

// AsyncSchedulingWithExecutor says whether the async-scheduling default
// (AsyncSchedulingByDefault) holds with the distributed executor backend
// ("" = the default executor, mp or uni): the Ray executor keeps it off.
// AsyncSchedulingFor does not take the executor (its callers have none);
// the fact is recorded for them (issue #23, factaudit2).
func (r Release) AsyncSchedulingWithExecutor(backend string) (Presence, string) {
	def, _ := r.AsyncSchedulingByDefault()
	switch backend {
	case "", "mp", "uni", "external_launcher":
		return def, srcAsyncExecutor
	}
	if def == Absent || r.Version.AtLeast(v0160) {
		return Absent, srcAsyncExecutor
	}
	return Maybe, srcAsyncExecutor
}
