package vllm

import "math"

// Performance facts about the kernels and the scheduler a release runs:
// what the step-time model and the serving simulation need beyond the
// flags. Each fact cites its source; where only the effect is published
// (a benchmark, an issue) and not the mechanism, the source says so.

// srcDeepEPLL: DeepEP's published low-latency table (docs/legacy.md at
// deepseek-ai/DeepEP dd758ca, "Low-latency kernels with pure RDMA"; the
// README's table since #173 let the kernels use NVLink inside a node): H800
// (NVLink ≈160 GB/s), one CX7 400 Gb/s NIC (≈50 GB/s) per GPU, 8 GPUs per
// node, 128 tokens per rank, hidden 7168, top-8, FP8 dispatch, BF16
// combine. README.md de8cfca (2025-06-05, "low-latency kernels now leverage
// NVLink") replaced the rows EP 8–64 only; EP 128 and 256 still
// read as in the first, NIC-only table (README.md at ebfe47e: 192/369 and
// 194/360 µs), so the fit uses EP 8–64. deepEPLowLatency holds them.
const srcDeepEPLL = "deepseek-ai/DeepEP docs/legacy.md (commit dd758ca), low-latency table, EP 8–64 at 128 tokens: dispatch 77–173 µs, combine 114–314 µs; " +
	"minus the bytes (other nodes' copies at the NIC's 50 GB/s, same-node ones at NVLink's 160 GB/s) leaves ≈35–49 µs per phase, " +
	"≈24 µs + 4.4 µs per doubling of EP (our least-squares fit); small batches and RoCE not measured (unverified there)"

// deepEPRow is one row of DeepEP's low-latency table: the EP size and the
// measured dispatch and combine latencies.
type deepEPRow struct {
	ep                  int
	dispatchS, combineS float64
}

// deepEPLowLatency is the re-measured part of srcDeepEPLL's table.
var deepEPLowLatency = []deepEPRow{
	{8, 77e-6, 114e-6}, {16, 118e-6, 195e-6}, {32, 155e-6, 273e-6}, {64, 173e-6, 314e-6},
}

// The table's setting, from DeepEP's tests/test_low_latency.py: each of
// 128 tokens × top-8 copies moves hidden + hidden/128 × 4 + 16 bytes (FP8
// values, float32 scales, index) in dispatch and hidden × 2 (BF16) in
// combine; from the README: NIC and NVLink rates, 8 GPUs per node.
const (
	deepEPTableCopies  = 128 * 8
	deepEPTableHidden  = 7168
	deepEPTableNICBps  = 50e9
	deepEPTableNVLBps  = 160e9
	deepEPTableNodeGPU = 8
)

// residualS is a row's latency per phase (the mean of dispatch and
// combine) less its bytes' time, reckoned as the step model does: copies
// to other nodes through the NIC, copies to the node's other GPUs over
// NVLink, both links at once (the slower one counts).
func (r deepEPRow) residualS() float64 {
	ep := float64(r.ep)
	remote := max(0, ep-deepEPTableNodeGPU) / ep
	local := (min(ep, deepEPTableNodeGPU) - 1) / ep
	bytes := func(perCopy float64) float64 {
		b := deepEPTableCopies * perCopy
		return max(remote*b/deepEPTableNICBps, local*b/deepEPTableNVLBps)
	}
	dispatch := bytes(deepEPTableHidden + deepEPTableHidden/128*4 + 16)
	combine := bytes(deepEPTableHidden * 2)
	return (r.dispatchS - dispatch + r.combineS - combine) / 2
}

// deepEPLLFixedS and deepEPLLPerDoublingS are the least-squares line of
// residualS over log2(EP): ≈24 µs, plus ≈4.4 µs each time the EP group
// doubles (the kernels signal and poll more peers), within 4 µs of every
// row fitted and 2 µs of the EP 256 row, not fitted (EP 128 is 17 µs
// above: its combine, 369 µs, exceeds EP 256's). The residual is not a
// line in the number of peers: 8 → 16 ranks adds 1.3 µs per added peer,
// 32 → 64 ranks 0.05 µs. The NIC-only table (ebfe47e), with the same bytes
// through the NIC at every EP, grows alike: ≈7.6 µs per doubling.
var deepEPLLFixedS, deepEPLLPerDoublingS = func() (float64, float64) {
	var sx, sy, sxx, sxy float64
	for _, r := range deepEPLowLatency {
		x, y := math.Log2(float64(r.ep)), r.residualS()
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(deepEPLowLatency))
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - slope*sx) / n, slope
}()

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
// kernels with traffic pattern t over an EP group of ep ranks: DeepEP
// low-latency (per expert) ≈24 µs + 4.4 µs per doubling of the group
// (37 µs at EP 8, 46 µs at 32, 59 µs at 256); DeepEP normal (per node) across nodes
// ≈350 µs, inside one node the low-latency figure (NVLink-only normal
// kernels: unverified); NCCL gathers have none beyond the generic
// collective cost.
func A2AFixedLatency(t Traffic, multiNode bool, ep int) A2ALatency {
	ll := deepEPLLFixedS + deepEPLLPerDoublingS*math.Log2(float64(max(1, ep)))
	switch {
	case t == TrafficPerExpert:
		return A2ALatency{FixedS: ll, Source: srcDeepEPLL}
	case t == TrafficPerNode && multiNode:
		return A2ALatency{FixedS: 350e-6, Source: srcDeepEPHT}
	case t == TrafficPerNode:
		return A2ALatency{FixedS: ll, Source: srcDeepEPLL + "; intranode normal kernels assumed alike (unverified)"}
	}
	return A2ALatency{}
}

