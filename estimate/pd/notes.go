package pd

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// notes are the composition's assumptions, each as the report prints it.
func (e *evaluator) notes(r *Report) []string {
	out := []string{
		"P/D composition: each pool is modelled as a colocated deployment of its own (its memory, step model and simulator); the prefill pool serves prompts that produce one token (max_tokens 1, as the router sends them), the decode pool requests that arrive with their KV and cost one token's compute to admit (like a prefix-cache hit of the whole prompt); decode runs with no prefill beside it",
		closedLoopNote(),
		"decode admission is the simulator's wait from a request's arrival on the decode pool to its first scheduled step (a free slot, then the next step boundary: up to one decode step when the pool is not full); the pull's handshake on a pair's first request is not modelled",
		fmt.Sprintf("TTFT = prefill queue + prefill + router hops (%d × the inter-node latency; the router's own processing is not modelled) + KV transfer + decode admission + the first decode step, and both pools' API servers; its percentiles assume the two pools' waits independent (their distributions convolved)", e.path.Hops),
		e.transferNote(),
		"NIXL transfers share the NICs with DeepEP's all-to-all traffic of both pools: that contention is not modelled (the transfer time is a lower bound on NICs busy with all-to-all)",
		"the P/D composition has no fitted constant and is not calibrated against any published P/D run: against published/pd.yaml's runs (gpt-oss-120b on H100 and H200, Llama-3.1-70B FP8 on B200; docs/calibration-pd.md) its throughput is within ±30% on all but one of the gpt-oss runs (−32%) and up to 52% low on B200 runs whose decode engines had no KV connector (the step model's B200 FP8 prompt is 2.5× slower than those runs imply), and its TPOT and TTFT miss by up to 4× (replayed as the clients ran them: finite runs, burst_requests), as the colocated model misses the same sources' colocated runs or more; SLO bands are those of the decode pool's colocated class",
	}
	if e.path.Kind != spec.RouterKindVLLM {
		out = append(out, e.path.note())
	}
	w := e.dec.in.Workload
	if e.pool > 0 {
		out = append(out, fmt.Sprintf("finite run (burst_requests %d, %s): as a benchmark client runs it, every session starting at t=0 and every request counted; the prefill pool runs it from t=0 (its first round a staircase of prompts queued in the token budget), the decode pool the same run with its first requests spread over the time the prefill pool takes to prefill the first round (sessions ÷ its capacity), each later one back after the steady loop's prefill and hand-off; TTFT and TPOT are every request's, throughput is over the whole run (ramp-up and ramp-down included)", w.BurstRequests, e.loadText()))
	}
	if r := e.pre.hitRate; r > 0 {
		n := max(1, w.InputTokens)
		c := e.pre.uncached(n)
		out = append(out, fmt.Sprintf("prefix cache hit rate %g (workload.prefix_cache_hit_rate, vLLM's prefix caching on): the prefill pool's engines find the first %d tokens of a %d-token prompt cached and compute %d (whole blocks, at most the prompt less its last token), their cached blocks still counted against each request's KV; the decode pool reads the whole prompt's KV (whether its engine holds the prefix too is not assumed: the hand-off is priced whole)", r, n-c, n, c))
	}
	if e.clientCap > 0 {
		out = append(out, fmt.Sprintf("client cap: at most %d requests in flight end to end (--max-concurrency with a request rate); a request arriving with the cap full waits in the client, and that wait is in no latency. Arrivals faster than %d closed-loop sessions sustain run as that closed loop; slower ones as the open loop with each pool's simulation capped at %d less the requests the rest of the system holds on average (Little's law): the other pool's fluctuations are not seen, so next to the closed loop's regime TTFT comes out low (on an exactly solvable queue: down to −11%%, and +4%% further above, where ignoring the cap errs by +11%% to +83%%)", e.clientCap, e.clientCap, e.clientCap))
	}
	if len(r.Scenarios) == 0 {
		out = append(out, "no simulation: a pool's KV cache holds no block")
		return out
	}
	s := r.Scenarios[0]
	if e.recompute {
		out = append(out, "the decode engines have no KV connector (launched without --kv-transfer-config): vLLM never acts on the prefill's kv_transfer_params ("+vllm.NoConnectorSource()+"), so each decode engine computes every prompt again beside its decodes (simulated on the colocated path) and no KV moves; the first decode step is that prompt's own steps, the TPOT carries their interference, and the prefill pool's work is spent for nothing",
			"the prefill pool's finished blocks are never read: each prefill rank holds them until vLLM's abort timeout (or lease) frees them; the KV that holds, and any prefill stall it causes, is not modelled")
	} else {
		out = append(out, s.Transfer.describe())
		if h := s.Transfer.describeHandoff(); h != "" {
			out = append(out, h)
		}
	}
	if !s.DecodeSimulated {
		out = append(out, fmt.Sprintf("the decode pool's %d lock-step ranks per instance are more than the simulator runs one by one: its figures are steady decoding's (perf.DecodeAt), not simulated percentiles", e.dec.DP))
	}
	if s.LoopQueueS > 0 {
		out = append(out, fmt.Sprintf("decode admission by Little's law: the decode pool runs %d requests at once at these lengths, and its simulation holds at most two per slot, so it ran the loop's %d sessions as the Poisson stream at their rate (and the prefill pool likewise when its simulation could not hold them); the sessions neither in prefill, the hand-off nor decoding wait for a decode slot, %.3g s each on average (rate × (TTFT + (output − 1) × TPOT) = sessions); that wait is taken as the same for every request (the percentiles shift by it; their spread is the Poisson run's queue at that rate, wider than a closed loop's first-come wait for a slot)",
			s.DecodeSlots, s.Sessions, s.LoopQueueS))
	}
	if !s.Lease.Fits {
		out = append(out, fmt.Sprintf("KV lease risk: each prefill rank holds %.1f finished prompts until the decode pool has pulled them (%.0f tokens with a full prefill step) but its KV cache holds %d tokens: prefills stall, or the lease expires and the decoder reads freed blocks",
			s.Lease.HeldRequests, s.Lease.NeededTokens, s.Lease.KVTokensPerRank))
	}
	if s.Truncated {
		out = append(out, "a pool's simulation reached its work ceiling before it measured enough requests: its figures are of the run's first stretch")
	}
	return out
}

