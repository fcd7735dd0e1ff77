package calibrate

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// A prefill/decode disaggregated deployment (a spec with a disaggregation
// block) is calibrated through the P/D model `vlaunch check` uses, and no
// other: each result is predicted by pd.Evaluate on the spec's two pools,
// with the result's request shape and load as the workload, and with the
// constants of the fit's candidate handed to both pools as a calibration
// file (the way check --calibration hands one to them: cmd/vlaunch's
// checkPD). The measured figures are the client's through the router:
// output throughput (the decode pool's tokens over the run), TPOT (the
// decode pool's) and TTFT (router receipt to the first token out of the
// decode pool: prefill queue and prompt, router hops, KV transfer, decode
// admission and first step), median where recorded, else mean.
//
// Loads: a closed loop of C sessions and N prompts is the P/D model's
// finite run (workload.burst_requests N at concurrency C: every session
// starting at t=0 and every request counted, as vllm bench serve runs
// it), a burst its finite run with no cap, Poisson arrivals its finite run
// at that rate, gamma arrivals its finite run at that rate with the
// client's burstiness (workload.arrival_burstiness), and arrivals held by
// the client's --max-concurrency its finite run at that rate under the
// P/D model's client cap (pd.EvaluateCapped: the client's wait in no
// latency; arrivals faster than the cap's closed loop sustains run as
// that closed loop). The prompts are
// capped as the colocated replay caps them (maxSimRequests).
//
// Cost: one P/D evaluation simulates both pools (two to four simulations,
// each replicated three times) for every result, so a P/D fit is bounded
// to pdMaxEvals evaluations unless Options.MaxEvals asks for another bound
// (the requests are capped as the colocated path caps them).

// pdMaxEvals bounds a P/D fit's evaluations (fitter.Options.MaxEvals) when
// Options.MaxEvals does not. Measured on examples/gpt-oss-120b-pd-1node-
// 8xh100.yaml with Anyscale's conc8 and conc32 results (cmd/vlaunch/
// testdata/script/calibrate_pd.txtar), on the project's shared 2-core
// machine: a fit that reaches the tolerance stops after 277 evaluations,
// 12.5 s of CPU (22 s wall under load), the published check included; with
// a figure the model cannot reach the fitter's own default (1500) ran 1,227
// evaluations in 129 s, about 0.1 s each, where this bound stops at 22 s.
const pdMaxEvals = 300

// PoolGPUsError refuses a calibration of a P/D deployment whose pools run
// on different GPU kinds: a calibration file holds one set of constants,
// the efficiencies of one GPU, and the results' figures mix both pools'
// GPUs (TTFT is mostly the prefill pool's, TPOT the decode pool's), so a
// fit would describe neither.
type PoolGPUsError struct{ Prefill, Decode string }

func (e *PoolGPUsError) Error() string {
	return fmt.Sprintf("the prefill pool runs on %s and the decode pool on %s: one calibration file describes one GPU, and the results' figures mix both pools'; calibrate each GPU on a deployment of its own", e.Prefill, e.Decode)
}

// pdScenario is the P/D model's prediction of one result.
type pdScenario = pd.Scenario

// pdReplay is one benchmark result set up for the P/D model.
type pdReplay struct {
	pre, dec input.Input // the pools with the result's workload
	sameNode bool
	router   string
	// handoff is the hand-off of the connector the spec names
	// (pd.HandoffOf, as check prices it).
	handoff vllm.KVHandoff
	n       int // the input length: the scenario read
	// clientCap is the client's --max-concurrency over a rate (bench.
	// LoadCapped; 0: none), replayed by pd.EvaluateCapped.
	clientCap int
}

// pdPools are the deployment's prefill and decode pools as check reads
// them, each with the deployment's calibration (checkPD's rule).
func pdPools(dep *resolve.Deployment) (pre, dec input.Input, err error) {
	var found [2]bool
	for _, r := range dep.PD.Roles {
		d := *r.Deployment
		d.Calibration = dep.Calibration
		switch r.Name {
		case spec.RolePrefill:
			pre, found[0] = input.FromResolved(&d), true
		case spec.RoleDecode:
			dec, found[1] = input.FromResolved(&d), true
		}
	}
	if !found[0] || !found[1] {
		return pre, dec, fmt.Errorf("the disaggregated deployment needs a prefill and a decode pool")
	}
	return pre, dec, nil
}

// sameGPU reports whether two pools run on one GPU kind: the same catalog
// GPU, or the same figures (a custom GPU).
func sameGPU(a, b *catalog.GPU) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a == b || *a == *b
}

