package pd

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// The replay of published/pd.yaml's rows: each row becomes the spec a
// user would write for it (RowSpec), is evaluated by the P/D model as
// check evaluates it (EvaluateRow) and read as the figures the source
// published (PredictRow). TestCalibrationPD (replay_test.go, which
// regenerates docs/calibration-pd.md) and vlaunch calibrate's published
// check (calibrate/pdpublished.go) both replay the rows through these, so
// the two cannot drift apart. Published rows are inputs here, as they are
// to estimate/replay: package published knows nothing of specs.

// nodeLines writes one node per engine instance of gpus GPUs, named
// prefix0, prefix1, …, and returns their names.
func nodeLines(b *strings.Builder, prefix string, instances, gpus int, ip *int) []string {
	var names []string
	for i := range instances {
		name := fmt.Sprintf("%s%d", prefix, i)
		names = append(names, name)
		fmt.Fprintf(b, "    - {name: %s, address: 10.0.0.%d, gpus: %d}\n", name, *ip, gpus)
		*ip++
	}
	return names
}

// header is a row's spec up to its nodes: the catalog model in the
// weights the source served (FP8 where it served an FP8 checkpoint of a
// BF16 catalog model; otherwise what the checkpoint ships), the GPU.
func header(r published.PDRow, name string) *strings.Builder {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: vlaunch/v1\nkind: Deployment\nmetadata: {name: %s}\n", name)
	fmt.Fprintf(&b, "model: {name: %s, weights: %s, path: /models/x}\n", r.Model.Catalog, replayWeights(r))
	fmt.Fprintf(&b, "hardware:\n  gpu: %s\n  nodes:\n", r.Hardware.GPU)
	return &b
}

// instanceNICs is the NICs an engine instance of gpus GPUs owns on the
// row's nodes: its share of the whole node's (an instance on half a node's
// GPUs owns half its NICs, at least one), 0 where the row states no NICs
// (check's default fabric then, per pool: interNode).
func instanceNICs(h published.PDHardware, gpus int) int {
	if !h.NICsPerNode.Positive() || !h.InterNodeGbitPerNIC.Positive() || !h.GPUsPerNode.Positive() {
		return 0
	}
	return max(1, h.NICsPerNode.Int()*gpus/h.GPUsPerNode.Int())
}

// footer is a row's spec after its nodes: the NICs of a node of
// gpusPerInstance GPUs (instanceNICs), the client's load (a closed loop,
// or a rate with the arrival process the source's client drew:
// ClientArrivals), the release. Where the source
// gives no NICs, pools on different nodes get check's default fabric (no
// network section, as a user's spec without one) and pools sharing a node
// one 100 Gbit/s NIC, which nothing crosses. The P/D spec passes the
// decode instance's GPUs (a spec has one network section for every node);
// EvaluateRow then gives each pool its own instances' NICs (rowNICs), and
// no pool of these rows spans nodes, so no all-to-all or TP traffic
// crosses them.
func footer(b *strings.Builder, r published.PDRow, gpusPerInstance int) {
	h := r.Hardware
	switch {
	case instanceNICs(h, gpusPerInstance) > 0:
		nics := instanceNICs(h, gpusPerInstance)
		fmt.Fprintf(b, "  network:\n    inter_node: {kind: %s, bandwidth_gbit_per_s: %g, nics_per_node: %d, latency_us: 2}\n", fabricKind(h), h.InterNodeGbitPerNIC.V, nics)
	case h.SameNode.V:
		fmt.Fprintf(b, "  network:\n    inter_node: {kind: %s, bandwidth_gbit_per_s: 100, nics_per_node: 1, latency_us: 2}\n", fabricKind(h))
	}
	if RateLoad(r) {
		fmt.Fprintf(b, "workload: {arrival_rate_per_s: %g, input_tokens: %d, output_tokens: %d", r.Load.RequestRatePerS.V, r.Workload.InputTokens.Int(), r.Workload.OutputTokens.Int())
		if a := ClientArrivals[r.Source]; a.Burstiness != 1 {
			fmt.Fprintf(b, ", arrival_burstiness: %g", a.Burstiness)
		}
	} else {
		fmt.Fprintf(b, "workload: {concurrency: %d, input_tokens: %d, output_tokens: %d", r.Load.Concurrency.Int(), r.Workload.InputTokens.Int(), r.Workload.OutputTokens.Int())
	}
	if f := r.Decode.Features.MaxModelLen; f.Positive() {
		fmt.Fprintf(b, ", max_model_len: %d", f.Int())
	}
	if r.Workload.API == published.APICompletions {
		// check assumes the chat endpoint (its 0.11.0 template parse).
		b.WriteString(", api: completions")
	}
	fmt.Fprintf(b, "}\nvllm: {version: %q", r.Engine.Version)
	if bs := r.Decode.BlockSize; bs.Positive() {
		fmt.Fprintf(b, ", block_size: %d", bs.Int())
	}
	if r.Model.KVCacheDType == "fp8" {
		b.WriteString(", kv_cache_dtype: fp8")
	}
	b.WriteString("}\nruntime: {kind: bare}\n")
}