// loadText is the load the scenarios run.
func (e *evaluator) loadText() string {
	if e.rate > 0 {
		t := slo.ArrivalsText(e.rate, e.pre.in.Workload.ArrivalBurstiness, " requests/s")
		if e.clientCap > 0 {
			t += fmt.Sprintf(", at most %d in flight", e.clientCap)
		}
		return t
	}
	if e.pool > 0 {
		return fmt.Sprintf("at most %d in flight", e.sessions)
	}
	return fmt.Sprintf("%d closed-loop sessions", e.sessions)
}

// nixlTransferNote is how NixlConnector's hand-off is priced.
const nixlTransferNote = "KV transfer: NIXL moves a request's whole KV after its prefill (not layer by layer), over the inter-node NICs of the pools' nodes (NVLink when they share one), fairly shared between the transfers in flight (mean time = alone ÷ (1 − NIC utilisation)); every attention layer is counted full (no sliding-window clipping) and a draft model's KV is not moved"

// transferNote says which semantics priced the hand-off: NixlConnector's
// (the note it always had), or the connector's (UseConnectorSemantics,
// connectorTransfer), whose details the transfer's own line gives.
func (e *evaluator) transferNote() string {
	h := e.handoff
	if e.recompute || h.Connector == "" || h.Connector == vllm.NixlConnectorName {
		return nixlTransferNote
	}
	switch {
	case !UseConnectorSemantics:
		return nixlTransferNote + "; the deployment's connector is " + h.Connector + ", priced as NixlConnector (UseConnectorSemantics off)"
	case !h.Known() || h.UCX:
		return nixlTransferNote + "; the deployment's connector is " + h.Connector + ", priced as NixlConnector's hand-off (the transfer line says why)"
	case h.LayerWise == vllm.Present:
		return fmt.Sprintf("KV transfer: %s sends a request's KV layer by layer during its prefill (%s, %s): TTFT carries only what the sends do not hide behind the forward (the transfer line gives the overlap); every attention layer is counted full (no sliding-window clipping) and a draft model's KV is not moved", h.Connector, h.Direction, h.Transport)
	}
	return fmt.Sprintf("KV transfer: %s moves a request's whole KV after its prefill (%s, %s) at the link's line rate, fairly shared between the transfers in flight (mean time = alone ÷ (1 − NIC utilisation)); every attention layer is counted full (no sliding-window clipping) and a draft model's KV is not moved", h.Connector, h.Direction, h.Transport)
}

// closedLoopNote says how a closed loop's pools are simulated
// (UseDecodeTimeAway).
func closedLoopNote() string {
	if UseDecodeTimeAway {
		return "closed loop: each pool is simulated as a closed loop of all the sessions, each back after its mean time away from it (the prefill pool's: router hops, KV transfer and the decode pool; the decode pool's: the prefill pool, hops, transfer and the wait to notice it), so the loop holds Little's law, rate × (TTFT + (output − 1) × TPOT) = sessions; when prefill binds, it runs as a closed loop of the sessions not decoding when its simulation cannot run them all"
	}
	return "closed loop: the decode pool is simulated with the sessions that are decoding and the prefill pool as a closed loop of all the sessions, each back after its mean time away (router hops, KV transfer, decode pool); when prefill binds, it runs as a closed loop of the sessions not decoding and decode as a closed loop of all the sessions, each back after its mean prefill and hand-off"
}
