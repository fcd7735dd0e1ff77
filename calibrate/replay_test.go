package calibrate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestConstantsMapToTheModel: every constant a calibration file may set is
// a field of perf.Efficiency, and every field can be set (one list).
func TestConstantsMapToTheModel(t *testing.T) {
	var e perf.Efficiency
	for _, c := range calfile.Constants {
		if e.Field(c.Name) == nil {
			t.Errorf("calfile.Constants has %q, perf.Efficiency has no such field", c.Name)
		}
	}
	// The constants are Efficiency's float64 fields; the others (Kernels:
	// measurements, perf.ForGPU; PackedMXFP4: the release's kernel choice,
	// perf.ForRelease) are not constants a file sets.
	n := 0
	for i, ty := 0, reflect.TypeOf(e); i < ty.NumField(); i++ {
		if ty.Field(i).Type.Kind() == reflect.Float64 {
			n++
		}
	}
	if n != len(calfile.Constants) {
		t.Errorf("perf.Efficiency has %d constant fields, calfile.Constants %d names", n, len(calfile.Constants))
	}
	d := perf.DefaultEfficiency
	for _, c := range calfile.Constants {
		if v := *d.Field(c.Name); v < c.Lower || v > c.Upper {
			t.Errorf("global %s = %g is outside its calibration range [%g, %g]", c.Name, v, c.Lower, c.Upper)
		}
	}
}

// TestReplayLoads: each load becomes the simulation of the finite run the
// client ran (workload.burst_requests: its prompts, capped by
// maxSimRequests): a pool of requests for every kind, open loops included
// (an open loop replayed without one kept its arrivals coming and
// predicted a steady state: qa/realin40's 09-reasoning run).
func TestReplayLoads(t *testing.T) {
	in := input.FromResolved(gpustackCluster(t))
	shape := bench.Shape{InputTokens: 1000.4, OutputTokens: 199.6}
	for _, c := range []struct {
		load                     bench.Load
		sessions, pool, requests int
		rate                     float64
		burstiness               float64
		clientCap                int
	}{
		{bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 4, Prompts: 100}, 4, 100, 100, 0, 0, 0},
		{bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 4, Prompts: 5000}, 4, 200, 200, 0, 0, 0},
		{bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 64, Prompts: 5000}, 64, 2048, 2048, 0, 0, 0},
		{bench.Load{Kind: bench.LoadBurst, Prompts: 500}, 500, 500, 500, 0, 0, 0},
		{bench.Load{Kind: bench.LoadPoisson, RatePerS: 3, Prompts: 800}, 0, 800, 800, 3, 0, 0},
		{bench.Load{Kind: bench.LoadGamma, RatePerS: 3, Burstiness: 0.5, Prompts: 800}, 0, 800, 800, 3, 0.5, 0},
		{bench.Load{Kind: bench.LoadCapped, RatePerS: 3, Concurrency: 16, Prompts: 5000}, 0, 2000, 2000, 3, 0, 16},
		{bench.Load{Kind: bench.LoadCapped, RatePerS: 3, Concurrency: 16, Burstiness: 2, Prompts: 800}, 0, 800, 800, 3, 2, 16},
	} {
		p, err := newReplay(in, &bench.Result{Load: c.load, Shape: shape})
		if err != nil {
			t.Errorf("%s: %v", c.load, err)
			continue
		}
		g := p.cfg
		if g.Sessions != c.sessions || g.Pool != c.pool || g.Requests != c.requests || g.ArrivalRatePerS != c.rate ||
			g.Burstiness != c.burstiness || g.ClientCap != c.clientCap || g.InputTokens != 1000 || g.OutputTokens != 200 || g.Warmup != 0 || g.KVTokensPerRank <= 0 {
			t.Errorf("%s: sessions %d pool %d requests %d rate %g burstiness %g cap %d shape %d/%d warmup %d kv %d", c.load, g.Sessions, g.Pool, g.Requests,
				g.ArrivalRatePerS, g.Burstiness, g.ClientCap, g.InputTokens, g.OutputTokens, g.Warmup, g.KVTokensPerRank)
		}
		if w := p.in.Workload; w.BurstRequests != c.pool {
			t.Errorf("%s: replayed workload.burst_requests %d, want %d", c.load, w.BurstRequests, c.pool)
		}
		if note := cutNote(p, c.load); (note != "") != (c.pool < c.load.Prompts) {
			t.Errorf("%s: cut note %q", c.load, note)
		}
	}
}

// TestReplayRefuses: runs the deployment cannot reproduce are left out
// with the reason.
func TestReplayRefuses(t *testing.T) {
	in := input.FromResolved(gpustackCluster(t))
	ok := bench.Load{Kind: bench.LoadBurst, Prompts: 10}
	for _, c := range []struct {
		r    bench.Result
		want string
	}{
		{bench.Result{Load: bench.Load{Kind: bench.LoadOther, Unsupported: "the request rate ramps up"}, Shape: bench.Shape{InputTokens: 10, OutputTokens: 10}}, "the request rate ramps up"},
		{bench.Result{Load: ok, Shape: bench.Shape{InputTokens: 200000, OutputTokens: 10}}, "exceed the spec's max_model_len"},
		{bench.Result{Load: ok, Shape: bench.Shape{InputTokens: 10, OutputTokens: 10}, SpecAcceptance: 1.8}, "speculative decoding"},
		{bench.Result{Load: ok, Shape: bench.Shape{InputTokens: 10, OutputTokens: 0.2}}, "cannot be simulated"},
	} {
		if _, err := newReplay(in, &c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestReplaySpeculative: a result that ran speculative decoding replays on
// a spec that enables it, with the result's acceptance length.
func TestReplaySpeculative(t *testing.T) {
	d := gpustackCluster(t)
	r, _, _, err := resolve.Release(d.Version.Value)
	if err != nil {
		t.Fatal(err)
	}
	d.Engine.Speculative = &resolve.Speculative{Method: resolve.SpecMTP, VLLMMethod: r.Speculative().MTPMethod, NumTokens: 1}
	in := input.FromResolved(d)
	p, err := newReplay(in, &bench.Result{Load: bench.Load{Kind: bench.LoadBurst, Prompts: 10}, Shape: bench.Shape{InputTokens: 100, OutputTokens: 100}, SpecAcceptance: 1.7})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.in.Speculative; s.Acceptance.Value != 1.7 || s.PerPosition <= 0.69 || s.PerPosition >= 0.71 {
		t.Errorf("replayed speculation %+v", s)
	}
}