// gpuName is a pool's GPU as messages name it.
func gpuName(in *input.Input) string {
	switch {
	case in.GPU == nil:
		return "no GPU"
	case in.GPU.ID == "":
		return in.GPU.Name
	}
	return in.GPU.ID
}

// checkPDDeployment refuses what a P/D calibration cannot describe: a pool
// whose layout is left to `parallelism: auto`, pools on different GPUs.
func checkPDDeployment(dep *resolve.Deployment) (pre, dec input.Input, err error) {
	for _, r := range dep.PD.Roles {
		if r.Deployment.Layout.Auto {
			return pre, dec, fmt.Errorf("the %s pool's layout is left to `parallelism: auto`: give the layout the benchmarks ran with", r.Name)
		}
	}
	if pre, dec, err = pdPools(dep); err != nil {
		return pre, dec, err
	}
	if !sameGPU(pre.GPU, dec.GPU) {
		return pre, dec, &PoolGPUsError{Prefill: gpuName(&pre), Decode: gpuName(&dec)}
	}
	return pre, dec, nil
}

// newPDReplay prepares r's prediction on the P/D deployment, or says why
// the P/D model cannot replay it.
func newPDReplay(dep *resolve.Deployment, pre, dec input.Input, r *bench.Result) (*pdReplay, error) {
	var w spec.Workload
	clientCap := 0
	n := min(r.Load.Prompts, maxSimRequests(r.Load))
	switch r.Load.Kind {
	case bench.LoadOther:
		return nil, fmt.Errorf("%s", r.Load)
	case bench.LoadGamma:
		// The prefill pool draws the client's gamma gaps
		// (workload.arrival_burstiness), as check runs such a spec.
		w.ArrivalRatePerS, w.ArrivalBurstiness = r.Load.RatePerS, r.Load.Burstiness
	case bench.LoadCapped:
		// A capped rate whose arrivals all come at once is read as the
		// closed loop it is by package bench (instantArrivals); what stays
		// capped was held back by the client over the run: the P/D
		// model's capped open loop (pd.EvaluateCapped), the client's
		// queue in no latency, as the colocated replay runs it
		// (sim.Config.ClientCap).
		w.ArrivalRatePerS, w.ArrivalBurstiness, clientCap = r.Load.RatePerS, r.Load.Burstiness, r.Load.Concurrency
	case bench.LoadClosedLoop:
		w.Concurrency = r.Load.Concurrency
	case bench.LoadPoisson:
		w.ArrivalRatePerS = r.Load.RatePerS
	}
	if n < 1 {
		return nil, fmt.Errorf("the run records no prompts sent")
	}
	w.BurstRequests = n
	inTok, outTok := int(math.Round(r.Shape.InputTokens)), int(math.Round(r.Shape.OutputTokens))
	if inTok < 1 || outTok < 1 {
		return nil, fmt.Errorf("requests of %d input and %d output tokens cannot be simulated", inTok, outTok)
	}
	w.InputTokens, w.OutputTokens = inTok, outTok
	p := &pdReplay{sameNode: dep.PD.SameNode(), router: dep.PD.Router.Kind, n: inTok, clientCap: clientCap}
	for _, pool := range []struct {
		name string
		in   *input.Input
		dst  *input.Input
	}{{spec.RolePrefill, &pre, &p.pre}, {spec.RoleDecode, &dec, &p.dec}} {
		in := *pool.in
		if r.SpecAcceptance > 0 {
			if in.Speculative == nil {
				return nil, fmt.Errorf("speculative decoding ran (acceptance length %.2f), but the spec's %s pool does not enable it (vllm.speculative)", r.SpecAcceptance, pool.name)
			}
			in.Speculative = in.Speculative.WithAcceptance(r.SpecAcceptance, "the benchmark result's acceptance length")
		}
		if in.MaxModelLen > 0 && inTok+outTok > in.MaxModelLen {
			return nil, fmt.Errorf("requests of %d + %d tokens exceed the %s pool's max_model_len %d", inTok, outTok, pool.name, in.MaxModelLen)
		}
		wl := in.Workload
		wl.InputTokens, wl.OutputTokens = w.InputTokens, w.OutputTokens
		wl.Concurrency, wl.ArrivalRatePerS, wl.ArrivalBurstiness, wl.BurstRequests = w.Concurrency, w.ArrivalRatePerS, w.ArrivalBurstiness, w.BurstRequests
		in.Workload = wl
		in.SLO = spec.SLO{} // one scenario: the result's input length
		if estimate.Memory(&in).KVTokensPerRank <= 0 {
			return nil, fmt.Errorf("the %s pool has no KV cache left in the spec's memory budget", pool.name)
		}
		*pool.dst = in
	}
	p.handoff = pd.HandoffOf(dep.PD.Connector.Name, nil, &p.dec)
	return p, nil
}

