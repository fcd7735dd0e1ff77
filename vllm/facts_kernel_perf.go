package vllm

// Performance facts about the kernels and the scheduler a release runs:
// what the step-time model and the serving simulation need beyond the
// flags. Each fact cites its source; where only the effect is published
// (a benchmark, an issue) and not the mechanism, the source says so.

// srcDeepEPLL: DeepEP's published low-latency table (docs/legacy.md at
// deepseek-ai/DeepEP dd758ca, "Low-latency kernels with pure RDMA": H800,
// CX7 400 Gb/s, 128 tokens per batch, hidden 7168, top-8, FP8 dispatch,
// BF16 combine). Subtracting the bytes a rank sends at the NIC's 50 GB/s
// from the latencies at EP 32–256 (dispatch 155–194 µs, combine 273–369 µs)
// leaves 40–49 µs per dispatch and 47–83 µs per combine that do not scale
// with the bytes.
const srcDeepEPLL = "deepseek-ai/DeepEP docs/legacy.md (commit dd758ca), low-latency table: EP 32–256 dispatch 155–194 µs, combine 273–369 µs at 128 tokens; " +
	"minus bytes at 50 GB/s leaves ≈40–80 µs per phase (our arithmetic); small-batch latency itself not published (unverified below 128 tokens)"

// srcDeepEPHT: DeepEP issue #138 (2 × 8 H20, CX6 200 Gb RoCE): the internode
// normal (high-throughput) dispatch of 8 tokens takes 0.33–0.45 ms.
const srcDeepEPHT = "deepseek-ai/DeepEP issue #138 (2 × 8 H20 over 200 Gb RoCE: internode normal dispatch of 8 tokens ≈0.36 ms); one cluster, InfiniBand not measured (unverified elsewhere)"

// A2ALatency is the fixed time of one dispatch or combine phase of an MoE
// all-to-all that does not scale with the bytes moved (kernel launch,
// per-rank signalling and completion polling).
type A2ALatency struct {
	FixedS float64
	Source string
}

// A2AFixedLatency returns the fixed latency per phase of the all-to-all
// kernels with traffic pattern t: DeepEP low-latency (per expert) ≈ 50 µs;
// DeepEP normal (per node) across nodes ≈ 350 µs, inside one node the
// low-latency figure (NVLink-only normal kernels: unverified); NCCL
// gathers have none beyond the generic collective cost.
func A2AFixedLatency(t Traffic, multiNode bool) A2ALatency {
	switch {
	case t == TrafficPerExpert:
		return A2ALatency{FixedS: 50e-6, Source: srcDeepEPLL}
	case t == TrafficPerNode && multiNode:
		return A2ALatency{FixedS: 350e-6, Source: srcDeepEPHT}
	case t == TrafficPerNode:
		return A2ALatency{FixedS: 50e-6, Source: srcDeepEPLL + "; intranode normal kernels assumed alike (unverified)"}
	}
	return A2ALatency{}
}

// srcIdleDP: vLLM issue #23752 (DeepSeek-R1, DP8 + EP on 8 × B200,
// 2025-08): TPOT ≈120 ms for 1–7 concurrent sequences, 41 ms at 8 and 45 at
// 9. The issue reports the effect; that idle ranks' dummy steps run without
// CUDA graphs is our reading (unverified), as is the release range.
const srcIdleDP = "vllm issue #23752 (DP8+EP, 8 × B200: TPOT ≈120 ms at 1–7 sequences vs 41 ms at 8); mechanism (idle ranks' dummy batches without CUDA graphs) and release range unverified"

// IdleDPRanksSlow reports whether a lock-step DP + EP step in which some
// rank has no sequence runs as slowly as a step without CUDA graphs: the
// idle ranks execute dummy batches to join the all-to-all. Applied to every
// V1 release with DP (0.8.0 on) until a fix is cited.
func (r Release) IdleDPRanksSlow() (bool, string) {
	return r.Version.AtLeast(v080), srcIdleDP
}

// srcScheduler: the V1 scheduler and V0's default one.
const srcScheduler = "vllm/v1/core/sched/scheduler.py (\"First, schedule the RUNNING requests\", then WAITING under `if not preempted_reqs`); " +
	"vllm/core/scheduler.py _schedule_default (\"Don't schedule decodes if prefills are scheduled\"); V0 with MLA ran without chunked prefill before 0.8 (unverified)"

// SchedulerKind is how an engine fills a step.
type SchedulerKind int

// Scheduler kinds of vLLM's engines.
const (
	// SchedDecodeFirst: running requests first (decodes and prompt chunks),
	// then waiting prompts, chunked to max_num_batched_tokens (V1).
	SchedDecodeFirst SchedulerKind = iota
	// SchedPrefillFirstWhole: whole waiting prompts first, no decodes in a
	// step that prefills (V0 without chunked prefill).
	SchedPrefillFirstWhole
)

// Scheduler returns how the release's default engine schedules steps: the
// V1 scheduler from 0.8.0 (EngineEra), V0's prefill-first scheduler before.
func (r Release) Scheduler() (SchedulerKind, string) {
	if r.EngineEra().V1Default != Absent {
		return SchedDecodeFirst, srcScheduler
	}
	return SchedPrefillFirstWhole, srcScheduler
}