// replayWeights is the spec's model.weights for a row: fp8 where the
// source served FP8 weights, else auto (the checkpoint's own: gpt-oss's
// MXFP4).
func replayWeights(r published.PDRow) string {
	if r.Model.Weights == "fp8" {
		return "fp8"
	}
	return "auto"
}

// poolEngine is a pool's engine settings the source set apart from the
// release's defaults (gpu_memory_utilization, max_num_batched_tokens, eager
// mode), as the pool's vllm block; "" when it set none.
func poolEngine(f published.Features) string {
	var kv []string
	if u := f.GPUMemoryUtilization; u.Positive() {
		kv = append(kv, fmt.Sprintf("gpu_memory_utilization: %g", u.V))
	}
	if t := f.MaxNumBatchedTokens; t.Positive() {
		kv = append(kv, fmt.Sprintf("max_num_batched_tokens: %d", t.Int()))
	}
	if g := f.CUDAGraphs; g.Known && !g.V { // the source ran --enforce-eager
		kv = append(kv, "enforce_eager: true")
	}
	if len(kv) == 0 {
		return ""
	}
	return "{" + strings.Join(kv, ", ") + "}"
}

// Arrivals is the arrival process a source's rate client drew, as
// workload.arrival_burstiness: the gamma shape of its gaps (1: Poisson),
// and where the client's code says so.
type Arrivals struct {
	Burstiness float64
	Why        string
}

// ClientArrivals maps every source with rate rows to the process its
// client really ran, read in the client's code (TestClientArrivalsKnown:
// no rate row without one). A row's load.kind does not say it:
// constant-rate stands for both entries below, and they differ.
var ClientArrivals = map[string]Arrivals{
	// llm-d's harness runs inference-perf with load type constant, whose
	// ConstantLoadTimer draws its gaps from an exponential distribution
	// of mean 1/rate and rescales them to sum to the stage's duration
	// (kubernetes-sigs/inference-perf inference_perf/loadgen/
	// load_timer.py: intervals = self._rand.exponential(1 / self._rate,
	// num_requests), normalized to self._duration; exponential since
	// 7424b86 of 2025-03-22, which every release tag v0.1.0–v0.6.1
	// contains, rescaled since 603fe14 of 2025-11-18, the same at
	// 7de5ef2e of 2026-08-19; load_generator.py get_timer gives
	// every load type but poisson and trace replay a ConstantLoadTimer,
	// one for the whole stage): a Poisson process conditioned on its
	// count, so Poisson gaps, not the fixed interval the class's
	// docstring ("a constant rate ... a small amount of random noise")
	// and pd.yaml's notes describe. B = 1: as replayed before.
	"llm-d-pd-guide":     {1, "inference-perf load type constant: exponential gaps rescaled to the stage's duration (load_timer.py ConstantLoadTimer)"},
	"llm-d-pd-multitier": {1, "the llm-d-pd-guide profile (guide_pd-disaggregation_1.yaml): inference-perf load type constant, Poisson gaps"},
	// The reviewer's client was vLLM's benchmarks/benchmark_serving.py
	// --request-rate 3.6 --burstiness 100 (pd.yaml, the source's notes),
	// whose get_request sleeps np.random.gamma(shape=burstiness,
	// scale=1/(request_rate*burstiness)) between requests
	// (vllm-project/vllm benchmarks/benchmark_serving.py at 0049e29c, a
	// stored version: the same draw as vllm/benchmarks/serve.py at
	// def9ce85 and 009e6d4a, sim.Config.Burstiness): gaps of 278 ms with a
	// standard deviation of 10%.
	"vllm-pr-18242-p2pnccl": {100, "vllm benchmark_serving.py --burstiness 100: gamma gaps of shape 100 (get_request)"},
}

// RateLoad reports whether the row's client sent requests at a rate
// (Poisson or constant) rather than from a closed loop of sessions.
func RateLoad(r published.PDRow) bool {
	return r.Load.Kind == published.LoadPoisson || r.Load.Kind == published.LoadConstantRate
}