// calibrationOf is a calibration file holding eff's constants: what
// check --calibration hands both pools, so the P/D model reads eff
// exactly as it reads a fitted file (perf.ConstantsFor).
func calibrationOf(eff perf.Efficiency) resolve.Calibration {
	f := &calfile.File{Schema: calfile.Schema, Constants: make(map[string]float64, len(calfile.Constants))}
	for _, c := range calfile.Constants {
		if p := eff.Field(c.Name); p != nil {
			f.Constants[c.Name] = *p
		}
	}
	return resolve.Calibration{File: f, Source: "the fit's candidate constants"}
}

// scenario predicts the result with the constants eff through the P/D
// model with the spec's connector's hand-off (check's);
// ok is false when the model gives no scenario (a pool without KV).
func (p *pdReplay) scenario(eff perf.Efficiency) (pd.Scenario, bool) {
	pre, dec := p.pre, p.dec
	pre.Calibration, dec.Calibration = calibrationOf(eff), calibrationOf(eff)
	rep, _ := pd.EvaluateCapped(&pre, &dec, p.sameNode, p.router, p.handoff, p.clientCap, slo.Options{Seed: replaySeed})
	s := rep.Scenario(p.n)
	if s == nil {
		return pd.Scenario{}, false
	}
	return *s, true
}

// run is the scenario as the figures a target reads: an open loop the
// model cannot serve (Unbounded) has no figure.
func (p *pdReplay) run(eff perf.Efficiency) sim.Result {
	s, ok := p.scenario(eff)
	if !ok || s.Unbounded {
		return sim.Result{Stalled: true}
	}
	return sim.Result{Requests: s.Burst, TTFT: s.TTFT, TPOT: s.TPOT, OutputTokPerS: s.OutputTokPerS, TotalTokPerS: s.TotalTokPerS}
}

// binds says what binds a target's figure in the P/D model's scenario s:
// the request rate's binding for throughput, the decode pool for TPOT,
// TTFT's parts by pool.
func binds(t target, s pd.Scenario) string {
	switch t.metric {
	case Throughput:
		return pd.RateExplanation(&s) // check's own wording of what sets the rate
	case TPOT:
		return "the decode pool's (no prefill beside its decodes)"
	}
	p := s.TTFTParts
	parts := []struct {
		name string
		v    float64
	}{
		{"prefill pool", p.PrefillQueueS + p.PrefillS},
		{"decode pool", p.DecodeAdmitS + p.FirstDecodeS},
		{"KV hand-off", p.RouterS + p.TransferS},
		{"API servers", p.FrontendS},
	}
	var b strings.Builder
	top := 0
	for i, x := range parts {
		if x.v > parts[top].v {
			top = i
		}
	}
	fmt.Fprintf(&b, "mostly the %s: mean %.0f ms = prefill pool %.0f (queue %.0f)", parts[top].name, 1e3*p.Sum(), 1e3*parts[0].v, 1e3*p.PrefillQueueS)
	fmt.Fprintf(&b, " + KV hand-off %.0f + decode pool %.0f + API servers %.0f", 1e3*parts[2].v, 1e3*parts[1].v, 1e3*parts[3].v)
	return b.String()
}

// pdSummary describes a P/D deployment in one line.
func pdSummary(d *resolve.Deployment) string {
	gpu := "?"
	if d.GPU != nil {
		gpu = d.GPU.ID
	}
	var pools []string
	gpus := 0
	for _, r := range d.PD.Roles {
		l := r.Deployment.Layout
		ep := ""
		if l.EP {
			ep = " EP"
		}
		pools = append(pools, fmt.Sprintf("%s %d × TP%d PP%d DP%d%s", r.Name, l.ReplicaCount(), l.TP, l.PP, l.DP, ep))
		gpus += l.TotalGPUs()
	}
	return fmt.Sprintf("%s on %d × %s, P/D disaggregated (%s), vLLM %s", d.ModelSource, gpus, gpu, strings.Join(pools, ", "), d.Version.Value)
}

// pdShapeText is shapeText for the P/D model, which replays every request
// at the means (its pools' simulations have no length spread).
func pdShapeText(s bench.Shape) string {
	t := fmt.Sprintf("%.0f in / %.0f out tokens", s.InputTokens, s.OutputTokens)
	if s.InputCVKnown || s.OutputCVKnown || lengthSpread(s) != (sim.Spread{}) {
		return t + " (every request at the means: the P/D model has no length spread)"
	}
	return t + " (every request at the means: per-request lengths not saved)"
}
