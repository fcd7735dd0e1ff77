package slo

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// sloInput is Llama-3.1-8B on one H100 with 8 sessions of 1024 in / 256 out.
func sloInput(t *testing.T, dp int) input.Input {
	t.Helper()
	in, ds := input.Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100-sxm", TP: 1, DP: dp, MaxModelLen: 8192, Weights: "bf16", VLLMVersion: "0.11.0"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	in.Workload = spec.Workload{Concurrency: 8 * dp, MaxModelLen: 8192, InputTokens: 1024, OutputTokens: 256}
	in.SLO.ThroughputCounts = "output"
	return in
}

func runPerf(t *testing.T, in input.Input) Prediction {
	t.Helper()
	m := memory.Estimate(&in)
	return Predict(&in, m.KVTokensPerRank, kvSeqsOf(&in, &m), Options{Seed: 1, Requests: 1000})
}

// The same deployment passes a throughput target below what it can do and
// fails one above, bound by HBM (8 sequences of an 8B model decode at the
// weight-read pace), saying how many sessions would reach it.
func TestSLOThroughputVerdicts(t *testing.T) {
	in := sloInput(t, 1)
	in.SLO.ThroughputTokensPerS = 100
	if r := runPerf(t, in); r.SLO[0].Verdict != VerdictPass || !r.Feasible {
		t.Fatalf("100 tok/s should pass: %+v", r.SLO[0])
	}
	in.SLO.ThroughputTokensPerS = 2000
	r := runPerf(t, in)
	v := r.SLO[0]
	if v.Verdict != VerdictFail || r.Feasible || v.Binding != BindMemory {
		t.Fatalf("2000 tok/s should fail, memory-bound: %+v", v)
	}
	if !strings.Contains(strings.Join(v.WouldPass, "\n"), "concurrent sessions") {
		t.Fatalf("no session count in %q", v.WouldPass)
	}
}

// TTFT: a target between the idle prefill time and the loaded percentile is
// a queueing failure; one below the idle prefill time is bound by the
// prefill itself.
func TestSLOTTFTBinding(t *testing.T) {
	in := sloInput(t, 1)
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	idle := sm.PrefillIdle(1024, in.MaxNumBatchedTokens).TTFTS
	// A fifth of the idle prefill: below even the low side of the band
	// (dense TTFT p99 bands are pooled and wide).
	below := idle / 5
	in.SLO.TTFT = []spec.TTFTTarget{{InputTokens: 1024, P99S: &below}}
	r := runPerf(t, in)
	if v := r.SLO[0]; v.Verdict != VerdictFail || v.Binding == BindQueueing {
		t.Fatalf("target below the idle prefill must fail on the prefill itself: %+v", v)
	}
	// Many sessions with short answers: prompts queue behind each other.
	in.Workload.Concurrency, in.Workload.OutputTokens = 64, 8
	p99 := runPerf(t, in).Performance.Simulations[0].Result.TTFT.P99
	if p99 < 3*idle {
		t.Fatalf("expected queueing: p99 %.3f s vs idle %.3f s", p99, idle)
	}
	// The target sits between the idle prefill and the low edge of the
	// prediction's band (below that edge the verdict is a failure, above it
	// uncertain: the dense TTFT p99 band is pooled and wide, ×0.12 at its
	// low side since sglang-cookbook-llama31-a100 joined the holdout).
	loose := p99 * 10
	in.SLO.TTFT[0].P99S = &loose
	b := runPerf(t, in).SLO[0].Band
	if b == nil || !(b.Low > 1.5*idle) {
		t.Fatalf("band %+v: its low edge must clear the idle prefill %.3f s for a queueing failure to exist", b, idle)
	}
	between := idle + (b.Low-idle)/2
	in.SLO.TTFT[0].P99S = &between
	if v := runPerf(t, in).SLO[0]; v.Verdict != VerdictFail || v.Binding != BindQueueing {
		t.Fatalf("target between idle and the band's low edge is queueing: %+v", v)
	}
}

// Dense DP ranks are independent engines: two ranks with twice the
// sessions serve twice the throughput of one.
func TestSLODenseDPIndependent(t *testing.T) {
	one, two := runPerf(t, sloInput(t, 1)), runPerf(t, sloInput(t, 2))
	a, b := one.Performance.Simulations[0].Result.OutputTokPerS, two.Performance.Simulations[0].Result.OutputTokPerS
	if !near(b, 2*a, 0.02) {
		t.Fatalf("DP=2 %.0f tok/s vs DP=1 %.0f", b, a)
	}
}

