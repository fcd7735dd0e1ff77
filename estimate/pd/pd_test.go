package pd

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// evaluateExample runs Evaluate on the P/D example after edit (nil: as is).
func evaluateExample(t *testing.T, edit func(*spec.Deployment)) (Report, []slo.Verdict) {
	t.Helper()
	d := testinput.ExampleSpec(t, pdExample)
	if edit != nil {
		edit(d)
	}
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	pre, dec := testinput.Pools(t, in.Resolved())
	return Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
}

// The mean TTFT's parts add up to the mean of the composed distribution,
// and every part is a time.
func TestTTFTPartsAddUp(t *testing.T) {
	r, _ := evaluateExample(t, nil)
	if len(r.Scenarios) != 2 {
		t.Fatalf("%d scenarios, want the workload's and the SLO's input lengths", len(r.Scenarios))
	}
	for _, s := range r.Scenarios {
		p := s.TTFTParts
		if math.Abs(p.Sum()-s.TTFT.Mean) > 1e-9*s.TTFT.Mean {
			t.Errorf("input %d: parts add up to %.6f s, TTFT mean %.6f s (%+v)", s.InputTokens, p.Sum(), s.TTFT.Mean, p)
		}
		for name, x := range map[string]float64{"prefill": p.PrefillS, "transfer": p.TransferS, "first decode step": p.FirstDecodeS, "router": p.RouterS} {
			if !(x > 0) || math.IsInf(x, 0) {
				t.Errorf("input %d: %s part %v, want a positive time", s.InputTokens, name, x)
			}
		}
		if !(s.TTFT.P50 <= s.TTFT.P90 && s.TTFT.P90 <= s.TTFT.P95 && s.TTFT.P95 <= s.TTFT.P99) {
			t.Errorf("input %d: TTFT percentiles out of order: %+v", s.InputTokens, s.TTFT)
		}
		if s.TPOT.Mean <= 0 || s.OutputTokPerS <= 0 {
			t.Errorf("input %d: TPOT %v, throughput %v", s.InputTokens, s.TPOT.Mean, s.OutputTokPerS)
		}
	}
}

// The same spec and seed give the same report, to the byte.
func TestEvaluateDeterministic(t *testing.T) {
	a, va := evaluateExample(t, nil)
	b, vb := evaluateExample(t, nil)
	ja, err := json.Marshal(struct {
		R Report
		V []slo.Verdict
	}{a, va})
	if err != nil {
		t.Fatal(err)
	}
	jb, _ := json.Marshal(struct {
		R Report
		V []slo.Verdict
	}{b, vb})
	if string(ja) != string(jb) {
		t.Error("two evaluations of the same spec differ")
	}
}

// resize gives a pool one node (DP 8 over its 8 GPUs) instead of two, on
// B200s (an H20 holds no KV with DeepSeek-V3's experts over 8 GPUs) joined
// by eight 400 Gbit/s NICs per node (over the example's 25 Gbit/s RoCE a
// pool's all-to-all across two nodes is slower than one node alone).
func resize(role string) func(*spec.Deployment) {
	return func(d *spec.Deployment) {
		d.Hardware.GPU = spec.GPURef{Name: "b200"}
		n := &d.Hardware.Network.InterNode
		n.Kind, n.BandwidthGbitPerS, n.NICsPerNode, n.LatencyUs = "infiniband", 400, 8, 2
		p := d.Disaggregation.Pool(role)
		p.Nodes = p.Nodes[:1]
		p.Parallelism.Data = 8
		// Prompts and answers such that the two pools are near balance
		// (shrinking either one binds it), at a rate both sustain.
		d.Workload.InputTokens, d.Workload.OutputTokens = 2048, 1024
		d.Workload.ArrivalRatePerS = 10
		d.SLO.TTFT = nil
	}
}