// RowSpec is the P/D deployment published/pd.yaml's row r describes, as
// a user would write it: each pool instance on a node of its own holding
// the instance's GPUs, the release, the closed loop. sameNode is the row's
// pools sharing one node (the KV then moves within it; spec validation
// refuses one node name in both pools, so the nodes stay apart and
// Evaluate is told). With finite, the client's closed loop is the finite
// run of its requests it was (where the row states them: ClientRun; the
// P/D model's finite mode, pd.Evaluate with workload.burst_requests);
// without, check's steady state (what the replay ran before December
// 2026).
func RowSpec(r published.PDRow, finite bool) (y string, sameNode bool) {
	b := header(r, r.ID)
	ip := 10
	names := map[string][]string{}
	pools := map[string]published.PDPool{spec.RolePrefill: r.Prefill, spec.RoleDecode: r.Decode}
	for _, role := range spec.Roles {
		p := pools[role]
		names[role] = nodeLines(b, role[:1], p.Instances.Int(), p.GPUs()/p.Instances.Int(), &ip)
	}
	footer(b, r, r.Decode.GPUs()/r.Decode.Instances.Int())
	name, _ := RowConnector(r)
	fmt.Fprintf(b, "disaggregation:\n  connector: %s\n", name)
	for _, role := range spec.Roles {
		p := pools[role]
		fmt.Fprintf(b, "  %s:\n    instances: %d\n    nodes: [%s]\n    parallelism: {tensor: %d, pipeline: %d, data: %d, expert: %t}\n",
			role, p.Instances.Int(), strings.Join(names[role], ", "), p.TP.Int(), p.PP.Int(), p.DP.Int(), p.EP.Int() > 1)
		if e := poolEngine(p.Features); e != "" {
			fmt.Fprintf(b, "    vllm: %s\n", e)
		}
	}
	y = b.String()
	if n, ok := ClientRun(r); finite && ok {
		y = strings.Replace(y, "workload: {", fmt.Sprintf("workload: {burst_requests: %d, ", n), 1)
	}
	return y, r.Hardware.SameNode.V
}

// RowColocatedSpec is the row's colocated baseline as a spec: its instances
// as replicas, each on a node of its own, under the client's run as it
// went (ClientRun).
// With finite, the client's closed loop is replayed as a
// finite run of its requests (finite: workload.burst_requests, the
// sessions all starting at t=0 as vllm bench serve's --max-concurrency
// and genai-perf's --concurrency start them) or as check's steady state
// (its sessions staggered over a request's duration, the warm-up
// discarded: what the replay ran before December 2026).
func RowColocatedSpec(r published.PDRow, finite bool) string {
	c := r.Colocated
	b := header(r, r.ID+"-colocated")
	ip := 10
	per := c.TP.Int() * c.PP.Int() * c.DP.Int()
	nodeLines(b, "n", c.Instances.Int(), per, &ip)
	footer(b, r, per)
	fmt.Fprintf(b, "parallelism: {tensor: %d, pipeline: %d, data: %d, expert: %t, replicas: %d}\n", c.TP.Int(), c.PP.Int(), c.DP.Int(), c.EP.Int() > 1, c.Instances.Int())
	y := b.String()
	if n, ok := ClientRun(r); finite && ok {
		y = strings.Replace(y, "workload: {", fmt.Sprintf("workload: {burst_requests: %d, ", n), 1)
	}
	return y
}

// ClientRun is the number of requests a row's closed-loop client sent in
// its measured run (load.num_prompts: vllm bench serve's --num-prompts,
// genai-perf's --request-count), and whether the row states it; rate
// loads (a constant rate for minutes) are replayed as the steady open
// loop they approach.
func ClientRun(r published.PDRow) (int, bool) {
	n := r.Load.NumPrompts
	return n.Int(), !RateLoad(r) && n.Positive()
}

// RowRouter is the router kind whose path a row's run took: llm-d's
// for the llm-d router's runs, else the default, the vLLM router's. The
// Ray Serve PD proxy's path (the Anyscale rows) is modelled as that
// default, not as its own: its hops are read (ray-project/ray
// python/ray/llm/_internal/serve/deployments/prefill_decode_disagg/
// prefill_decode_disagg.py at 00951ddc: Serve's HTTP proxy → the LLMRouter
// ingress replica → a PDProxyServer replica, whose _predict calls the
// prefill LLMServer through a DeploymentHandle with max_tokens 1, merges
// its stream, then streams the decode LLMServer's chunks back through the
// same replicas), but no measured cost of one such handle hop with an LLM
// request's payload is known: Ray Serve's release microbenchmarks time an
// HTTP request to one no-op replica (p50 2.2 ms, ray-project/ray#55900;
// 3.6 ms on a laptop, #47430), and ray-project/ray#59681 a whole colocated
// Ray Serve LLM path against bare vLLM (+20 ms mean TTFT at 10 sessions),
// neither a per-hop figure of the P/D path, so no term is invented.
func RowRouter(r published.PDRow) string {
	if strings.HasPrefix(r.Router, "llm-d router") {
		return spec.RouterKindLLMD
	}
	return ""
}

