// Package pd models a prefill/decode disaggregated deployment for `vlaunch
// check` (issue #24) from the colocated models only: each pool is a
// colocated deployment of its own (memory.Estimate, perf's step model,
// the simulator), the prefill pool fed prompts that produce one token, the
// decode pool requests that arrive with their KV; the KV hand-off between
// them is sized from memory's KV layout and the inter-node network. The
// composition (pool simulations in tandem, TTFT as the sum of its parts)
// has no fitted constant; it is compared with published P/D runs
// (published/pd.yaml, docs/calibration-pd.md, replay_test.go) and its
// invariants are property tests (properties_test.go). SLO verdicts take
// the decode pool's band class.
package pd

import (
	"sync"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Report is the `disaggregated` section of a check report.
type Report struct {
	Prefill Pool `json:"prefill"`
	Decode  Pool `json:"decode"`
	// Scenarios are the workload's input length, then every other input
	// length an SLO names.
	Scenarios []Scenario `json:"scenarios"`
	// Colocated is the same GPUs run colocated (set by the caller).
	Colocated *Colocated `json:"colocated,omitempty"`
	// DecodeRecomputes marks a decode pool whose engines run without a KV
	// connector (EvaluateDecodeRecomputes): each computes every prompt
	// itself, and no KV moves.
	DecodeRecomputes bool `json:"decode_recomputes,omitempty"`
	// PromptReuse is the share of requests whose prompt each pool's prefix
	// cache held (a replayed client that repeats prompts: RowPromptReuse;
	// nil for check, which assumes every prompt new).
	PromptReuse *PromptReuse `json:"prompt_reuse,omitempty"`
	// Notes are the composition's assumptions, in words.
	Notes []string `json:"notes"`
}

// Colocated is the comparison: the same nodes run as one colocated
// deployment, through check's colocated path.
type Colocated struct {
	// Layout describes it and the engine settings it runs ("TP1 PP1 DP32 EP
	// × 1 on 32 GPUs, the spec's top-level engine settings and those both
	// pools share (…)": resolve.Deployment.Colocated).
	Layout string `json:"layout"`
	// Error says why there is none ("" when there is).
	Error         string  `json:"error,omitempty"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	TTFTP50S      float64 `json:"ttft_p50_s"`
	TTFTP99S      float64 `json:"ttft_p99_s"`
	TPOTMeanS     float64 `json:"tpot_mean_s"`
	// Unbounded marks an open loop above the colocated deployment's capacity.
	Unbounded bool `json:"unbounded,omitempty"`
	// SLO are its verdicts.
	SLO []slo.Verdict `json:"slo,omitempty"`
}

// Scenario returns the scenario of input length n (nil: none).
func (r *Report) Scenario(n int) *Scenario {
	for i := range r.Scenarios {
		if r.Scenarios[i].InputTokens == n {
			return &r.Scenarios[i]
		}
	}
	return nil
}

// evaluator is what every scenario shares.
type evaluator struct {
	pre, dec *Pool
	sameNode bool
	hopS     float64
	path     RouterPath
	sessions int
	rate     float64
	// pool > 0 is a finite run of that many requests
	// (workload.burst_requests): the sessions start at t=0 and every
	// request counts (evaluator.finite).
	pool int
	seed uint64
	// recompute: the decode engines have no KV connector (Report.DecodeRecomputes).
	recompute bool
	// handoff is the connector's hand-off (vllm.KVHandoffOf; NixlConnector's
	// for Evaluate), priced by connectorTransfer.
	handoff vllm.KVHandoff
	// memo shares decode runs between evaluations (slo.Options.Memo);
	// decIn, the decode pool's input as given, names the pool in its keys.
	memo  *sim.Memo
	decIn *input.Input
	// clientCap, with a rate, is the client's cap on requests in flight
	// (EvaluateCapped: --max-concurrency with a finite --request-rate);
	// preCap and decCap are the slots each pool's simulation gets in the
	// capped pass (cappedScenario), 0 none.
	clientCap, preCap, decCap int
}

// syncLoad reports a connector whose decode engine loads the KV inside the
// forward that schedules the request (UseConnectorSemantics).
func (e *evaluator) syncLoad() bool {
	return UseConnectorSemantics && e.handoff.Known() && e.handoff.SyncLoad
}

// HandoffOf is the hand-off of the connector named connector (the
// registry's name or its short form) between pools whose decode pool's
// input is dec: vllm.KVHandoffOf in dec's release with dec's environment
// (MoRIIO's read mode) and kv_connector_extra_config extra (nil: vlaunch
// writes none). check, plan, calibrate and the published rows' replay all
// price a connector through it.
func HandoffOf(connector string, extra map[string]string, dec *input.Input) vllm.KVHandoff {
	return vllm.KVHandoffOf(connector, dec.Release().Version, extra, dec.Env)
}

// Evaluate models the deployment whose prefill pool's input is pre and
// decode pool's dec (input.FromResolved of each resolve.Role); sameNode
// says the pools share a node (the KV moves over NVLink); router is the
// router kind (resolve.Router.Kind), whose path (PathOf) adds its hops to
// TTFT. It returns the
// section and the SLO verdicts, judged as colocated check judges them with
// the decode pool's band class.
func Evaluate(pre, dec *input.Input, sameNode bool, router string, opt slo.Options) (Report, []slo.Verdict) {
	return evaluatePD(pre, dec, sameNode, router, false, vllm.NixlHandoff(), 0, PromptReuse{}, opt)
}

// EvaluateConnector is Evaluate for pools joined by the connector whose
// hand-off is h (vllm.KVHandoffOf of the spec's disaggregation.connector):
// priced as UseConnectorSemantics says. Evaluate is EvaluateConnector with
// NixlConnector's, what vlaunch writes.
func EvaluateConnector(pre, dec *input.Input, sameNode bool, router string, h vllm.KVHandoff, opt slo.Options) (Report, []slo.Verdict) {
	return evaluatePD(pre, dec, sameNode, router, false, h, 0, PromptReuse{}, opt)
}

// EvaluateCapped is EvaluateConnector for an open loop (workload.
// arrival_rate_per_s) whose client holds at most clientCap requests in
// flight, as vllm bench serve's --max-concurrency with a finite
// --request-rate does (sim.Config.ClientCap): a request that arrives with
// clientCap in flight waits in the client's queue, is sent when one
// finishes, and its TTFT and end-to-end latency start at that send. How
// the two pools share the cap: cappedScenario. clientCap ≤ 0, or a closed
// loop, is EvaluateConnector.
func EvaluateCapped(pre, dec *input.Input, sameNode bool, router string, h vllm.KVHandoff, clientCap int, opt slo.Options) (Report, []slo.Verdict) {
	return evaluatePD(pre, dec, sameNode, router, false, h, clientCap, PromptReuse{}, opt)
}

// EvaluateDecodeRecomputes is Evaluate for a deployment whose decode
// engines were launched without --kv-transfer-config while the router
// still sends every request through a prefill instance first (as a
// Dynamo decode worker started without one: Dynamo adds no connector of
// its own since 1.0, and its decode handler passes the prefill's
// kv_transfer_params to an engine that has none to act on them). vLLM
// creates a scheduler's KV connector only from a kv_transfer_config
// (vllm.Release.NoConnectorRecomputes), so such an engine computes each
// prompt again, beside its decodes, as a
// colocated engine does (simRecompute); the prefill pool's work is spent
// and its blocks are never read. vlaunch never writes such a deployment
// (every pool gets the connector); this models one found in the wild.
func EvaluateDecodeRecomputes(pre, dec *input.Input, sameNode bool, router string, opt slo.Options) (Report, []slo.Verdict) {
	return evaluatePD(pre, dec, sameNode, router, true, vllm.KVHandoff{}, 0, PromptReuse{}, opt)
}

// evaluatePD is every Evaluate's composition; reuse is the client's
// prompts the pools' prefix caches already hold (the replay's rows only:
// RowPromptReuse; zero for check).
func evaluatePD(pre, dec *input.Input, sameNode bool, router string, recompute bool, h vllm.KVHandoff, clientCap int, reuse PromptReuse, opt slo.Options) (Report, []slo.Verdict) {
	r := Report{}
	e := newEvaluator(&r, pre, dec, sameNode, router, recompute, h, clientCap, opt)
	if UsePromptReuse && (reuse.Prefill > 0 || reuse.Decode > 0) {
		r.Prefill.reuse, r.Decode.reuse = reuse.Prefill, reuse.Decode
		r.PromptReuse = &reuse
	}
	lengths := spec.ScenarioInputLengths(dec.Workload, dec.SLO)
	r.Scenarios = make([]Scenario, len(lengths))
	if r.Prefill.KVTokensPerRank > 0 && r.Decode.KVTokensPerRank > 0 {
		var wg sync.WaitGroup
		for i, n := range lengths {
			wg.Go(func() { r.Scenarios[i] = e.scenario(n) })
		}
		wg.Wait()
	} else {
		r.Scenarios = nil
	}
	if len(r.Scenarios) > 0 {
		r.Prefill.Utilization, r.Decode.Utilization = r.Scenarios[0].PrefillUtilization, r.Scenarios[0].DecodeUtilization
		n, out := r.Scenarios[0].InputTokens, r.Scenarios[0].OutputTokens
		r.Prefill.CapacityPerS = r.Prefill.prefillCapacity(n)
		r.Prefill.CapacityBasis = "every rank's steps full of max_num_batched_tokens prompt tokens"
		r.Decode.CapacityPerS = e.decodeCapacity(n, out)
		r.Decode.CapacityBasis = "every rank's batch full (max_num_seqs or what its KV cache holds), decoding at the mean context"
		if recompute {
			r.Decode.CapacityBasis = "each request's prompt (steps full of max_num_batched_tokens prompt tokens) and its decoding (every rank's batch full, at the mean context) one after the other"
		}
	}
	r.Notes = e.notes(&r)
	return r, verdicts(dec, &r)
}

// newEvaluator fills r's pools (pre's run with one output token: the
// router sends max_tokens 1 to prefill) and returns the evaluator of
// their scenarios under dec's workload.
func newEvaluator(r *Report, pre, dec *input.Input, sameNode bool, router string, recompute bool, h vllm.KVHandoff, clientCap int, opt slo.Options) *evaluator {
	pIn := *pre
	pIn.Workload.OutputTokens = 1
	*r = Report{Prefill: newPool(spec.RolePrefill, &pIn), Decode: newPool(spec.RoleDecode, dec), DecodeRecomputes: recompute}
	_, _, lat := interNode(dec)
	e := &evaluator{pre: &r.Prefill, dec: &r.Decode, sameNode: sameNode, hopS: lat, path: PathOf(router), seed: opt.Seed, recompute: recompute, handoff: h,
		memo: opt.Memo, decIn: dec}
	w := dec.Workload
	switch {
	case w.ArrivalRatePerS > 0:
		e.rate = w.ArrivalRatePerS
	case w.BurstRequests > 0 && w.Concurrency <= 0:
		e.sessions = w.BurstRequests
	case w.BurstRequests > 0:
		e.sessions = min(w.Concurrency, w.BurstRequests)
	default:
		e.sessions = max(1, w.Concurrency)
	}
	e.pool = max(0, w.BurstRequests)
	if e.rate > 0 {
		e.clientCap = max(0, clientCap)
	}
	return e
}
