package calibrate

import (
	"errors"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// pdExample is the P/D example matching Anyscale's "pack" runs
// (published/pd.yaml anyscale-h100-pack-p1tp4-d1tp4-*): gpt-oss-120b,
// one TP 4 prefill and one TP 4 decode instance on one 8 × H100 node,
// vLLM 0.11.0.
func pdExample(t *testing.T) *resolve.Deployment {
	t.Helper()
	r, ds, err := validate.File("../examples/gpt-oss-120b-pd-1node-8xh100.yaml")
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	if r.PD == nil {
		t.Fatal("the example is not disaggregated")
	}
	return r
}

// anyscaleC8 is the figures of anyscale-h100-pack-p1tp4-d1tp4-c8
// (published/pd.yaml; bm_results/gptoss_itl5000_otl250_mixed_pack_p1xtp4-
// d1xtp4/conc8.json at anyscale/ray-serve-llm-perf-examples@04ba8ab40727)
// under load l: 5,000 input and 250 output tokens.
func anyscaleC8(name string, l bench.Load) bench.Result {
	return bench.Result{Source: name, Model: "openai/gpt-oss-120b", Load: l,
		Shape:         bench.Shape{InputTokens: 5000, OutputTokens: 250},
		OutputTokPerS: 1059.0,
		TTFT:          bench.Stat{"mean": 210.3, "median": 187.5},
		TPOT:          bench.Stat{"mean": 6.515, "median": 6.537}}
}

// evaluateByHand is what check's P/D model (pd.Evaluate) predicts for the
// example under workload w, with the constants eff handed to both pools
// as a calibration file: the test's own reading of the P/D path, from the
// resolved pools, for calibrate's to match.
//
// clientCap > 0 is the client's --max-concurrency over the rate
// (pd.EvaluateCapped; 0: pd.Evaluate's composition).
func evaluateByHand(t *testing.T, d *resolve.Deployment, w spec.Workload, eff perf.Efficiency, clientCap ...int) pd.Scenario {
	t.Helper()
	var pre, dec input.Input
	for _, r := range d.PD.Roles {
		in := input.FromResolved(r.Deployment)
		in.Workload.InputTokens, in.Workload.OutputTokens = w.InputTokens, w.OutputTokens
		in.Workload.Concurrency, in.Workload.ArrivalRatePerS, in.Workload.BurstRequests = w.Concurrency, w.ArrivalRatePerS, w.BurstRequests
		in.Workload.ArrivalBurstiness = w.ArrivalBurstiness
		in.SLO = spec.SLO{}
		in.Calibration = calibrationOf(eff)
		if r.Name == spec.RolePrefill {
			pre = in
		} else {
			dec = in
		}
	}
	rep, _ := pd.Evaluate(&pre, &dec, d.PD.SameNode(), d.PD.Router.Kind, slo.Options{Seed: replaySeed})
	if len(clientCap) > 0 && clientCap[0] > 0 {
		rep, _ = pd.EvaluateCapped(&pre, &dec, d.PD.SameNode(), d.PD.Router.Kind, vllm.NixlHandoff(), clientCap[0], slo.Options{Seed: replaySeed})
	}
	s := rep.Scenario(w.InputTokens)
	if s == nil {
		t.Fatalf("no scenario for %+v", w)
	}
	return *s
}

// TestPDReplayIsCheckModel: a result replayed on a P/D spec is predicted
// exactly as check's P/D model (pd.Evaluate) predicts the same workload —
// for each load the P/D model replays, under the global constants and
// under other ones (so the candidate constants reach both pools). A
// calibrate that used the colocated simulator, or a second P/D model,
// fails it.
func TestPDReplayIsCheckModel(t *testing.T) {
	d := pdExample(t)
	slow := perf.DefaultEfficiency
	slow.MultiprocStepS *= 2 // the host's step cost (both pools' engines are TP 4)
	for _, c := range []struct {
		name string
		load bench.Load
		w    spec.Workload // the workload the P/D model is given
		cap  int           // the client cap it is given (pd.EvaluateCapped)
	}{
		// vllm bench serve --max-concurrency 8 --num-prompts 40: the
		// P/D model's finite run of 40 requests at concurrency 8.
		{"closed loop", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40}, spec.Workload{Concurrency: 8, BurstRequests: 40}, 0},
		// (Anyscale's own form of it, --request-rate 1e9 under
		// --max-concurrency 8, reaches calibrate as this closed loop:
		// package bench reads arrivals that all come at once so.)
		{"burst", bench.Load{Kind: bench.LoadBurst, Prompts: 24}, spec.Workload{BurstRequests: 24}, 0},
		{"poisson", bench.Load{Kind: bench.LoadPoisson, RatePerS: 2, Prompts: 60}, spec.Workload{ArrivalRatePerS: 2, BurstRequests: 60}, 0},
		// vllm bench serve --burstiness 0.5: the prefill pool draws the
		// client's gamma gaps (workload.arrival_burstiness).
		{"gamma", bench.Load{Kind: bench.LoadGamma, RatePerS: 2, Burstiness: 0.5, Prompts: 60}, spec.Workload{ArrivalRatePerS: 2, ArrivalBurstiness: 0.5, BurstRequests: 60}, 0},
		// vllm bench serve --request-rate 2 --max-concurrency 8: the
		// P/D model's finite run at that rate under its client cap
		// (pd.EvaluateCapped; refused before: "no client cap"), and
		// --request-rate 6 --max-concurrency 4, arrivals faster than 4
		// sessions sustain: the closed loop of 4.
		{"capped", bench.Load{Kind: bench.LoadCapped, RatePerS: 2, Concurrency: 8, Prompts: 40}, spec.Workload{ArrivalRatePerS: 2, BurstRequests: 40}, 8},
		{"capped closed", bench.Load{Kind: bench.LoadCapped, RatePerS: 6, Concurrency: 4, Prompts: 40}, spec.Workload{ArrivalRatePerS: 6, BurstRequests: 40}, 4},
	} {
		r := anyscaleC8(c.name, c.load)
		rep, err := Compare(d, []bench.Result{r}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Results[0].NotUsed != "" {
			t.Fatalf("%s: not used: %s", c.name, rep.Results[0].NotUsed)
		}
		c.w.InputTokens, c.w.OutputTokens = 5000, 250
		want := evaluateByHand(t, d, c.w, perf.DefaultEfficiency, c.cap)
		if want.ClientCap != c.cap {
			t.Errorf("%s: the scenario records a client cap of %d, want %d", c.name, want.ClientCap, c.cap)
		}
		if c.name == "capped closed" && !want.CapClosedLoop {
			t.Errorf("%s: 6 arrivals/s under a cap of 4 not replayed as the closed loop of 4 (%.2f requests/s)", c.name, want.RequestsPerS)
		}
		byMetric := map[string]float64{"output tok/s": want.OutputTokPerS, "TPOT median (ms)": want.TPOT.P50 * 1e3, "TTFT median (ms)": want.TTFT.P50 * 1e3}
		if len(rep.Targets) != 3 {
			t.Fatalf("%s: %d targets, want 3", c.name, len(rep.Targets))
		}
		for _, tr := range rep.Targets {
			if w := byMetric[tr.Metric]; !(w > 0) || tr.Before != w {
				t.Errorf("%s %s: calibrate predicts %.6g, pd.Evaluate %.6g", c.name, tr.Metric, tr.Before, w)
			}
			if tr.Binds == "" {
				t.Errorf("%s %s: no binding reported", c.name, tr.Metric)
			}
		}
		// Other constants, through the replay the fit calls.
		pre, dec := pools(t, d)
		p, err := newPDReplay(d, pre, dec, &r)
		if err != nil {
			t.Fatal(err)
		}
		got, wantSlow := p.run(slow), evaluateByHand(t, d, c.w, slow, c.cap)
		if got.OutputTokPerS != wantSlow.OutputTokPerS || got.TPOT.P50 != wantSlow.TPOT.P50 || got.TTFT.P50 != wantSlow.TTFT.P50 {
			t.Errorf("%s, step cost doubled: calibrate %.6g tok/s TPOT %.6g TTFT %.6g, pd.Evaluate %.6g / %.6g / %.6g", c.name,
				got.OutputTokPerS, got.TPOT.P50, got.TTFT.P50, wantSlow.OutputTokPerS, wantSlow.TPOT.P50, wantSlow.TTFT.P50)
		}
		if !(wantSlow.TPOT.P50 > want.TPOT.P50) {
			t.Errorf("%s: doubling multiproc_step_s leaves TPOT at %.4g s (was %.4g): the constants do not reach the pools", c.name, wantSlow.TPOT.P50, want.TPOT.P50)
		}
	}
}

// pools are the example's pools as calibrate reads them.
func pools(t *testing.T, d *resolve.Deployment) (pre, dec input.Input) {
	t.Helper()
	pre, dec, err := checkPDDeployment(d)
	if err != nil {
		t.Fatal(err)
	}
	return pre, dec
}

// TestPDPoolsOnDifferentGPUs: a P/D deployment whose pools run on
// different GPUs is refused, by Calibrate and by Compare, with an error
// naming both GPUs (cmd/vlaunch: exit 2), and no constant is fitted.
func TestPDPoolsOnDifferentGPUs(t *testing.T) {
	d := pdExample(t)
	h200, err := catalog.LookupGPU("h200")
	if err != nil {
		t.Fatal(err)
	}
	pd := *d.PD
	pd.Roles = append([]resolve.Role(nil), d.PD.Roles...)
	pre := *pd.Roles[0].Deployment
	pre.GPU = h200
	pd.Roles[0].Deployment = &pre
	mixed := *d
	mixed.PD = &pd
	r := anyscaleC8("conc8.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40})
	for name, f := range map[string]func(*resolve.Deployment, []bench.Result, Options) (*Report, error){"Calibrate": Calibrate, "Compare": Compare} {
		rep, err := f(&mixed, []bench.Result{r}, Options{})
		var ge *PoolGPUsError
		if !errors.As(err, &ge) || ge.Prefill != "h200" || ge.Decode != "h100-sxm" {
			t.Errorf("%s: error %v, want the pools' GPUs named (h200, h100-sxm)", name, err)
		}
		if rep != nil && (len(rep.Constants) > 0 || len(rep.Targets) > 0) {
			t.Errorf("%s: %d constants and %d values reported after the refusal", name, len(rep.Constants), len(rep.Targets))
		}
	}
	// The same pools on one GPU are taken.
	if _, _, err := checkPDDeployment(d); err != nil {
		t.Errorf("the example's pools (both h100-sxm): %v", err)
	}
}

// TestPDReplayRefuses: a result the P/D model cannot replay is shown, not
// used, with the reason; the others are used — arrivals held back by the
// client's cap among them (40 arrivals at 2/s take 20 s, so the cap of 8
// holds real arrivals back: refused as "no client cap" before the P/D
// model had one, pd.EvaluateCapped).
func TestPDReplayRefuses(t *testing.T) {
	d := pdExample(t)
	ok := anyscaleC8("ok.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40})
	capped := anyscaleC8("capped.json", bench.Load{Kind: bench.LoadCapped, RatePerS: 2, Concurrency: 8, Prompts: 40})
	refused := []struct {
		r    bench.Result
		want string
	}{
		{anyscaleC8("ramp.json", bench.Load{Kind: bench.LoadOther, Unsupported: "the request rate ramps up (linear)", Prompts: 40}), "the request rate ramps up"},
		{func() bench.Result {
			r := ok
			r.Source, r.Shape.InputTokens = "long.json", 15900 // + 250 > the example's max_model_len 16000
			return r
		}(), "exceed the prefill pool's max_model_len 16000"},
		{func() bench.Result { r := ok; r.Source, r.SpecAcceptance = "mtp.json", 1.8; return r }(), "the spec's prefill pool does not enable it"},
	}
	results := []bench.Result{ok, capped}
	for _, c := range refused {
		results = append(results, c.r)
	}
	rep, err := Compare(d, results, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Results[0].NotUsed != "" || rep.Results[1].NotUsed != "" || len(rep.used) != 2 {
		t.Fatalf("ok.json, capped.json not used (%q, %q), %d used", rep.Results[0].NotUsed, rep.Results[1].NotUsed, len(rep.used))
	}
	for i, c := range refused {
		if got := rep.Results[i+2].NotUsed; !strings.Contains(got, c.want) {
			t.Errorf("%s: not used %q, want %q", c.r.Source, got, c.want)
		}
	}
}

// TestPDFitBounded: a P/D fit is bounded to pdMaxEvals evaluations of the
// P/D model unless the caller asks otherwise, and a colocated one is left
// to the fitter's default.
func TestPDFitBounded(t *testing.T) {
	if got := (prepared{pd: true}).maxEvals(Options{}); got != pdMaxEvals {
		t.Errorf("P/D default %d, want %d", got, pdMaxEvals)
	}
	if got := (prepared{pd: true}).maxEvals(Options{MaxEvals: 40}); got != 40 {
		t.Errorf("P/D with MaxEvals 40: %d", got)
	}
	if got := (prepared{}).maxEvals(Options{}); got != 0 {
		t.Errorf("colocated default %d, want 0 (the fitter's own)", got)
	}
}

// TestPDReplayPricesTheSpecsConnector: a spec whose pools are joined by
// another connector than NIXL is replayed with that connector's hand-off,
// as check prices it (pd.HandoffOf): P2pNcclConnector's layer-wise push
// on the example (vLLM 0.11.0 has it), whose TTFT differs from NIXL's
// read after the prefill. calibrate priced every hand-off as NIXL's.
func TestPDReplayPricesTheSpecsConnector(t *testing.T) {
	d := pdExample(t)
	c, ok := vllm.KVConnectorNamed("P2pNcclConnector")
	if !ok {
		t.Fatal("no P2pNcclConnector in the registry table")
	}
	p2p := *d.PD
	p2p.Connector = c
	other := *d
	other.PD = &p2p
	r := anyscaleC8("conc8.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40})
	scenario := func(dep *resolve.Deployment) pd.Scenario {
		pre, dec := pools(t, dep)
		p, err := newPDReplay(dep, pre, dec, &r)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := p.scenario(perf.DefaultEfficiency)
		if !ok {
			t.Fatal("no scenario")
		}
		// check's own pricing of the same pools and workload.
		want, _ := pd.EvaluateCapped(&p.pre, &p.dec, dep.PD.SameNode(), dep.PD.Router.Kind, pd.HandoffOf(dep.PD.Connector.Name, nil, &p.dec), 0,
			slo.Options{Seed: replaySeed})
		w := want.Scenario(p.n)
		if w == nil {
			t.Fatal("check's model gives no scenario")
		}
		if w.TTFT.P50 != s.TTFT.P50 || w.Transfer.Connector != s.Transfer.Connector {
			t.Errorf("%s: the replay's TTFT p50 %.6g s (connector %q), check's %.6g s (%q)", dep.PD.Connector.Name, s.TTFT.P50, s.Transfer.Connector, w.TTFT.P50, w.Transfer.Connector)
		}
		return s
	}
	nixl, push := scenario(d), scenario(&other)
	if push.Transfer.Connector != "P2pNcclConnector" {
		t.Errorf("the P2pNccl spec's hand-off is priced as %q, want P2pNcclConnector's", push.Transfer.Connector)
	}
	if push.TTFTParts.TransferS == nixl.TTFTParts.TransferS {
		t.Errorf("the layer-wise push exposes %.6g s of transfer, NIXL's read as much: the connector does not reach the replay", push.TTFTParts.TransferS)
	}
}