// RowPrediction is what the model gives for one run. Unbounded marks an open
// loop above what some part of the model serves: no TTFT, and the rate
// served is the smallest capacity (RequestsPerS).
type RowPrediction struct {
	TTFTMean, TTFTP50, TPOTMean, OutTokPerS, RequestsPerS, E2EMean float64
	Unbounded                                                      bool
}

// ClientCounted puts a prediction in the client's output tokens where the
// client counted more tokens per request than the engine generated (the
// row's output_tokens_mean above the out the engine produced at most):
// inference-perf counts by re-tokenizing the streamed text, so its output
// tok/s is requests/s × its count and its TPOT divides the same time
// between the first and last chunk by its count less one. TTFT, request
// rate and request latency do not depend on the count.
func ClientCounted(p RowPrediction, r published.PDRow, out int) RowPrediction {
	m := r.Workload.OutputTokensMean
	if !m.Positive() || m.V <= float64(out) || out < 2 {
		return p
	}
	p.TPOTMean *= float64(out-1) / (m.V - 1)
	if !p.Unbounded {
		p.OutTokPerS = p.RequestsPerS * m.V
	}
	return p
}

// fabricKind is the spec's inter_node kind for the source's NICs: EFA is
// neither InfiniBand nor RoCE (UCX reaches it through SRD, for which no
// cost per NIXL descriptor is measured), so it is written as ethernet;
// RoCE as roce; anything else as infiniband.
func fabricKind(h published.PDHardware) string {
	switch t := strings.ToLower(h.InterNode); {
	case strings.Contains(t, "efa"):
		return "ethernet"
	case strings.Contains(t, "roce"):
		return "roce"
	}
	return "infiniband"
}

// EvaluateRow runs row r's pools (resolved from RowSpec's spec) through
// the P/D model: pd.Evaluate on the row's router path and node sharing
// (EvaluateConnector with the row's own connector where it ran another
// than NIXL: RowConnector), or EvaluateDecodeRecomputes where the source's decode engines ran
// without a KV connector (decode.kv_connector none).
//
// A rate row whose client also capped the requests in flight (RowClientCap)
// is replayed capped (EvaluateCapped's composition); a row whose client
// sent prompts the engines had cached from the sweep's earlier runs is
// replayed with that reuse (RowPromptReuse).
func EvaluateRow(r published.PDRow, pre, dec *input.Input, opt slo.Options) (Report, []slo.Verdict) {
	h := vllm.NixlHandoff()
	if name, extra := RowConnector(r); name != "nixl" {
		h = HandoffOf(name, extra, dec)
	}
	recompute := r.Decode.NoConnector()
	if recompute {
		h = vllm.KVHandoff{}
	}
	reuse := RowPromptReuse(r, memory.Estimate(pre).KVTokensPerRank, memory.Estimate(dec).KVTokensPerRank)
	if UsePoolNICs {
		pre, dec = rowNICs(r, pre, dec)
	}
	return evaluatePD(pre, dec, r.Hardware.SameNode.V, RowRouter(r), recompute, h, RowClientCap(r), reuse, opt)
}

// UsePoolNICs gives each pool of a row on separate nodes its own
// instances' NICs (rowNICs); false prices both pools at the decode
// instance's, the one network section RowSpec writes (as before December
// 2026: the GKE row's one-GPU prefill instances then sent over 4 NICs
// each, though an A3 Ultra gives each H200 one).
var UsePoolNICs = true