// srcIdleDP: the releases whose idle DP ranks run their dummy batch without
// CUDA graphs, read in vLLM's history (upstream main up to the v0.11.0 tag,
// b8b302cde434df8c9289a2b465406b47ebab1c2d, as carried by the fork snapshot
// github.com/Yuran-7/vllm-0.11; the commit ids below are upstream's):
//   - where it starts: PR #20059 (74f441f4b, main 2025-08-15) gave
//     GPUModelRunner._dummy_run a cudagraph_runtime_mode defaulting to
//     CUDAGraphMode.NONE (then batch_descriptor = None, and the CUDA graph
//     wrappers pass through to the eager runnable), and
//     Worker.execute_dummy_batch — what an idle rank runs to join the
//     lock-step all-to-all — called _dummy_run(1) without a mode. Before
//     it (74f441f4b^) the dummy batch ran under set_forward_context without
//     skip_cuda_graphs, so the piecewise backend replayed the graph captured
//     for the DP-padded size (cuda_piecewise_backend.py): no slowdown (the
//     0.8.0–0.10.0 tags were not read; this is main just before #20059). The
//     dispatcher module #20059 added (vllm/v1/cudagraph_dispatcher.py) is in
//     the v0.10.1.1 documentation (docs.vllm.ai/en/v0.10.1.1; 0.10.1 stands
//     for it, as elsewhere in this package); the 0.10.0 and 0.10.1 tags were
//     not read (#20059 merged after 0.10.0 shipped, 2025-07-24).
//   - where it ends: PR #25407 (ac0048c0a, 2025-09-22) made
//     execute_dummy_batch call _dummy_run(1, uniform_decode=True), PR
//     #25505 (dc464a3d3, 2025-09-23) made _dummy_run's mode Optional and
//     dispatch it through the cudagraph dispatcher when not given, and PR
//     #25906 (03df0fb5d, 2025-09-30) dispatches on the DP-padded token count;
//     all three are ancestors of the v0.11.0 tag, whose _dummy_run dispatches
//     the idle rank's batch to a FULL or PIECEWISE graph. The 0.10.2 tag was
//     not read: the three commits came after it shipped (2025-09-13; release
//     dates from twitu.github.io/indiana-codes vLLM chapter 060).
//   - the effect: issue #23752 (DeepSeek-R1, DP8 + EP on 8 × B200,
//     2025-08-27, PyTorch 2.7.1, release not stated): TPOT ≈120 ms at 1–7
//     sequences, 41 ms at 8; PR #25407: BS1 DP8 mean ITL 137.62 → 31.70 ms.
//   - speculative decoding (MTP/EAGLE) in the V1 runner from 0.11.0: the
//     idle rank's main model dispatches as above, on the DP-padded token
//     count and uniform_decode=True like a busy rank's decode step (a
//     uniform key it lacks falls back to the non-uniform FULL or PIECEWISE
//     key: CudagraphDispatcher.dispatch at b8b302cd); its drafter's dummy_run
//     (EagleProposer.dummy_run, vllm/v1/spec_decode/eagle.py at b8b302cd)
//     still runs without graphs — the draft layers only, not modelled. PR
//     #35376 (2026-03) fixed the same idle-rank miss in Model Runner V2
//     (vllm/v1/worker/gpu/model_runner.py), which MoE deployments do not
//     run by default (V2 is the default for dense models from 0.25.1:
//     srcGraphMemory), so it changes no release here.
const srcIdleDP = "vllm: PR #20059 (74f441f4b: _dummy_run mode defaults to NONE; in 0.10.1.1 per docs.vllm.ai) to PRs #25407/#25505/#25906 " +
	"(ac0048c0a, dc464a3d3, 03df0fb5d: the idle rank's dummy batch dispatched to a CUDA graph; all in the v0.11.0 tag b8b302cde434); " +
	"effect: issue #23752 (DP8+EP, 8 × B200: TPOT ≈120 ms at 1–7 sequences vs 41 ms at 8), PR #25407 (BS1 DP8 ITL 137.62 → 31.70 ms)"

// idleDPSlow: the releases whose idle DP ranks run their dummy batch
// eagerly (srcIdleDP): from 0.10.1 (PR #20059) until 0.11.0 (PRs #25407,
// #25505, #25906).
var idleDPSlow = Span{Since: v0101, Removed: v0110}

// IdleDPRanksSlow reports whether a lock-step DP + EP step in which some
// rank has no sequence runs as slowly as a step without CUDA graphs: the
// idle ranks execute dummy batches to join the all-to-all, and in 0.10.1
// and 0.10.2 those ran without CUDA graphs (srcIdleDP). Releases before
// 0.10.1 replayed the piecewise graph for the dummy batch; 0.11.0 and later
// dispatch it to a captured graph.
func (r Release) IdleDPRanksSlow() (bool, string) {
	return idleDPSlow.In(r.Version) != Absent, srcIdleDP
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
