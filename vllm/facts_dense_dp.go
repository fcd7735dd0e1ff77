package vllm

// srcDenseDPNoCounts: a dense model's DP ranks run as independent engines
// that publish no request counts to the DP coordinator, so the API
// servers' balancer deals them requests without seeing their load.
// PR #30739 ("Support online dense model DP without overhead", first
// tagged v0.14.0): vllm/v1/engine/core.py run_engine_core starts a
// DPEngineCoreProc only `if data_parallel and
// vllm_config.model_config.is_moe` (v0.14.0 l.916, v0.24.0 l.1189; at
// v0.13.0 every DP rank is a DPEngineCoreProc, l.853), and the only code
// that sends an engine's [waiting, running] counts to the coordinator,
// DPEngineCoreProc._maybe_publish_request_counts, is called from
// DPEngineCoreProc.run_busy_loop alone (read at v0.14.0, v0.15.0 and
// v0.24.0). Each API server's DPLBAsyncMPClient
// (core_client.py get_core_engine_for_request) then scores the ranks by
// the counts it last received — zeros, republished every 5 s by the
// coordinator (coordinator.py process_input_socket) — plus its own picks
// since: it deals requests to the ranks in turn.
const srcDenseDPNoCounts = "vllm-project/vllm PR #30739; vllm/v1/engine/core.py run_engine_core and DPEngineCoreProc._maybe_publish_request_counts " +
	"at v0.13.0 (every DP rank a DPEngineCoreProc), v0.14.0, v0.15.0 and v0.24.0 (DPEngineCoreProc only for MoE models); " +
	"vllm/v1/engine/core_client.py DPLBAsyncMPClient.get_core_engine_for_request; vllm/v1/engine/coordinator.py"

// denseDPBlind: releases whose dense-model DP ranks publish no counts.
var denseDPBlind = Span{Since: v0140}

// DenseDPBalancedBlind reports whether the release's internal DP load
// balancer deals a dense (non-MoE) model's requests to its DP ranks
// without their request counts (srcDenseDPNoCounts), and the source. A
// MoE model's ranks publish their counts in every release read.
func (r Release) DenseDPBalancedBlind() (Presence, string) {
	return denseDPBlind.In(r.Version), srcDenseDPNoCounts
}