// Shrinking a pool makes it the one that binds the request rate once the
// arrivals bring it near saturation (BindsAt); below that, no pool binds
// an open loop: its rate is its arrivals'.
func TestBindingFollowsTheSmallerPool(t *testing.T) {
	for _, role := range []string{spec.RolePrefill, spec.RoleDecode} {
		r, _ := evaluateExample(t, resize(role))
		if len(r.Scenarios) == 0 {
			t.Fatalf("%s pool on one node: no scenario (KV tokens per rank: prefill %d, decode %d)", role, r.Prefill.KVTokensPerRank, r.Decode.KVTokensPerRank)
		}
		s := r.Scenarios[0]
		busy := map[string]float64{spec.RolePrefill: s.PrefillUtilization, spec.RoleDecode: s.DecodeUtilization}[role]
		other := map[string]float64{spec.RolePrefill: s.DecodeUtilization, spec.RoleDecode: s.PrefillUtilization}[role]
		if s.Binding != BindArrivals || busy <= other || busy >= BindsAt {
			t.Errorf("%s pool on one node at 10 requests/s: bound by the %s (prefill %.0f%%, decode %.0f%%), want the arrival rate, the %s pool the busier",
				role, s.Binding, 100*s.PrefillUtilization, 100*s.DecodeUtilization, role)
		}
		// The arrivals that bring the shrunk pool to 95% of its capacity
		// (utilisation is the rate over the capacity).
		rate := 10 * 0.95 / busy
		edit := resize(role)
		r, _ = evaluateExample(t, func(d *spec.Deployment) { edit(d); d.Workload.ArrivalRatePerS = rate })
		s = r.Scenarios[0]
		want := map[string]string{spec.RolePrefill: BindPrefill, spec.RoleDecode: BindDecode}[role]
		if s.Binding != want {
			t.Errorf("%s pool on one node at %.1f requests/s: bound by the %s (prefill %.0f%%, decode %.0f%%), want the %s",
				role, rate, s.Binding, 100*s.PrefillUtilization, 100*s.DecodeUtilization, want)
		}
	}
}

// An open loop above the prefill pool's capacity has no bounded TTFT, and
// the TTFT verdicts say so.
func TestOpenLoopAboveCapacity(t *testing.T) {
	r, vs := evaluateExample(t, func(d *spec.Deployment) { d.Workload.ArrivalRatePerS = 50 })
	if s := r.Scenarios[0]; !s.Unbounded || s.TTFT.P50 != 0 {
		t.Errorf("50 requests/s: unbounded %t, TTFT p50 %v", s.Unbounded, s.TTFT.P50)
	}
	for _, v := range vs {
		if v.Unit == "s" && v.Name != "TPOT (mean)" && (!v.Unbounded || v.Verdict != slo.VerdictFail) {
			t.Errorf("%s: %s, unbounded %t", v.Name, v.Verdict, v.Unbounded)
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("report does not marshal: %v", err)
	}
}

// A decode pool too large to simulate rank by rank stands on steady
// decoding: positive, finite figures, TPOT the steady step's.
func TestSteadyDecodeFallback(t *testing.T) {
	in := testinput.Example(t, pdExample)
	_, dec := testinput.Pools(t, in.Resolved())
	p := newPool("decode", &dec)
	for _, l := range []load{{sessions: 200}, {rate: 0.5}} {
		r := steadyDecode(&p, 1024, 1024, l)
		if !(r.TPOT.Mean > 0 && r.OutputTokPerS > 0 && r.TTFT.Mean > 0) || math.IsInf(r.TPOT.Mean, 0) {
			t.Errorf("%+v: TPOT %v, throughput %v, first step %v", l, r.TPOT.Mean, r.OutputTokPerS, r.TTFT.Mean)
		}
	}
}

// A P/D deployment whose pools hold no KV (BF16 weights on H20 at DP 16)
// fails every SLO with the KV capacity as its binding, without a scenario.
func TestNoKVFailsEverySLO(t *testing.T) {
	r, vs := evaluateExample(t, func(d *spec.Deployment) { d.Model.Weights = "bf16" })
	if len(r.Scenarios) != 0 {
		t.Fatalf("%d scenarios without KV", len(r.Scenarios))
	}
	for _, v := range vs {
		if v.Verdict != slo.VerdictFail || v.Binding != slo.BindKV {
			t.Errorf("%s: %s bound by %q", v.Name, v.Verdict, v.Binding)
		}
	}
}