// near reports a and b equal within the relative tolerance tol.
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(math.Abs(b), 1e-12) }

// check runs both halves of `vlaunch check` on in: the memory model, then
// Evaluate.
func check(in *input.Input, opt Options) Result {
	m := memory.Estimate(in)
	return Evaluate(in, &m, opt)
}

// A band the evidence cannot bound makes the verdict uncertain and says
// why: a legacy release's TTFT rests on too few sources (both sides open),
// however far the target; a current dense deployment's TTFT P99 band is
// bounded, so a target far above it passes and one far below fails.
func TestSLOOpenBand(t *testing.T) {
	in := sloInput(t, 1)
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	idle := sm.PrefillIdle(1024, in.MaxNumBatchedTokens).TTFTS
	loose := 100 * idle
	in.SLO.TTFT = []spec.TTFTTarget{{InputTokens: 1024, P99S: &loose}}
	if v := runPerf(t, in).SLO[0]; v.Verdict != VerdictPass || math.IsInf(v.Band.High, 1) {
		t.Errorf("dense TTFT p99 far above the prediction: want pass within a bounded band, got %s, band %+v", v.Verdict, v.Band)
	}
	tight := idle / 10
	in.SLO.TTFT[0].P99S = &tight
	if v := runPerf(t, in).SLO[0]; v.Verdict != VerdictFail {
		t.Errorf("a target below the band's low side must fail, got %s (%+v)", v.Verdict, v.Band)
	}

	old, ds := input.Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100-sxm", TP: 1, DP: 1, MaxModelLen: 8192, Weights: "bf16", VLLMVersion: "0.7.3"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	old.Workload, old.SLO = in.Workload, in.SLO
	old.SLO.TTFT[0].P99S = &loose
	v := runPerf(t, old).SLO[0]
	if v.Verdict != VerdictUncertain || !strings.Contains(v.BandBasis, "few sources") || v.Band.Low != 0 || !math.IsInf(v.Band.High, 1) {
		t.Errorf("legacy TTFT p99: want uncertain with both sides open for few sources, got %s, band %+v, %q", v.Verdict, v.Band, v.BandBasis)
	}
	if !strings.Contains(v.BandBasis, "because its vLLM release predates the V1 engine's default (0.8)") {
		t.Errorf("legacy band basis does not say why the deployment is legacy: %q", v.BandBasis)
	}

	// A current release on AMD is in the legacy class too, and says it is
	// there for its GPU, not its release (qa43 F6).
	amd, ds := input.Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "mi300x", TP: 1, DP: 1, MaxModelLen: 8192, Weights: "bf16", VLLMVersion: "0.22.1"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	amd.Workload, amd.SLO = in.Workload, in.SLO
	v = runPerf(t, amd).SLO[0]
	if !strings.Contains(v.BandBasis, "legacy deployments (AMD GPUs") || !strings.Contains(v.BandBasis, "because its GPU is AMD") {
		t.Errorf("AMD band basis does not say the class is AMD's: %q", v.BandBasis)
	}
}

// An open side is null in JSON (which has no infinity) and reads back open.
func TestBandRangeJSON(t *testing.T) {
	for _, c := range []struct {
		b    BandRange
		want string
	}{
		{BandRange{Low: 1.5, High: 3}, `{"low":1.5,"high":3}`},
		{BandRange{Low: 1.5, High: math.Inf(1)}, `{"low":1.5,"high":null}`},
		{BandRange{Low: 0, High: math.Inf(1)}, `{"low":null,"high":null}`},
	} {
		data, err := json.Marshal(c.b)
		if err != nil || string(data) != c.want {
			t.Errorf("%+v: %s, %v; want %s", c.b, data, err, c.want)
			continue
		}
		var back BandRange
		if err := json.Unmarshal(data, &back); err != nil || back != c.b {
			t.Errorf("%s read back as %+v, %v", data, back, err)
		}
	}
	var b BandRange
	if err := json.Unmarshal([]byte(`{"low":"x"}`), &b); err == nil {
		t.Error("a malformed band must not read")
	}
}