// rowNICs is pre and dec each with its own instances' share of the row's
// NICs (instanceNICs), where the pools sit on nodes of their own and the
// row states the NICs: a spec has one hardware.network for every node, so
// RowSpec can only write one pool's (footer: the decode instance's), and a
// row whose pools differ in GPUs per instance (8 × TP1 prefill, 2 × TP4
// decode) would give the smaller one the larger one's NICs. The inputs
// are copies; pools sharing a node, or a row without NICs, keep theirs
// (check's default fabric is already per pool: interNode).
func rowNICs(r published.PDRow, pre, dec *input.Input) (*input.Input, *input.Input) {
	if r.Hardware.SameNode.V {
		return pre, dec
	}
	own := func(in *input.Input, p published.PDPool) *input.Input {
		n := instanceNICs(r.Hardware, p.GPUs()/max(1, p.Instances.Int()))
		if n <= 0 || n == in.Network.NICsPerNode {
			return in
		}
		c := *in
		c.Network.NICsPerNode = n
		return &c
	}
	return own(pre, r.Prefill), own(dec, r.Decode)
}

// RowClientCap is the cap on requests in flight of a row whose client sent
// requests at a rate and held them to load.concurrency in flight (vllm
// bench serve --request-rate R --max-concurrency C: the row's load states
// both), 0 for every other row. No row of published/pd.yaml states both
// when written: vLLM's benchmark_serving.py ran --request-rate 3.6
// --burstiness 100 without --max-concurrency, and inference-perf's per-
// worker cap (worker_max_concurrency, 100 by default, times num_workers,
// the CPU count by default) is not stated by the llm-d sources
// (docs/calibration-pd.md, "Client caps").
func RowClientCap(r published.PDRow) int {
	if RateLoad(r) && r.Load.Concurrency.Positive() {
		return r.Load.Concurrency.Int()
	}
	return 0
}

// PredictRow reads the figures the row publishes from rep, EvaluateRow's
// report: the scenario of the row's input length, an open loop the model
// cannot serve as unbounded (its rate the smallest capacity, TTFT and
// request latency infinite), then in the client's own token count
// (ClientCounted). An error says the model gave no scenario, or a closed
// loop came out unbounded (which the P/D model should never give).
func PredictRow(r published.PDRow, rep *Report) (RowPrediction, *Scenario, error) {
	s := rep.Scenario(r.Workload.InputTokens.Int())
	if s == nil {
		return RowPrediction{}, nil, fmt.Errorf("%s: no scenario (KV per rank: prefill %d, decode %d)", r.ID, rep.Prefill.KVTokensPerRank, rep.Decode.KVTokensPerRank)
	}
	p := RowPrediction{TTFTMean: s.TTFT.Mean, TTFTP50: s.TTFT.P50, TPOTMean: s.TPOT.Mean, OutTokPerS: s.OutputTokPerS, RequestsPerS: s.RequestsPerS}
	if s.Unbounded {
		if !RateLoad(r) {
			return p, s, fmt.Errorf("%s: a closed loop came out unbounded", r.ID)
		}
		p.Unbounded = true
		p.RequestsPerS = min(s.RatePerS, rep.Prefill.CapacityPerS, rep.Decode.CapacityPerS)
		if s.Transfer.MaxRatePerS > 0 {
			p.RequestsPerS = min(p.RequestsPerS, s.Transfer.MaxRatePerS)
		}
		p.OutTokPerS = p.RequestsPerS * float64(s.OutputTokens)
		p.TTFTMean, p.TTFTP50 = math.Inf(1), math.Inf(1)
	}
	p.E2EMean = p.TTFTMean + float64(s.OutputTokens-1)*p.TPOTMean
	return ClientCounted(p, r, s.OutputTokens), s, nil
}

// RowConnector is the KV connector a row's run used, as the spec names
// it, and its kv_connector_extra_config as far as the row records it
// (published.PDRow.Connector: the registry name, then the transport and
// mode in parentheses): "nixl" for NixlConnector and for a name vLLM
// registers none of. A spec may name any registered connector
// (resolve.AssembleDisaggregated takes it; validate's SPEC127 refuses to
// write bundles for the ones the generator does not write, a rule of the
// generator, not of the model): vllm-pr-18242-p2pnccl is replayed with
// P2pNcclConnector and the send_type its commands set (PUT_ASYNC), priced
// by its semantics (UseConnectorSemantics).
func RowConnector(r published.PDRow) (string, map[string]string) {
	name, _, _ := strings.Cut(strings.TrimSpace(r.Connector), " ")
	c, ok := vllm.KVConnectorNamed(name)
	if !ok || c.Name == vllm.NixlConnectorName {
		return "nixl", nil
	}
	extra := map[string]string{}
	for _, st := range []string{vllm.P2pNcclPutAsync, vllm.P2pNcclGet, vllm.P2pNcclPut} { // PUT_ASYNC before PUT
		if c.Name == "P2pNcclConnector" && strings.Contains(r.Connector, st) {
			extra["send_type"] = st
			break
		}
	}
	return c.Name, extra
}
