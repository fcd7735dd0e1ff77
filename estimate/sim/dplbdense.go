package sim

import "github.com/vlaunch/vlaunch/vllm"

// A dense model's DP ranks publish no request counts from vLLM 0.14.0 on
// (issue #28 "densettft44"). PR #30739 ("Support online dense model DP
// without overhead", vllm-project/vllm bd877162e, first tagged v0.14.0)
// starts a dense model's DP ranks as plain EngineCoreProcs ("Non-MoE DP
// ranks are completely independent, so treat like DP=1": run_engine_core,
// vllm/v1/engine/core.py at v0.14.0 and v0.15.0 f1764434), and the only
// code that sends an engine's [waiting, running] counts to the DP
// coordinator, DPEngineCoreProc._maybe_publish_request_counts (an
// EngineCoreOutputs with scheduler_stats on client index −1), is called
// from DPEngineCoreProc.run_busy_loop alone; EngineCoreProc.run_busy_loop
// only polls its input queue and steps. The coordinator still runs for a
// dense model under internal or hybrid LB (VllmConfig.needs_dp_coordinator,
// vllm/config/vllm.py v0.15.0: "to collect and publish queue stats"), but
// with no stats arriving its stats_changed stays false, so it publishes
// every 5,000 ms ("or otherwise every 5 seconds", coordinator.py
// DPCoordinatorProc.process_input_socket) the counts it started with,
// EngineState.request_counts = [0, 0] for every engine. Each API server's
// DPLBAsyncMPClient view (core_client.py get_core_engine_for_request) thus
// holds only its own picks since the last publication (client_count added
// per pick), zeroed every 5 s: it deals requests to the ranks in turn from
// its eng_start_index, whatever each rank is running. The same code
// stands at the newest tag read (v0.24.0's tree in the kzwrime/vllm
// mirror: _maybe_publish_request_counts still in DPEngineCoreProc only).
// Before 0.14.0 every DP rank, dense or MoE, ran DPEngineCoreProc and
// published its counts (v0.13.0 run_engine_core: DPEngineCoreProc when
// data_parallel).

// UseDenseDPBlindLB deals a dense model's requests to its DP ranks as
// vLLM ≥ 0.14.0 does (DPLB.Blind). Off: every balancer sees the ranks'
// counts every 100 ms. Off (trial, docs/calibration-analysis.md
// "densettft44"): on, it moves no held-out or calibration figure across
// ±30% (dense ttft_mean 40 of 65 and ttft_p99 37 of 50 either way, the
// ttft_mean median 25.9% → 25.5%) and leaves the Llama TP4 × DP2 c10
// waves it was meant to break, while switching it on moves check's
// dense DP deployments on every release from 0.14.0 (goldens not
// regenerated here).
var UseDenseDPBlindLB = false

// DPLBBlindIntervalS is how often the coordinator republishes counts that
// have not changed (5 s, above): a blind view's reset.
const DPLBBlindIntervalS = 5.0

// denseDPSince is the first release whose dense DP ranks publish no counts.
var denseDPSince, _ = vllm.ParseVersion("0.14.0")

// BlindDenseDP reports whether vLLM's balancer deals a deployment's
// requests without the ranks' counts: a dense model (d.Dense) on a release
// from 0.14.0 on (above).
func BlindDenseDP(d DPLBDeployment) bool {
	return UseDenseDPBlindLB && d.Dense && d.Release.Version.AtLeast(denseDPSince)
}

// viewCounts is what a view shows of a rank at a publication: its waiting
// and running requests, or nothing when the engines publish no counts.
func (st *dplbState) viewCounts(r *simRank) [2]int {
	if st.cfg.Blind {
		return [2]int{}
	}
	return [2]int{len(r.waiting), len(r.running)}
}

// interval is how often the views are replaced.
func (st *dplbState) interval() float64 {
	if st.cfg.Blind {
		return DPLBBlindIntervalS
	}
	return st.cfg.IntervalS
}
