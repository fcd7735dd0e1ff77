package pd_test

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/published"
)

// replaySeed is the simulation seed of every replayed row (check's own).
const replaySeed = 1

// pdTolerance is the accepted relative error issue #24 sets (±30%).
const pdTolerance = 0.30

// The row → spec writer, the row's evaluation and the reading of its
// figures live in estimate/pd/published.go (RowSpec, EvaluateRow,
// PredictRow), which vlaunch calibrate's published check shares; the
// names below are this file's for them.
var (
	clientArrivals  = pd.ClientArrivals
	rateLoad        = pd.RateLoad
	clientRun       = pd.ClientRun
	replayRouter    = pd.RowRouter
	clientCounted   = pd.ClientCounted
	replayConnector = pd.RowConnector
)

// predicted is what the model gives for one run (pd.RowPrediction).
type predicted = pd.RowPrediction

// pdSpec is the P/D deployment a row describes, as a user would write it:
// each pool instance on a node of its own holding the instance's GPUs, the
// release, the closed loop. sameNode is the row's pools sharing one node
// (the KV then moves within it; spec validation refuses one node name in
// both pools, so the nodes stay apart and Evaluate is told).
func pdSpec(r published.PDRow) (y string, sameNode bool) { return pdSpecLoad(r, true) }

// pdSpecLoad is pdSpec with the client's closed loop as the finite run of
// its requests it was (finite) or as check's steady state (pd.RowSpec).
func pdSpecLoad(r published.PDRow, finite bool) (y string, sameNode bool) {
	return pd.RowSpec(r, finite)
}

// colocatedSpec is the row's colocated baseline as a spec: its instances
// as replicas, each on a node of its own, under the client's run as it
// went (clientRun).
func colocatedSpec(r published.PDRow) string { return colocatedSpecLoad(r, true) }

// colocatedSpecLoad is colocatedSpec with the client's closed loop as a
// finite run of its requests (finite) or as check's steady state
// (pd.RowColocatedSpec).
func colocatedSpecLoad(r published.PDRow, finite bool) string { return pd.RowColocatedSpec(r, finite) }

// resolveSpec parses, defaults and resolves a spec.
func resolveSpec(t *testing.T, name, y string) input.Input {
	t.Helper()
	return testinput.FromYAML(t, name, y)
}

// replayPD predicts a row's P/D run through pd.Evaluate, check's model,
// under the client's run as it went (pdSpec).
func replayPD(t *testing.T, r published.PDRow) (predicted, pd.Scenario) {
	t.Helper()
	return replayPDLoad(t, r, true)
}

// replayPDLoad is replayPD with the closed loop as the client's finite run
// (finite) or as check's steady state (pdSpecLoad).
func replayPDLoad(t *testing.T, r published.PDRow, finite bool) (predicted, pd.Scenario) {
	t.Helper()
	if a, b := r.Prefill.BlockSize, r.Decode.BlockSize; a.Known != b.Known || a.V != b.V {
		t.Fatalf("%s: the pools' block sizes differ (%s, %s): the replay writes one for both", r.ID, a, b)
	}
	y, _ := pdSpecLoad(r, finite)
	in := resolveSpec(t, r.ID, y)
	pre, dec := testinput.Pools(t, in.Resolved())
	rep, _ := pd.EvaluateRow(r, &pre, &dec, slo.Options{Seed: replaySeed})
	p, s, err := pd.PredictRow(r, &rep)
	if err != nil {
		t.Fatal(err)
	}
	return p, *s
}

// replayColocated predicts the row's colocated baseline through check's
// colocated path.
func replayColocated(t *testing.T, r published.PDRow) predicted {
	t.Helper()
	s := simulateColocated(t, r, true)
	p := predicted{TTFTMean: s.TTFT.Mean, TTFTP50: s.TTFT.P50, TPOTMean: s.TPOT.Mean, OutTokPerS: s.OutputTokPerS,
		RequestsPerS: s.OutputTokPerS / float64(max(1, r.Workload.OutputTokens.Int())), E2EMean: s.E2E.Mean}
	if s.Overloaded {
		// The arrivals outran the engines: the queue, and so TTFT and
		// end-to-end latency, grow without bound.
		p.Unbounded = true
		p.TTFTMean, p.TTFTP50, p.E2EMean = math.Inf(1), math.Inf(1), math.Inf(1)
	}
	return p
}

// simulateColocated runs the row's colocated baseline through check's
// colocated path (colocatedSpecLoad) and returns the simulation of its
// workload's input length.
func simulateColocated(t *testing.T, r published.PDRow, finite bool) sim.Result {
	t.Helper()
	in := resolveSpec(t, r.ID+"-colocated", colocatedSpecLoad(r, finite))
	rep := estimate.Check(&in)
	rep.AddPerformance(&in, estimate.PerfOptions{Seed: replaySeed, NoAdvice: true})
	if rep.Performance == nil || len(rep.Performance.Simulations) == 0 {
		t.Fatalf("%s: the colocated baseline has no simulation", r.ID)
	}
	return rep.Performance.Simulations[0].Result
}

// pdMetrics are the figures compared, in the order the doc lists them.
// TTFT, TPOT and throughput are what issue #24 scores; request rate and
// end-to-end latency are what sources that count output tokens their own
// way (re-tokenised streams) publish reliably.
var pdMetrics = []struct {
	name string
	pub  func(published.Figures) published.Num
	pred func(predicted) float64
}{
	{"TTFT mean (ms)", func(f published.Figures) published.Num { return f.TTFTMs.Mean }, func(p predicted) float64 { return p.TTFTMean * 1e3 }},
	{"TTFT median (ms)", func(f published.Figures) published.Num { return f.TTFTMs.Median }, func(p predicted) float64 { return p.TTFTP50 * 1e3 }},
	{"TPOT mean (ms)", func(f published.Figures) published.Num { return f.TPOTMs.Mean }, func(p predicted) float64 { return p.TPOTMean * 1e3 }},
	{"output tok/s", func(f published.Figures) published.Num { return f.OutputTokPerS }, func(p predicted) float64 { return p.OutTokPerS }},
	{"requests/s", func(f published.Figures) published.Num { return f.RequestPerS }, func(p predicted) float64 { return p.RequestsPerS }},
	{"E2E mean (s)", func(f published.Figures) published.Num { return f.E2ES.Mean }, func(p predicted) float64 { return p.E2EMean }},
}

// pdFigure is one published figure of a row, its prediction, and the
// same figure of the row's colocated baseline (published and predicted,
// when the source has one; a predicted +Inf is an open loop the model
// cannot serve).
type pdFigure struct {
	row         published.PDRow
	metric      string
	pub, pred   float64
	cPub, cPred float64
}

func (f pdFigure) err() float64  { return f.pred/f.pub - 1 }
func (f pdFigure) cErr() float64 { return f.cPred/f.cPub - 1 }
func (f pdFigure) within() bool  { return math.Abs(f.err()) <= pdTolerance }

// pdAchieved is what the model achieves on published/pd.yaml, per split
// and metric: how many figures are within ±30% (at least) and the largest
// finite |error| (at most, 0.05 above what it is). A change that loses a
// figure or widens the worst miss fails; one that improves them says so,
// and the numbers are raised here and in the doc with -update.
var pdAchieved = map[string]map[string]struct {
	within int
	worst  float64
}{
	published.SplitCalibration: {
		// 1.09 -> 1.02, 1.89 -> 1.79, 0.64 -> 0.65: FlashAttention 3's
		// windowed decode past the window (perf/swafloor.go) adds 18 ×
		// ≈ 5 µs to every gpt-oss-120b decode step on Hopper: the decode
		// pool's TPOT, already slow under the fitted host lump, +1 point;
		// the closed loops' sessions then spend longer decoding, so the
		// prefill pool queues less and the worst TTFT (too slow) falls.
		//
		// The client's finite run (workload.burst_requests = num_prompts,
		// pd.Evaluate's finite mode, December 2026): 4 -> 6 within, median
		// error −31% -> +17%; the worst 1.02 -> 1.96 and the median's 1.79
		// -> 2.40 are anyscale-h200-pack-p1tp4-d1tp4-c64, whose prefill pool
		// the step model already runs at 103% of its capacity where the
		// source served 17.6 requests/s through it: the first round's
		// staircase of 64 prompts at that too-low capacity (docs'
		// reading). TPOT 0.65 -> 0.63: the finite run's ramp-down.
		//
		// The measured per-shape GEMM tables switched on without a refit
		// (perf.UseGEMMTables, 2026-12-06): TTFT mean 6 -> 7 within, worst
		// 1.96 -> 1.31 and median 5 -> 6, 2.40 -> 1.35: the 5,000-token
		// prompt's dense projections are priced as measured, so the
		// prefill pools' capacity rises and the 64-session staircases
		// shorten (anyscale H100 c64 +102% -> +66%, H200 c64 +195% ->
		// +130%); TPOT 0.63 -> 0.65 (worst still the TP2 decode pool of
		// anyscale-h100-pack-p2tp2-d1tp2-c32, +62% -> +64%: the batch-32
		// decode's GEMMs a little slower as measured than at the fitted
		// rate).
		// worst 1.31 -> 1.32: the tokenizer's 2 ms micro-batching wait
		// (perf.UseTokenizerBatchWait, session 36) on the already too
		// slow anyscale-h200 c64 TTFT.
		//
		// The client's prompt reuse (pd.RowPromptReuse, December 2026):
		// Anyscale's runs resent every earlier run's prompts to engines
		// that kept them cached (vllm bench serve 0.11.0's prefix_repetition
		// draws from the fixed seed 0; run_bm.sh ran 4 … 64 sessions on one
		// deployment), half to three quarters of each run's requests. The
		// prefill pools compute, and the decode engines read, only what their
		// caches lack (in the mean): 7 -> 4 within, worst 1.32 -> 0.62, the
		// median error +14% -> −31%. The 64-session rows' overshoot is gone
		// (H100 +59% -> −32%, H200 +126% -> −28%: their prefill pools were
		// the binding capacity only because every prompt was priced as new);
		// the others fall 20–50%: the loops' TTFT had been matched by the
		// prompts priced as new against what the model does not have (Ray
		// Serve's two Python hops, the queueing a mix of cached and new
		// prompts adds over the mean-field, the EFA rows' transfer).
		//
		// Cached and new prompts drawn per request in the prefill pool's
		// queue (pd.UseCachedDraw, sim.Config.CachedShare, pd43): 4 -> 8
		// within, worst 0.62 -> 0.58 (still anyscale-h100-pack-p2tp2-d1tp4-c16,
		// −61% -> −57%), the median error −31% -> −16%; the new prompts'
		// whole-budget steps hold the cached ones behind them, and every
		// request's API server tokenizes its whole prompt (the mean had
		// charged only the uncached share).
		//
		// The API server's tokenizer thread (sim.Frontend.Tokenizer, tok43):
		// vLLM 0.11.0 encodes prompts beside the event loop in micro-batches
		// (vllm.TokenizeMicrobatch), so a cohort of 64 5,000-token prompts
		// no longer queues 64 × 5.5 ms of encode behind the handlers: 8 -> 7
		// within, worst 0.58 -> 0.59 (anyscale-h100-pack-p2tp2-d1tp4-c16, −57% ->
		// −58%); the median error −16% -> −26%. Lost:
		// anyscale-h100-spread-p1tp4-d1tp4-c48 −16% -> −34% (the spread
		// rows were already low: −34% -> −42% at c16); the 64-session rows
		// +14% -> −28% (H100), +23% -> −25% (H200).
		"TTFT mean (ms)": {within: 7, worst: 0.59},
		// 4 -> 5 within: tokenizing the prompt (FrontendPromptTokenS) adds
		// ≈5.5 ms a pool to Anyscale's 5,000-token prompts. 6 -> 7 within
		// with the host split of session 31 (1.179 / 2.891 ms): the TP 1
		// pools' steps 1.1 ms shorter; worst 1.35 -> 1.37 (within the 0.05
		// slack, the TP > 1 pools' host 4.10 -> 4.07 ms does not move it).
		// Prompt reuse (above): 7 -> 2 within, worst 1.37 -> 0.75, median
		// error −10% -> −36%: a mean-field of cached and new prompts has
		// no cached population below its median (the simulator draws one
		// prompt length per pool).
		// Cached and new prompts drawn per request (above): 2 -> 7 within,
		// median error −36% -> −11%, but the worst 0.75 -> 0.96: the two
		// 64-session rows' medians overshoot (H100 −42% -> +59%, H200 −34%
		// -> +95%), their API servers tokenizing cohorts of 64 whole
		// prompts one after another (docs' reading).
		// The tokenizer thread (above): 7 within either way, worst 0.96 ->
		// 0.69 (now anyscale-h100-pack-p2tp2-d1tp4-c16, −68%): the
		// 64-session medians +59% -> −15% (H100) and +95% -> −6% (H200);
		// the spread rows fall below (c16 −22% -> −44%, c48 +7% -> −29%),
		// median error −11% -> −23%. Most of it is the encode leaving the
		// loop: with one thread encoding one prompt after another (0.6.5–0.9.2's
		// executor) the c64 medians are −10% and −0%, 5 within.
		"TTFT median (ms)": {within: 7, worst: 0.69},
		// Prompt reuse: 0.65 -> 0.67 (the closed loops' sessions back at
		// the decode pool sooner: its batch a little fuller).
		"TPOT mean (ms)": {within: 9, worst: 0.67},
		// 0.28: the measured NIXL posting (transfer.go's postCosts) keeps a
		// session of anyscale-h100-pack-p2tp2-d1tp2-c32 away from the
		// prefill pool 92 ms longer, so its throughput, already low (−25%)
		// from its decode step, is −27%.
		//
		// The client's finite run: 10 -> 9 within, worst 0.28 -> 0.32 (the
		// same row, −32%): the steady composition's rate had run up to 9%
		// above its own sessions / (TTFT + decoding) (a closed loop of C
		// sessions kept all C decoding while 0.7 of them were in prefill
		// and hand-off: its correction runs only from 1.5 away); the finite
		// run's rate is 0.95–1.04 of it, as the published runs' are
		// 0.91–0.99 (ramp-up and ramp-down), so the throughput's error is
		// now the TPOT's (+62% on this row's TP2 decode pool).
		//
		// Prompt reuse (above): 9 -> 10 within, worst 0.32 -> 0.31, median
		// error −16% -> −8% (TPOT +22% -> +25%); the 64-session rows −20% -> −8% (H100) and
		// −18% -> −2% (H200): their prefill pools no longer bind.
		"output tok/s": {within: 10, worst: 0.31},
		"requests/s":   {within: 10, worst: 0.31},
	},
	published.SplitHoldout: {
		// dynamo-gke-b200-llama70b (added 2026-12-06, held out): its decode
		// engines ran without a KV connector (decode.kv_connector none,
		// pd.EvaluateDecodeRecomputes) and recompute every prompt, which the
		// step model prices 2.5× slower on B200 than the source's figures
		// give: TTFT worst 0.65 -> 1.16 (the 3 × TP1 : 1 × TP1 run at 16
		// sessions, +115%), TPOT 1.29 -> 1.74, throughput and request rate
		// one figure fewer within ±30% each (2 -> 1, 3 -> 2), E2E 1 -> 0
		// and 0.75 -> 1.14. The earlier figures were right for the wrong
		// reason (a decode pool that computed no prompt).
		//
		// The client's finite run (genai-perf --concurrency C
		// --request-count N): TTFT 3 -> 1 within, worst 1.16 -> 2.98: the
		// first round's staircase lands on the decode engines, which
		// compute every prompt at the step model's 2.5× too slow B200 FP8
		// prompt (the steady loop's +10%/+8% were that error cancelled by
		// the missing staircase); TPOT 1.75 -> 1.29 (the Dynamo rows +54,
		// +38, +72%, were +98, +95, +174%: the run's ramp-down, as
		// genai-perf measures it; the worst is llm-d GKE's, unchanged);
		// E2E 1.14 -> 1.12.
		//
		// The GEMM tables switched on without a refit (2026-12-06): the
		// B200 FP8 prompt the decode engines recompute is priced as the
		// tables measure it (a 3,000-token prompt on one B200: 196 ms,
		// ≈0.2 s in the source's own figures, 516 ms at the fitted rate),
		// so the Dynamo rows' TTFT goes +119/+298/+179% -> +6/+60/+13%: TTFT 1 -> 2 within, worst 2.98
		// -> 0.71 (now llm-d GKE's −70%, its TP1 prefill pools faster
		// still); TPOT 0 -> 3 of 4, worst 1.29 -> 1.35 (llm-d GKE, +128%
		// -> +134%); throughput 1 -> 4 of 4 and request rate 2 -> 5 of 5,
		// worst 0.52 -> 0.16; E2E 0 -> 3 of 5, worst 1.12 -> 0.75. The
		// one median (llm-d GKE) −67% -> −73%. The Dynamo rows' colocated
		// baselines (not asserted here) go the other way: TTFT −34/−31/−18%
		// -> −65/−72/−67%, throughput −8/+18/+29% -> +8/+45/+85%
		// (docs/calibration-pd.md): on one B200 the colocated engines now
		// prefill faster than their published runs did.
		// The host split of session 31 (TP 1 steps 2.26 -> 1.18 ms of host)
		// makes llm-d GKE's TP1 prefill pools faster still: TTFT mean
		// worst 0.71 -> 0.72, median 0.74 -> 0.75 (−71%, −74%).
		//
		// pegaflow-h20-qwen3-8b and spark-gb10-llama8b (added 2026-12-06,
		// branch pdsrc, held out, no model change): counts raised to what
		// the seven new rows add (TTFT mean 2 -> 5 within, throughput
		// 4 -> 5, request rate 5 -> 6, E2E 3 -> 4). The worst throughput
		// and request-rate errors rise with the data, not the model: the
		// GB10 row's −23% / −18% are the step model's GB10 decode (its
		// colocated run is off by as much, +38% TPOT), 0.16 -> 0.24 / 0.19.
		// The PegaFlow rows ran --enforce-eager (features.cuda_graphs false),
		// which the replay now passes to both pools (poolEngine): the first
		// decode step is eager, 9.8 -> 20.7 ms, TTFT mean 5 -> 3 within
		// (+2/+24/+28% -> +13/+32/+32% at 512-2,048 tokens: the prefill on
		// one H20 is already 24-40% slower than the source's colocated
		// runs, the hand-off 30-110 ms faster).
		// 3 -> 8 within (session 35): the H20's cited GEMM and attention
		// rates (perf.UseH20KernelFigures) on PegaFlow's Qwen3-8B.
		//
		// vllm-pr-18242-p2pnccl (held out, branch pdsrc2) replayed with
		// the arrivals its client drew, vllm benchmark_serving.py
		// --burstiness 100 (clientArrivals, workload.arrival_burstiness;
		// branch arrivals), not Poisson: its prefill queue 231.5 -> 0.0
		// ms and its prefill 326.5 -> 211.8 ms (one prompt a step, the
		// idle 212 ms: gaps of 278 ± 28 ms rarely fall below the prefill),
		// TTFT mean +139% -> +27% (740 -> 393 ms), median +110% -> +32%
		// (625 -> 392 ms): within 8 -> 9, the worst back to llm-d GKE's
		// −71% / −74%, whose inference-perf client draws Poisson gaps.
		"TTFT mean (ms)": {within: 9, worst: 0.75},
		// vllm-pr-18242-p2pnccl replayed with its connector,
		// P2pNcclConnector PUT_ASYNC (replayConnector,
		// pd.UseConnectorSemantics): its layer-wise push hides behind the
		// prefill, hand-off 132.48 -> 1.33 ms, TTFT mean +27% -> −17%
		// (393 -> 257 ms), median +32% -> −14% (392 -> 256 ms): median
		// within 0 -> 1.
		"TTFT median (ms)": {within: 1, worst: 0.78},
		// llm-d GKE's TPOT in inference-perf's re-tokenized count
		// (clientCounted): +155% -> +125%; +128% with FA3's windowed
		// decode past the window (perf/swafloor.go, gpt-oss-120b on H200).
		// The Dynamo runs' decode engines recompute each prompt: +174%
		// (+174.0x% once the front end charges the prompt's tokenization,
		// FrontendPromptTokenS, merged the same day).
		// Session 40, perf.UseAsyncOverlap on (vLLM >= 0.14 overlaps the
		// host's work with the GPU's): TPOT 4 -> 5 within, worst 1.35 ->
		// 0.37 and E2E 4 -> 5, 0.75 -> 0.34 (the Dynamo decode pools'
		// steps no longer carry the host serially); TTFT mean worst 0.72
		// -> 0.74 and median 0.75 -> 0.78 (under-predicted TTFTs a little
		// faster; counts unchanged).
		"TPOT mean (ms)": {within: 5, worst: 0.37},
		"output tok/s":   {within: 5, worst: 0.24},
		"requests/s":     {within: 6, worst: 0.19},
		"E2E mean (s)":   {within: 5, worst: 0.34},
	},
}

// pdSplits are the splits in the order the doc reports them: the source
// whose errors were read to look for mechanisms (calibration: nothing is
// fitted to it), then the held-out sources.
var pdSplits = []string{published.SplitCalibration, published.SplitHoldout}

// TestCalibrationPD predicts every targetable published P/D run through
// check's P/D model with the global constants (no constant is fitted to
// any P/D row), asserts the errors achieved per split (pdAchieved), and
// regenerates docs/calibration-pd.md (-update).
func TestCalibrationPD(t *testing.T) {
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	var figs []pdFigure
	parts := map[string]pd.Scenario{}
	loads := map[string][2]predicted{}
	for _, r := range set.Rows {
		if !r.Targetable() {
			continue
		}
		p, s := replayPD(t, r)
		parts[r.ID] = s
		if _, ok := clientRun(r); ok {
			steady, _ := replayPDLoad(t, r, false)
			loads[r.ID] = [2]predicted{steady, p}
		}
		var c predicted
		if r.Colocated != nil {
			c = replayColocated(t, r)
		}
		for _, m := range pdMetrics {
			n := m.pub(r.Figures)
			if !n.Positive() {
				continue
			}
			f := pdFigure{row: r, metric: m.name, pub: n.V, pred: m.pred(p)}
			if r.Colocated != nil && m.pub(r.Colocated.Figures).Positive() {
				f.cPub, f.cPred = m.pub(r.Colocated.Figures).V, m.pred(c)
			}
			figs = append(figs, f)
		}
	}
	for _, split := range pdSplits {
		for _, m := range pdMetrics {
			st := summarize(figs, split, m.name)
			a := pdAchieved[split][m.name]
			t.Logf("%s, %s: %d of %d within ±30%%, worst finite |error| %.0f%%", split, m.name, st.within, st.n, 100*st.worst)
			if st.within < a.within || st.worst > a.worst+1e-9 {
				t.Errorf("%s, %s: %d of %d within ±30%% (at least %d before), worst |error| %.0f%% (at most %.0f%% before)", split, m.name, st.within, st.n, a.within, 100*st.worst, 100*a.worst)
			}
			if st.within > a.within || st.worst < a.worst-0.05 {
				t.Logf("%s, %s improved: raise pdAchieved to within %d, worst %.2f", split, m.name, st.within, st.worst+0.01)
			}
		}
	}
	golden.Check(t, "../../docs/calibration-pd.md", []byte(pdDoc(set, figs, parts, loads)))
}

// pdStats summarise one metric's figures of one split.
type pdStats struct {
	n, within, unbounded int
	worst                float64 // largest finite |error|
	errs, cerrs          []float64
}

// summarize gathers the figures of a split and metric.
func summarize(figs []pdFigure, split, metric string) pdStats {
	var st pdStats
	for _, f := range figs {
		if f.metric != metric || f.row.Split != split {
			continue
		}
		st.n++
		e := f.err()
		if f.within() {
			st.within++
		}
		if math.IsInf(e, 0) {
			st.unbounded++
		} else {
			st.worst = max(st.worst, math.Abs(e))
		}
		st.errs = append(st.errs, e)
		if f.cPub > 0 {
			st.cerrs = append(st.cerrs, f.cErr())
		}
	}
	return st
}

// pct formats a relative error (an infinite one: the open loop is
// unbounded in the model).
func pct(e float64) string {
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return "unbounded"
	}
	return fmt.Sprintf("%+.0f%%", 100*e)
}

// num formats a figure.
func num(v float64) string {
	switch {
	case math.IsInf(v, 0):
		return "∞"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// layoutOf describes a row's pools and load.
func layoutOf(r published.PDRow) string {
	where := "one node per pool"
	if r.Hardware.SameNode.V {
		where = "both pools on one node"
	}
	load := fmt.Sprintf("%s sessions", r.Load.Concurrency)
	if n, ok := clientRun(r); ok {
		load = fmt.Sprintf("%s sessions, %d requests from t=0", r.Load.Concurrency, n)
	}
	if rateLoad(r) {
		// the row's load kind, then the process replayed (clientArrivals)
		process := "Poisson gaps"
		if b := clientArrivals[r.Source].Burstiness; b != 1 {
			process = fmt.Sprintf("gamma gaps, burstiness %g", b)
		}
		load = fmt.Sprintf("%s req/s (%s; %s)", r.Load.RequestRatePerS, r.Load.Kind, process)
	}
	return fmt.Sprintf("%s, vLLM %s, P %s×TP%s, D %s×TP%s (%s), %s/%s tokens, %s", r.Hardware.GPU, r.Engine.Version, r.Prefill.Instances, r.Prefill.TP,
		r.Decode.Instances, r.Decode.TP, where, r.Workload.InputTokens, r.Workload.OutputTokens, load)
}

// pdDoc renders docs/calibration-pd.md.
// loads holds, per closed-loop row whose client's run is known, its
// prediction as check's steady state and as the client's finite run.
func pdDoc(set *published.PDSet, figs []pdFigure, parts map[string]pd.Scenario, loads map[string][2]predicted) string {
	var b strings.Builder
	b.WriteString("# Prefill/decode calibration\n\n")
	b.WriteString("Generated by `go test ./estimate/pd -run TestCalibrationPD -update`; do not edit. Data: [published/pd.yaml](../published/pd.yaml)\n")
	b.WriteString("(published runs of disaggregated deployments, each cited, typed and validated by the `published` package). Every targetable\n")
	b.WriteString("row becomes the spec a user would write (each pool instance on a node of its own, with its share of the node's NICs; both pools\n")
	b.WriteString("on one node when the source packed them, the KV then moving within it) and runs through `vlaunch check`'s P/D model\n")
	b.WriteString("(`pd.Evaluate`: each pool's simulation, the KV hand-off, TTFT composed from its parts) with the global constants. **No constant is\n")
	b.WriteString("fitted to any P/D row** (the composition has none; the step model's constants come from throughput.yaml's calibration split, which\n")
	b.WriteString("holds no P/D run). The split separates the source whose errors were read to look for missing mechanisms (`calibration`) from\n")
	b.WriteString("the sources added, with their split, before any mechanism was compared with them (`holdout`). Where the source also ran the same\n")
	b.WriteString("GPUs colocated under the same client, that run is predicted through check's colocated path beside it, which separates the step\n")
	b.WriteString("model's error from the composition's. A rate the model cannot serve (an open loop above the capacity of a pool) has no TTFT:\n")
	b.WriteString("it is `unbounded`, counted outside ±30%, and its throughput is the capacity that binds.\n\n")
	b.WriteString("## Summary\n\n| split | figure | figures | within ±30% | median error | worst finite error | colocated baseline: median error |\n|---|---|---|---|---|---|---|\n")
	for _, split := range pdSplits {
		for _, m := range pdMetrics {
			st := summarize(figs, split, m.name)
			if st.n == 0 {
				continue
			}
			var finite []float64
			for _, e := range st.errs {
				if !math.IsInf(e, 0) {
					finite = append(finite, e)
				}
			}
			worst := pct(worstOf(finite))
			if len(finite) == 0 {
				worst = "–"
			}
			if st.unbounded > 0 {
				worst += fmt.Sprintf(" (%d unbounded)", st.unbounded)
			}
			col := "–"
			if len(st.cerrs) > 0 {
				col = fmt.Sprintf("%s (%d runs)", pct(median(st.cerrs)), len(st.cerrs))
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s |\n", split, m.name, st.n, st.within, pct(median(st.errs)), worst, col)
		}
	}
	b.WriteString("\n## Every figure\n\n")
	b.WriteString("Error is predicted / published − 1. *Colocated* columns are the source's colocated run of the same GPUs (instances × TP as\n")
	b.WriteString("listed in the data file) at the same load, published and predicted by check's colocated model. A closed-loop client's run, P/D\n")
	b.WriteString("and colocated alike, is replayed as it went where the row states its requests: a finite run of them with every session starting\n")
	b.WriteString("at t=0 (`workload.burst_requests`; P/D: `pd.Evaluate`'s finite mode, estimate/pd/finite.go).\n\n")
	b.WriteString("| row | split | what ran | figure | published | predicted | error | colocated published | colocated predicted | colocated error |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, split := range pdSplits {
		for _, f := range figs {
			if f.row.Split != split {
				continue
			}
			c := "| – | – | – |"
			if f.cPub > 0 {
				c = fmt.Sprintf("| %s | %s | %s |", num(f.cPub), num(f.cPred), pct(f.cErr()))
			}
			mark := pct(f.err())
			if !f.within() {
				mark = "**" + mark + "**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s %s\n", f.row.ID, f.row.Split, layoutOf(f.row), f.metric, num(f.pub), num(f.pred), mark, c)
		}
	}
	b.WriteString("\n## Predicted TTFT, part by part\n\nThe mean TTFT of each row's scenario split as check reports it (ms); *of which noticed* is the part of\n")
	b.WriteString("the decode admission spent waiting for the step at whose end the decode engine notices that the KV read finished.\n\n")
	b.WriteString("| row | API servers | prefill queue | prefill | router | KV transfer | decode admission | of which noticed | first decode step | binding |\n|---|---|---|---|---|---|---|---|---|---|\n")
	ids := make([]string, 0, len(parts))
	for id := range parts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		sc := parts[id]
		if sc.Unbounded {
			fmt.Fprintf(&b, "| %s | – | – | – | – | – | – | – | – | unbounded: %s (prefill %.0f%%, decode %.0f%% of capacity) |\n", id, sc.Binding,
				100*sc.PrefillUtilization, 100*sc.DecodeUtilization)
			continue
		}
		p := sc.TTFTParts
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f | %s (prefill %.0f%%, decode %.0f%% of capacity) |\n", id, 1e3*p.FrontendS, 1e3*p.PrefillQueueS, 1e3*p.PrefillS,
			1e3*p.RouterS, 1e3*p.TransferS, 1e3*p.DecodeAdmitS, 1e3*p.DecodeAdmit.ReadNoticeS, 1e3*p.FirstDecodeS, sc.Binding, 100*sc.PrefillUtilization, 100*sc.DecodeUtilization)
	}
	b.WriteString(loadTable(set, loads))
	b.WriteString("\n## Sources\n\n")
	for _, s := range set.Sources {
		fmt.Fprintf(&b, "- **%s** (%s): %s, %s. %s\n", s.ID, s.Split, s.Title, s.URL, s.Notes)
	}
	b.WriteString(pdReading)
	return b.String()
}

// loadTable compares, for every closed-loop P/D row whose client's run is
// known, check's steady state with the client's finite run (both through
// pd.Evaluate) against the published figures.
func loadTable(set *published.PDSet, loads map[string][2]predicted) string {
	var b strings.Builder
	b.WriteString("\n## Steady state against the client's run\n\n")
	b.WriteString("Each closed-loop row whose client's request count is known, predicted as check's steady closed loop (sessions staggered, warm-up\n")
	b.WriteString("discarded: the replay before December 2026) and as the client ran it (`workload.burst_requests`: every session at t=0, every\n")
	b.WriteString("request counted, throughput over the whole run); errors against the published figure.\n\n")
	b.WriteString("| row | split | TTFT mean: published | steady | finite run | TTFT median: published | steady | finite run | TPOT mean: published | steady | finite run | output tok/s: published | steady | finite run |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range set.Rows {
		l, ok := loads[r.ID]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s", r.ID, r.Split)
		for _, m := range []int{0, 1, 2, 3} {
			pub := pdMetrics[m].pub(r.Figures)
			if !pub.Positive() {
				b.WriteString(" | – | – | –")
				continue
			}
			fmt.Fprintf(&b, " | %s | %s | %s", num(pub.V), pct(pdMetrics[m].pred(l[0])/pub.V-1), pct(pdMetrics[m].pred(l[1])/pub.V-1))
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

// pdReading is what the errors say, by mechanism.
const pdReading = `
## Reading the errors

- **Held out (llm-d, vLLM 0.24 and 0.27, 8 × TP1 prefill : 2 × TP4 decode on H200, 45 req/s of 5,000/250).** Both runs served
  the whole 120 s stage (5,400 of 5,400 requests, 42.6 and 44.3 req/s, TTFT max 4.2 s on GKE), so their prefill pools carried
  45 × 5,000 prompt tokens a second: at least 28k tokens/s per H200 (the guide's router is calibrated at 33,821 tokens/s per
  prefill instance, measured idle through the full P/D path: 83% loaded at 45 req/s). These releases run gpt-oss's MXFP4 experts
  on Hopper with OpenAI's triton_kernels, not the Marlin kernel of vLLM 0.10–0.11 (vllm.Release.MXFP4MoEBackend: vLLM ships
  triton_kernels from 0.14.0), and the step model now prices them with aiconfigurator's measured curve of that kernel (vLLM 0.24.0
  tables, 41–53% of the BF16 peak from ~128 tokens per expert) where the fitted expert constant (0.21, fitted on Marlin-era rows)
  stood before: a 5,000-token prompt on one H200 takes 137 ms (was 221 ms; experts 88 ms, was 172; dense 28, attention 17), so
  the prefill pool is 77% loaded (was 124%: unbounded, no TTFT). Both rows are bounded now: the rate served is within +2–6%, and the
  mean TTFT is 437 ms (API servers 80, prefill queue 115, prefill 191, hand-off 2, decode admission 36, first decode step 15) against
  1,157 ms on GKE (−62%) and 518 ms on CoreWeave (−16%): the two fleets ran the same workload and topology 2.2× apart. The GKE
  row's colocated baseline (16 × TP1, published 532 ms) is 236 ms in the model (−56%), so most of GKE's miss is shared with the
  colocated model (per-request front-end and queueing costs the model does not see), not the P/D composition.
- **The llm-d GKE row's TPOT, term by term.** inference-perf's TPOT is (last − first chunk time) / (output tokens − 1) with the
  output tokens counted by re-tokenising the streamed text (inference_perf/apis/completion.py at 11db4a8f6a18): 282.66 per
  request against the 250 generated (output_tok_per_s / requests_per_sec of the same report), so its 5.70 ms is 6.45 ms per
  engine step, and its output tok/s is 13% above the engine's. The replay now puts the prediction in the client's count
  (clientCounted: the model's TPOT × 249 / 281.66, tok/s = requests/s × 282.66): +155% became +125% (12.8 ms against 5.70),
  output tok/s −7% became +6%; nothing else moves. What is left is the decode step, not the composition: the decode pool's
  simulation reaches a mean of 160 running sequences over its two TP4 instances, 80 per instance — Little's law at 22.5 req/s per
  instance × 249 steps × 14.5 ms — where the measured step (6.45 ms) holds 36. The step at 80 sequences of ~5,125 tokens is
  14.65 ms: routed experts 4.35 (MXFP4 at 4.25 bits: 13.2 MB per expert per layer, 32 expert-widths per TP4 GPU, 92% of them
  touched by 80 × top-4 of 128; 14.3 GB per GPU per step at 0.838 × 0.820 of 4.8 TB/s; at 2.5 tokens per expert the
  triton_kernels curve is held at its ridge, so compute is 0.57 ms and memory binds), attention 1.66 (3.87 GB of BF16 KV: the 18 full layers
  at 512 B per token per GPU, the 18 sliding layers at their 128-token window, plus 0.70 ms of measured per-call floor), dense
  0.23, TP all-reduces 0.28, kernel gaps 1.55 (652 kernels × 2.37 µs, CUDA graphs), and host 6.52 (step 2.26 + multiprocess
  executor 1.84 + 80 × 29.5 µs per sequence) charged in series. At the measured 36 sequences the same model gives GPU 6.05 ms
  (experts 3.19, 68% touched, 10.5 GB; attention 0.89; dense 0.21; TP 0.22; gaps 1.55) — within 6% of the 6.45 ms measured
  — and host 5.16 ms. So the GPU terms are physical and the whole excess is the host's time, which vLLM 0.24 overlaps with the
  GPU's (asynchronous scheduling, on by default since 0.14, vllm.Release.AsyncSchedulingFor: the engine core schedules and
  launches the next batch before it waits on the last one's output, vllm/v1/engine/core.py step_with_batch_queue as read at main;
  the v0.24.0 file itself was not read); the serial host doubles the step,
  and the closed feedback of an open loop (a slower step holds more sequences, which slows the step) takes it from 11.2 to 14.5
  ms. Not the client's count (converted above) and not the hand-off: requests whose KV is still loading wait in
  WAITING_FOR_REMOTE_KVS outside the running batch, and the model keeps them out of it too (the transfer comes before the decode
  pool's simulation; the noticing step is the admission's). A KV connector does not turn the overlap off: vLLM's automatic
  choice (vllm/config/vllm.py, VllmConfig.__post_init__, async_scheduling None) disables it only for pipeline parallelism, a
  speculative method other than EAGLE/MTP, disable_padded_drafter_batch or an executor other than mp/uni/external_launcher (a
  2026 copy of the file; the v0.24.0 file was not read). Hiding the host is a step-model change (estimate/perf/perf_input.go,
  SetupFromInput: OverlapHost set from the release's AsyncSchedulingFor rather than the explicit flag alone; step.go then takes
  max(serial + launch, GPU) instead of serial + max(launch, GPU)): trialled and not adopted on the colocated evidence (trial 5
  there); replayed here with --async-scheduling on this row, the decode step is 5.9 ms, which holds 22.5 × 249 × 5.9 ms = 33
  sequences per instance, and the TPOT 5.2 ms in the client's count (−8%; −2% with the GEMM tables as well). The Dynamo rows below no longer pull the other way: their decode
  engines computed every prompt (below). E2E (+46%, +72%) inherits the serial host.
- **Held out (Dynamo 1.2.1 on one B200 node, vLLM 0.20.1, Llama-3.1-70B FP8, closed loops of 3,000/150 under genai-perf): the
  decode engines ran without a KV connector.** Both manifests start the decode worker with --disaggregation-mode decode and no
  --kv-transfer-config (llama31_70b_dynamo_a4-spot-prefill-4xtp1-decode-1xtp4.yaml at 6b85c5e48757,
  llama31_70b_dynamo_a4_spot_3p1d.yaml at 2148c455a83e); only the prefill workers name NixlConnector. Dynamo adds no connector
  of its own since 1.0: ai-dynamo/dynamo components/src/dynamo/vllm/args.py (update_dynamo_config_with_engine) refuses only a
  prefill worker without one ("--connector is deprecated and the default is no longer nixl"), and Dynamo's own
  examples/backends/vllm/launch/disagg.sh gives its decode worker the same NixlConnector config (both read at Dynamo's main
  through the search index; the 1.2.1 tag's files were not identified). Its decode handler copies the prefill's
  kv_transfer_params into the request's sampling_params.extra_args and generates (components/src/dynamo/vllm/handlers.py,
  DecodeWorkerHandler, stored versions), and Dynamo's PrefillRouter consumes the prefill's output itself
  (lib/llm/src/kv_router/prefill_router.rs, execute_prefill). vLLM's scheduler creates a KV connector only from a
  kv_transfer_config (vllm/v1/core/sched/scheduler.py, Scheduler.__init__: "self.connector = None" unless
  "self.vllm_config.kv_transfer_config is not None"; the same in every copy of the file read, v0.20.1's not among them), so
  the decode engine never reads the prefill's KV: it computes each prompt again, beside its decodes, and the prefill pool's work
  is spent. The source's figures agree with no model in between: with every prompt on the decode GPU, its steps per second
  (1 / TPOT) are the prompts it takes plus decode-only steps: 34.2 = 2.77 + 31.5 at 16 sessions and 25.2 = 3.33 + 21.9 at 32
  (3 × TP1 : 1 × TP1); at ~13 ms per decode-only step (70 GB of FP8 weights and 6–10 GB of KV read at ~11–12 ms, plus host),
  the prompts take (1 − 31.5 × 0.013) / 2.77 = 0.21 s and (1 − 21.9 × 0.013) / 3.33 = 0.22 s: the same at both loads, and the
  time 424 TFLOP of a 3,000-token prompt take at ~2 PFLOP/s, under half of B200's 4.5 PFLOP/s dense FP8. The mean time to second
  token (229 and 404 ms; 107 ms on TP4) is such a prompt and its queue, and the 8-GPU run's fastest whole request reached its
  first token in 381 ms. (That the client stamped a first token before the decode engine's prompt ran says its first chunk
  came ahead of the decode engine's first token; which chunk that was is not read.) One thing sits uneasily with it: no decoder
  reads the prefill workers' blocks, so each holds them until vLLM's abort timeout (VLLM_NIXL_ABORT_REQUEST_TIMEOUT, 480 s
  before its removal in vLLM #41383 of 2026-05-11, which 0.20.1 likely predates), and a prefill worker here holds ~212 prompts
  (652,160 KV tokens in the model); one 630-request run of the 4-GPU layout needs 210 of them per worker, so a second run
  within ~8 minutes would have stalled the prefill pool, and the published rates show no stall: the runs were apart, or the
  release frees the blocks sooner. The replay now runs these rows as launched
  (published/pd.yaml decode.kv_connector none; pd.EvaluateDecodeRecomputes: the decode pool on the colocated path, prompt and
  output on one engine, no KV moved). It makes them worse, because it exposes what had hidden it: the step model prices that
  prompt at 516 ms on one B200 (FP8 GEMMs at ~0.82 PFLOP/s under measured_compute 0.42), 2.5× the ~0.2 s the source's own
  figures give, and both pools now pay it, the decode pool once more per request: throughput −2/+52/+70% became −40/−46/−51%,
  TPOT −34/−40/−55% became +98/+95/+174%, TTFT +64/−17/−15% became +9/+115/+9%. Before, right throughput on the 8-GPU run came
  from a wrong pair, a decode pool that computed no prompt and a prefill pool 99% loaded by a prompt 2.5× too slow. Two step-model
  switches the source's evidence points to, tried here and not adopted (estimate/perf owns them): with the per-shape GEMM tables
  (perf.UseGEMMTables; the prompt then takes 196 ms) the three rows' throughput is −12/−8/−1% and TPOT +58/+33/+43%; with the host
  overlapped as well (--async-scheduling, OverlapHost) throughput +6/−2/+4% and TPOT +25/+23/+34%, TTFT then −57/−42/−59% (a
  closed loop's TTFT is sessions / rate less the time decoding, which is still too long). Read to test the mechanism: these rows'
  TPOT, throughput, TTFT and time to second token; nothing was fitted to them. The tables were switched on 2026-12-06 without a
  refit (with the finite runs below in place): TTFT +6/+60/+13%, TPOT +27/+5/+6%, throughput −15/−15/−6%. Their colocated
  baselines, which the tables make fast on one B200, went the other way: TTFT −34/−31/−18% → −65/−72/−67%, throughput
  −8/+18/+29% → +8/+45/+85% (the colocated engines' prompts, and the decodes running beside them, cheaper than the published
  runs show; not read further).
- **Calibration source (Anyscale, vLLM 0.11, Ray Serve).** Its engines ran gpt-oss's experts on Marlin (vLLM 0.11.0 shipped no
  triton_kernels), which the fitted expert constant still prices; the measured Triton curve does not apply. Throughput is within ±30% on every row (median −4%) and TPOT on all
  but one (+21%), as the colocated model is on the same source's colocated runs (+27%): the decode step of gpt-oss-120b on Hopper,
  not the composition. TTFT was low by 13–77% wherever the prefill pool does not saturate before the hand-off's NIXL posting was
  priced (3–61% since, below). The source's own prefill-only runs
  locate most of that outside P/D: through the same Ray Serve stack, a lone 5,000-token prompt takes 129.8 ms (median) on
  TP4 and 179.7 ms on TP2 H100 (bm_results/gptoss_itl5000_otl1_2xtp4/conc32_rr1.json and gptoss_itl5000_otl1_4xtp2/
  conc64_rr2.json at 3e729c54, 1–2 req/s), where check's colocated model gives 71 and 123 ms: a gap of 57–59 ms whatever the
  TP (so not the prompt's compute, which halves from TP2 to TP4), and ~100 ms at 10,000 tokens (gptoss_itl10000_otl1_1xtp2).
  That is the serving front end's work per request and per prompt token (Ray Serve's ingress and proxy, tokenising the prompt).
  The model priced it at a fixed 4.5 ms per request (perf's FrontendRequestS) and now adds tokenization per prompt token
  (FrontendPromptTokenS, 1.1 µs measured for HuggingFace tokenizers, not fitted): ≈5.5 ms of the 57–59 ms at 5,000 tokens,
  paid in both pools in P/D (the decode instance receives and tokenizes the prompt again). Ray Serve LLM's own hop is not
  charged (a spec has no Ray Serve front end): ray-project/ray#59681 measured +20 ms mean TTFT over bare vLLM at 4,096-token
  prompts and 10 sessions. The rest, ≈30 ms at 5,000 tokens and growing ≈8 µs a token to 10,000, is not explained (gpt-oss's
  o200k tokenizer on random-token text may encode slower than the 1.1 µs measured; not measured). The same source's P/D run of TP4 : TP4 at 4 sessions
  (gptoss_itl5000_otl250_mixed_1xtp4-1xtp4-pack-wo-verbosity/conc4.json at c909c073) has a median TTFT of 208.6 ms, 79 ms above
  the lone colocated prefill; the model's P/D parts beyond the prefill added ~25 ms before the posting was priced and ~117 ms
  since (its row at 8 sessions: router, transfer with 92 ms of posting, decode admission, first step and the decode API server's
  share).
- **The hand-off's steps.** vLLM's decode engine issues a request's NIXL read in the step that admits it and learns that it
  finished only from a step's output, scheduling the request at the next step (scheduler.py, kv_connector_model_runner_mixin.py
  of v0.10.2 and v0.11.2; vllm.Release.KVLoadNoticedAtStepEnd). The model now charges it (*of which noticed*: one decode step
  when the read is shorter than half a step and others are decoding, half a step after a longer read, nothing on an idle
  engine): 8–16 ms on these rows, which moved the calibration source's median TTFT error from −57% to −53% and raised the
  saturated rows' (64 sessions) by 3–4 points. Nothing is fitted.
- **The hand-off's posting (NIXL descriptors).** vLLM's NixlConnector posts one NIXL descriptor per registered region (K and V of
  every attention layer: 72 for gpt-oss-120b, whose sliding-window layers are registered whole with the hybrid manager off) and
  block, per read (vllm.NixlRegions: nixl_connector.py's _get_block_descs_ids, "region_ids * num_blocks + block_ids"): a
  5,000-token prompt at block size 16 is 72 × 313 = 22,536 descriptors per decode rank. vLLM #55434 measured what posting them
  costs on GB200 (vLLM 0.28, nixl 1.3.2, Prometheus postDuration/xferDuration): 4.067 µs per descriptor on cuda_ipc (455.9 of
  800.8 ms per rank-transfer, 56.9%), 0.204 µs on rc_x over InfiniBand (24.4 of 350.8 ms), 0.352 µs over RoCE, the bytes moving
  at the same ~14–15 GB/s per rank after posting on both. The model now charges the measured cost where the transport has one
  (transfer.go's postCosts; the bytes stay at line rate): 92 ms on the rows that share a node (cuda_ipc), which is the calibration
  source's own measurement of NIXL within a node, 4–5 GB/s for these 369 MB (74–92 ms; prefill_decode/docs/DEBUGGING.md at
  2cb43156). On the calibration source it moved the median error of the mean TTFTs from −53% to −34% and of the median TTFTs from −50% to
  −25%, 4 of 10 within ±30% for each (was 2 and 1): c8 −50% → −8%, TP2:3×TP2 −24% → −3%, H200 c16 −58% → −29%; the saturated rows barely move (their TTFT
  is the closed loop's queue). Over EFA (the 'spread' rows) no cost per descriptor is measured, so they keep line rate (1.9 ms)
  though the same source measured 4–5 GB/s there too. It costs throughput 1–4 points where the sessions' cycle lengthens (worst
  −27%, was −25%). Two cautions: the figure is one reporter's on a Grace host, applied to an x86 H100 host; and at 4 sessions the
  source's P/D run sits 79 ms above its lone colocated prefill where the model's P/D parts now add ~117 ms, so the cuda_ipc cost
  on these hosts may be nearer 2.4 µs. Posting is synchronous in the decode worker's step (start_load_kv), which would also
  lengthen decode steps; that is not modelled. The held-out llm-d rows do not move: their prefill pools are over capacity.
- **The hand-off by connector.** The replay names each row's connector (published/pd.yaml's connector field; replayConnector):
  all are NixlConnector but vllm-pr-18242-p2pnccl, replayed with P2pNcclConnector and the send_type its commands set
  (PUT_ASYNC; the default was PUT at the PR's merge, vllm@eccdc8318). The model prices a hand-off by the connector's semantics
  read in vLLM's source (vllm.KVHandoffOf; pd.UseConnectorSemantics): P2pNccl's producer sends each layer's KV from
  save_kv_layer as the forward computes it, one send after another on its own thread, and the step ends only when the queue is
  empty (wait_for_save), so TTFT sees max(s, L·s − c·(L−1)/L) of it (s = latency + wire ÷ L per layer, c the step that finishes
  the prompt) plus the gathers and scatters around each send at HBM bandwidth; NIXL's per-descriptor posting (measured for UCX
  only) is not charged, and the decode engine loads the KV inside the step that schedules the request (no read noticed at a
  step's end). On this row: hand-off 132.48 → 1.33 ms (0.07 ms the last layer's send, 1.25 ms the copies), decode admission
  10.3 → 5.2 ms (the notice gone), TTFT mean +27% → −17% (393 → 257 ms), median +32% → −14% (392 → 256 ms). The reviewer puts
  the connector's overhead at ~30 ms for 10,000 tokens; what of it is per-layer ZMQ round trips, the sender thread and NCCL's
  own pace is not measured, so it is not charged (only the link latency per layer is).
- **The client's prompts were cached** (December 2026; pd.RowPromptReuse, estimate/pd/clientsweep.go). Every Anyscale
  experiment launched one deployment and ran run_bm.sh on it: vllm bench serve at 4, 8, 16, 32, 48 and 64 sessions in that
  order, 5 prompts a session, --dataset-name prefix_repetition with no --seed. vLLM 0.11.0's client seeds numpy with the
  default seed 0 and draws each prompt in turn (vllm/benchmarks/datasets.py, PrefixRepetitionRandomDataset), so a run of N
  prompts sends the first N of one fixed sequence: every run resent all the prompts of the runs before it, to engines with
  prefix caching on (vLLM's default; launch_gptoss.py sets max_model_len and the connector only; the same authors'
  horizontal_scaling/README.md disables it because of "cache hit patterns ... even with randomly generated requests if the seed
  is shared across runs"). A cached prompt costs the prefill engine its last 8 tokens, and the decode engine, which cached the
  blocks it read last time (scheduler.py _update_waiting_for_remote_kv), reads only the last block (nixl_connector.py
  get_num_new_matched_tokens, _read_blocks). Shares of requests cached: 50% at 8, 16 and 32 sessions, 67% at 48, 75% at 64 on
  one instance per pool; with k instances behind Ray Serve's load-blind router a prompt sent r times before is on the one that
  gets it with probability 1 − (1 − 1/k)^r (2 × TP2 prefill at 16 sessions 31%, at 32 sessions 33%; 3 × TP2 decode 22%); no
  instance's KV cache is too small to keep them. The published runs show it: the 99th-percentile TTFT of the H100 TP4 : TP4
  sweep grows 570, 762, 1,293, 1,435, 1,644 ms from 8 to 64 sessions, where a first round of C new 5,000-token prompts at t=0
  would grow in proportion to C (64 new prompts need ~3.5 s at any plausible prefill rate; the first round held ~16 new ones
  from 32 sessions on); the first run (4 sessions, nothing cached) is predicted at 221 / 195 ms mean / median against 216 /
  205 published. The model now prices the reuse in the mean (pd.PromptReuse): each request computes, and reads, the mean share
  its pool's cache lacks. Before → after, TTFT mean / median / output tok/s: TP4 : TP4 c8 +22 / +6 / −20% → −21 / −29 / −16%,
  c32 +14 / −9 / −17% → −29 / −37 / −11%, c64 +59 / −3 / −20% → −32 / −42 / −8%; spread c16 −19 / −29 / −13% → −47 / −49 /
  −10%, c48 +12 / −35 / −16% → −41 / −56 / −8%; TP2 : 3 × TP2 c16 +26 / −10 / −7% → −15 / −17 / −2%; 2 × TP2 : TP2 c32 −3 / −25
  / −32% → −31 / −35 / −30%; 2 × TP2 : TP4 c16 −44 / −62 / +2% → −61 / −74 / +6%; H200 c16 +14 / +9 / −14% → −31 / −30 / −8%,
  c64 +126 / +129 / −18% → −28 / −34 / −2%. The 64-session rows' prefill pools no longer bind (H100: 16.87 requests/s
  published, 15.4 predicted, where every prompt priced as new capped it at the pool's ~15.8): throughput 10 of 10 within
  ±30%. TTFT is now low on every row, by ~40 ms at 8 sessions to ~150 ms at 64: what the loops' TTFT had matched was the
  prompts priced as new against what the model lacks: Ray Serve LLM's ingress and PD-proxy replicas (Python, two hops each
  way and every streamed chunk; +20 ms at 10 sessions in ray-project/ray#59681, not measured under load), the queueing a
  mix of cached and new prompts adds over their mean (a new prompt's 8,192-token steps delay the cached ones behind it; the
  simulator draws one prompt length per pool, so a two-point draw per request needs estimate/sim), and on the spread rows
  the EFA transfer (4–5 GB/s measured, line rate modelled). The colocated baselines had the same reuse and are not
  replayed with it (check's colocated path has no prompt reuse).
- **Cached and new prompts in one prefill queue** (December 2026, pd43; pd.UseCachedDraw, sim.Config.CachedShare). vLLM
  0.11.0's PrefixRepetitionRandomDataset draws its prompts in turn and then shuffles them (random.shuffle under the same seed
  0, vllm/benchmarks/datasets.py), so the prompts an earlier run had sent are spread at random through each run, not sent
  first: a request is cached or new on its own draw. The prefill pool's simulation now runs whole prompts and draws each
  request cached with its pool's share (sim.Config.CachedShare: a cached one computes the 8 tokens after its last full block,
  attending over the 4,992 cached, a new one all 5,000), instead of every request at the mean uncached share (2,504 tokens at
  50%). Its API server tokenizes the whole prompt either way (the mean had charged tokenizing only the uncached share). The
  capacity, the hand-off (each read priced at the mean blocks the decode cache lacks) and the decode pool are unchanged; the
  simulator's cached-prefix rule refused any layout with a fixed KV part, which gpt-oss-120b's sliding-window page beyond the
  window is, so a request drawn cached is served whatever that part (vLLM's sliding-window manager serves prefix hits:
  vllm/v1/core/single_type_kv_cache_manager.py, SlidingWindowManager.find_longest_cache_hit; estimate/pd draws only for
  pools with no recurrent state). Before → after, TTFT mean / median error: TP4 : TP4 c8 −21 / −29% → −13 / −17%, c32
  −29 / −37% → −18 / −16%, c64 −32 / −42% → +14 / +59%; spread c16 −47 / −49% → −34 / −22%, c48 −41 / −56% → −16 / +7%;
  TP2 : 3 × TP2 c16 −15 / −17% → −0 / −5%; 2 × TP2 : TP2 c32 −31 / −35% → −23 / −21%; 2 × TP2 : TP4 c16 −61 / −74% → −57 /
  −68%; H200 c16 −31 / −30% → −16 / −3%, c64 −28 / −34% → +23 / +95%. Calibration TTFT mean 4 → 8 of 10 within ±30%
  (median error −31% → −16%), median 2 → 7 (−36% → −11%); throughput 10 of 10 (median −8% → −9%); the held-out rows carry
  no reuse and do not move. Nothing is fitted. Part by part (the table above), the finite runs' prefill queue grows 13–32 ms
  (the new prompts' 5,000-token steps hold the cached prompts behind them) and their API servers' part 7–220 ms: at 48 and 64
  sessions the cohorts reach each engine's one API server together and the simulator tokenizes their whole prompts one after
  another (97.5 → 317.5 ms on the H200 c64 row), which is why the 64-session medians now overshoot. vLLM's API server
  tokenizes through AsyncMicrobatchTokenizer (one thread, batches of up to 32 prompts gathered for 2 ms: read in a stored
  copy of vllm/utils, not at the 0.11.0 tag) and HuggingFace's batch encode spreads a batch over threads, so a cohort may
  tokenize faster than one prompt after another: not modelled (the colocated front end's question). What else the Anyscale
  rows lack: 2 × TP2 : TP4 at 16 sessions is still −57%, and the same deployment's first run, at 4 sessions with nothing
  cached, already shows why: its median TTFT is 567 ms against 255 ms for 2 × TP2 : TP2 and 205 ms for TP4 : TP4 at 4
  sessions (bm_results/gptoss_itl5000_otl250_mixed_pd_p2xtp2-d1xtp4/, ..._pd_p2xtp2-d1xtp2/, ..._pack_p1xtp4-d1xtp4/conc4.json at
  04ba8ab4), ~300 ms a request that only the decode pool's larger TP (each TP4 rank reading half the heads of a TP2
  rank's blocks) distinguishes; vLLM 0.11.0's NixlConnector, read since, counts no extra work there (*Heterogeneous TP
  in the hand-off* below), so nothing is charged; the hand-off of a cached prompt (one block) against a new
  one (all 313) is priced at its mean, so TTFT's spread lacks the hand-off's share of the two populations. Ray Serve LLM's
  request path, read in ray-project/ray's python/ray/llm/_internal/serve/deployments/prefill_decode_disagg/pd_server.py
  (a stored version, commit 1436d128; whether Ray 2.51 has this exact file is not read): PDProxyServer deep-copies the
  request, sends it to a prefill LLMServer replica through a DeploymentHandle with max_tokens 1 and stream off, awaits the
  whole answer, then sends a second copy with the returned kv_transfer_params to a decode replica and relays its stream: two
  Ray actor calls in series before the first token, each LLMServer tokenizing the prompt in its own process (vLLM's serving
  layer in-process); the older prefill_decode_disagg.py (commit 00951ddc) has the same PDProxyServer._predict behind an
  LLMRouter ingress replica. Their cost under load is not measured (ray-project/ray#59681: +20 ms mean TTFT at 10 sessions,
  not P/D); Ray Serve's release microbenchmarks time one HTTP request to one no-op replica (p50 2.2 ms with the
  throughput-optimized configuration, ray-project/ray#55900; 3.6 ms on a laptop, #47430), a floor for one hop without an LLM
  request's payload or stream, not a per-hop cost of this path, so it is still not charged (pd44 looked again).
- **TTFT under load in the colocated baselines: the client's cohorts** (December 2026; 'go test ./estimate/pd -run TestTTFTLoad
  -ttftload -v' prints the table, part by part and step by step). The replay had run the colocated baselines as check's
  steady closed loop, its sessions staggered over a request's duration and its warm-up discarded, so each prompt reached the
  engine nearly alone (64 sessions on 2 × TP4: one 29 ms step of queue, one 69 ms step of prefill) and TTFT hardly grew with the
  load (83 → 109 ms from 8 to 64 sessions, −64% to −81%). The clients start every session at once (vllm bench serve --max-concurrency with an
  unbounded rate, genai-perf --concurrency) and, with fixed lengths and ignore_eos, the sessions stay in cohorts: the first
  round is a staircase of max_num_batched_tokens-sized prefill steps (vLLM V1 schedules the running requests first, then admits
  waiting prompts into what is left of the budget, chunking the last one: vllm/v1/core/sched/scheduler.py, schedule(); 8,192
  tokens for vLLM 0.11's API-server context on an H100, which Ray Serve LLM passes to vLLM since ray-project/ray PR #55159,
  opened 2025-08-01 and merged: that the source's Ray 2.51 carries it is inferred from the dates), and every
  later round arrives at the pace the last one's prompts finished, each request landing just after a step began and waiting
  it out. The simulator has both (a finite run's sessions start at t=0); replayed as the clients ran (burst_requests =
  num_prompts) the colocated median TTFT error is −15% (was −64%) on the calibration source, its rows from −32% to +45% (were
  −43% to −81%), and −32% (was −60%) held out. TPOT and throughput move little on the calibration source (TPOT +29% → +22%,
  throughput −11% → −12%); held out, the Dynamo runs' TPOT falls with the run's ramp-down, which the finite run now includes
  as the client measured it (+47% → +32%, +13% → −6%, −6% → −24%: median +13% → −6%; throughput +19% → +18%). What is left: the model's later rounds re-form a conveyor that
  queues one to three steps, where the measured runs keep queueing more (64 sessions: predicted median 290 ms against 505), and
  its first round's staircase runs longer than measured (p99 2,107 against 1,637); the TP2 rows overshoot (4 × TP2 at 16
  sessions: +45%). The P/D rows are now replayed the same way (next).
- **The P/D rows as their clients ran them** (December 2026; the table *Steady state against the client's run* above). pd.Evaluate
  now has a finite mode for workload.burst_requests (estimate/pd/finite.go), and the replay states every closed-loop row's request
  count (burst_requests = num_prompts: vllm bench serve's --num-prompts, genai-perf's --request-count; genai-perf's warm-up
  requests are not replayed and the measured run is taken to start idle, as for the colocated baselines: that genai-perf lets the
  warm-up drain first is not read). On top of the steady composition: the decode pool runs the finite run of the C sessions and
  N requests, its first round spread uniformly over the time the prefill pool takes to prefill C prompts at its capacity (the
  staircase), each later request back after the steady loop's prefill and hand-off; then the prefill pool runs it from t=0, each
  session's next prompt after the hand-off and that decode run's mean time. Both runs' think times are fixed
  (sim.Config.ThinkFixed), not exponential: with fixed lengths and ignore_eos the sessions keep the phase the first round gave
  them (a conveyor, as the colocated cohorts above), where exponential think times bunched them again and stretched the run's tail
  (H100 TP4 : TP4 at 8 sessions: 11.8 s for the 40 requests against 11.1 s from the cycles and the staircase). TTFT is composed
  as in the steady mode (the pools' distributions convolved as independent, plus the hand-off); the request rate is the run's N
  requests over its length (the decode run's, plus an idle prompt and the hand-off before its first arrival). Calibration
  source: TTFT mean 4 → 6 of 10 within ±30% (median error −31% → +16%), median 5 → 5 (−21% → −7%), TPOT 9 → 9 (+22% → +20%,
  the ramp-down), throughput 10 → 9 (−6% → −16%). The rows the steady loop had too low rise into the band (TP4 : TP4 at 32
  sessions −39% → +17%, spread at 16 and 48 sessions −55% → −20% and −43% → +16%, 2 × TP2 : TP2 −38% → −1%, H200 at 16 +13%);
  2 × TP2 : TP4 at 16 sessions stays low (−55% → −42%; median −60%: its published median, 651 ms, is above its mean, 628 ms, where
  the model's queue is right-skewed, a few late prompts of the staircase over many short waits). Worse: the two rows of 64 sessions on one TP4 prefill instance
  (H100 +19% → +102%, H200 +102% → +195%). The model's prefill pool serves 14.96 and 14.92 prompts/s there, below the 16.9 and
  17.6 requests/s the source's runs served through it, so the steady loop already ran it at 99–103% of capacity, and the
  finite run adds the first round's staircase at that capacity (64 prompts over 4.3 s, ~0.4 s of the mean); the colocated
  reading above measured the same step on the same source (a TP4 engine's first-round staircase: 32 prompts in 1.64 s measured,
  ~2.1 s predicted, ~20 against ~15 prompts/s), a prefill step-model error (estimate/perf), not the composition's. Throughput
  moves because the steady composition's rate ran up to 9% above its own sessions / (TTFT + 249 × TPOT) — a closed loop kept all
  its sessions decoding while 0.7 of them were in prefill and hand-off (the correction by Little's law runs only from 1.5 away) —
  where the published runs' rate is 0.91–0.99 of that figure (their ramp-up and ramp-down) and the finite run's 0.95–1.04: the
  throughput error is now the TPOT's (+62% → −32% on 2 × TP2 : TP2, the one row out of ±30%). Held out (read to test the
  mechanism only, nothing tuned to it: the Dynamo rows' TTFT, TPOT, throughput and E2E): TPOT +98/+95/+174% → +54/+38/+72% (the
  ramp-down of runs of 10–19 rounds), throughput −40/−46/−51% → −44/−49/−52%, and TTFT +10/+116/+8% → +119/+298/+179%: their
  decode engines compute every prompt at the step model's 2.5× too slow B200 FP8 prompt (above), and the first round's
  staircase now lands on them; the steady loop's right TTFT on two rows was that error cancelled by the missing staircase.
  The llm-d rows (constant-rate, 5,400 requests over 120 s) stay the steady open loop they approach.
- **Client caps** (December 2026). A rate row whose client also held the requests in flight (load.concurrency beside the rate:
  vllm bench serve --request-rate R --max-concurrency C) is replayed capped (pd.RowClientCap, pd.EvaluateCapped: the client's
  wait in no latency; arrivals faster than C sessions sustain run as the closed loop of C, slower ones as the open loop with
  each pool's simulation capped at C less what the rest of the system holds, Little's law; on an exactly solvable queue,
  cappedchain_test.go, that rule's prefill time errs −11% to +4% where it is used, low next to the closed loop's regime, where
  ignoring the cap errs +11% to +83%). No row states one, so no figure
  moves: benchmark_serving.py --request-rate 3.6 --burstiness 100 (vllm-pr-18242) ran without --max-concurrency; inference-perf
  (the llm-d rows) holds each worker process to worker_max_concurrency requests, 100 by default since v0.2.0 (10 at v0.1.0),
  over num_workers processes, os.cpu_count() by default (kubernetes-sigs/inference-perf inference_perf/config.py at
  v0.2.0–v0.5.0, config/loadgen/config.py at v0.6.1; load_generator.py's Worker.loop acquires the semaphore before taking a
  request), and the sources state neither the version's settings nor the client's CPUs: from two workers on, the cap (200) is
  above the ≈105–120 requests the rate-45 rows held on average (requests/s × mean end-to-end: 42.6 × 2.78 s, 44.3 × 2.36 s),
  one worker's (100) below it. They stay uncapped.
- **Heterogeneous TP in the hand-off** (December 2026, hetero43; vllm.NixlHeteroTPSource). Read at the v0.11.0 tag
  (vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py): a decode rank of TP d reading a prefill of TP p < d
  handshakes once per prefill engine, in a background thread on the first request that names it, with the one prefill rank
  tp_rank ÷ (d ÷ p) (_nixl_handshake); add_remote_agent describes every remote block of every region at the decode rank's own
  block length, offset by tp_rank % (d ÷ p) × that length into the prefill block (its heads; contiguous because the connector
  forces the HND layout and refuses a layout mismatch), so _read_blocks posts one READ of regions × blocks descriptors, the
  count of a TP d : TP d hand-off, each descriptor a decode block; the prefill rank frees the blocks after d ÷ p notifications;
  there is no host-side loop per request beyond the descriptor-id arithmetic both share. For 2 × TP2 : TP4 on one node that
  is 72 × 313 = 22,536 descriptors of 4 KiB per decode rank, as for TP4 : TP4, and the same 92 ms of cuda_ipc posting
  (TestTransferHeteroTPSameWork); the bytes leave two GPUs instead of four (185 MB each instead of 92, already bounded by sameNodeLink). The
  ~300 ms a request that the 4-session run shows over TP4 : TP4 and 2 × TP2 : TP2 therefore has no counted cause in vLLM's
  code: no NIXL or UCX measurement prices a sliced descriptor or two readers of one GPU above a whole one, so the row stays
  (−57% / −68%). What differs from one release to the next, and is now counted: between nodes the p prefill ranks send every
  byte the d decode ranks pull, so the transfer moves at the NICs the prefill ranks sit on where they are fewer
  (pd.UseSenderNICs; before, the decode ranks' NICs alone, the same bound sameNodeLink already took inside a node): the
  held-out llm-d CoreWeave row, 8 × TP1 : 2 × TP4, goes from 1.97 to 7.89 ms of hand-off (one NIC, not four) and its TTFT mean
  from −42% to −41% (its NICs unknown, check's default of one per GPU). Its GKE twin did not move then, and that was the
  replay's doing: it writes each instance as a node of its own under one network section sized for the decode instance
  (published.go footer: 4 NICs), so its one-GPU prefill nodes carried 4 NICs where A3 Ultra gives each GPU one. Since pd44
  each pool is priced at its own instances' share of the row's NICs (pd.UsePoolNICs, published.go rowNICs: 1 NIC per TP1
  prefill instance, 4 per TP4 decode instance; the NICs between the pools carry the smaller side's nodes together,
  transfer.go nicsCarry, 400 GB/s either way here): its hand-off goes from 1.97 to 7.89 ms (50 GB/s, not 200), its TTFT mean
  from 300 to 305 ms and median from 250 to 255 (−74% and −77% both times); no other row has pools of unequal instances on
  nodes of their own with stated NICs, so none moves. From v0.11.1 (read at the tag:
  register_local_xfer_handler, get_mapped_blocks; v0.11.0 asserts one block size) a prefill block smaller than the decode's is
  read prefill block by prefill block, so descriptors count at the smaller block (vllm.NixlDescriptorBlockSize; vLLM's own
  lists stay per block through v0.24.0, pull_worker._read_blocks) and vllm.NixlBlockSizes is Present from 0.11.1 (was
  inferred ≈0.12); no row has unequal block sizes. Not priced: the device-side re-layouts after such a read
  (blocksize_post_process, and permute_device_kv for an NHD decode reading an HND prefill with enable_permute_local_kv, from
  v0.11.1), an index_select, permute and index_copy per region at HBM bandwidth; and the handshake's one-off
  add_remote_agent loop over every remote block of every region, whose cost no source measures.
- No fudge constant is added: a TTFT or TPOT correction fitted here would be a colocated step-model or front-end constant in
  disguise and belongs to the colocated calibration (throughput.yaml's gpt-oss rows show the same per-release prefill-step and
  host misses: docs/calibration-throughput.md, inferencex-828).
`

// median is the middle value (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// worstOf is the error of largest magnitude.
func worstOf(xs []float64) float64 {
	w := 0.0
	for _, x := range xs {
		if math.Abs(x) > math.Abs(w) {
			w = x
		}
	}
	return w
}

// TestClientCounted: a client that counts more output tokens than the
// engine generated (inference-perf re-tokenizing 250 generated tokens as
// 283) sees the same time between its first and last chunk divided by 282,
// and 283 tokens per request; a count at or below the engine's, or none,
// leaves the prediction as it is.
func TestClientCounted(t *testing.T) {
	p := predicted{TTFTMean: 0.4, TPOTMean: 0.0145, OutTokPerS: 11250, RequestsPerS: 45, E2EMean: 4}
	row := func(mean published.Num) published.PDRow {
		var r published.PDRow
		r.Workload.OutputTokensMean = mean
		return r
	}
	for _, c := range []struct {
		name          string
		mean          published.Num
		tpot, outTokS float64
	}{
		{"re-tokenized 283", published.N(283), 0.0145 * 249 / 282, 45 * 283},
		{"unknown", published.Num{}, 0.0145, 11250},
		{"fewer (EOS)", published.N(200), 0.0145, 11250},
		{"equal", published.N(250), 0.0145, 11250},
	} {
		got := clientCounted(p, row(c.mean), 250)
		if math.Abs(got.TPOTMean-c.tpot) > 1e-12 || math.Abs(got.OutTokPerS-c.outTokS) > 1e-9 {
			t.Errorf("%s: TPOT %.6f, tok/s %.1f; want %.6f, %.1f", c.name, got.TPOTMean, got.OutTokPerS, c.tpot, c.outTokS)
		}
		if got.TTFTMean != p.TTFTMean || got.RequestsPerS != p.RequestsPerS || got.E2EMean != p.E2EMean {
			t.Errorf("%s: TTFT, request rate or E2E changed: %+v", c.name, got)
		}
	}
}

// TestClientArrivalsKnown: every source of a rate row names the arrival
// process its client drew (clientArrivals), a Poisson client's as B = 1,
// and the replayed spec carries it: a source added without reading its
// client fails here rather than being replayed as Poisson unsaid.
func TestClientArrivalsKnown(t *testing.T) {
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, r := range set.Rows {
		if !rateLoad(r) {
			continue
		}
		a, ok := clientArrivals[r.Source]
		used[r.Source] = true
		switch {
		case !ok || a.Burstiness <= 0 || a.Why == "":
			t.Errorf("%s (source %s, load %s): no arrival process read for its client", r.ID, r.Source, r.Load.Kind)
			continue
		case r.Load.Kind == published.LoadPoisson && a.Burstiness != 1:
			t.Errorf("%s: a Poisson load replayed with burstiness %g", r.ID, a.Burstiness)
		}
		y, _ := pdSpec(r)
		want := fmt.Sprintf("arrival_burstiness: %g", a.Burstiness)
		if got := strings.Contains(y, want); got != (a.Burstiness != 1) {
			t.Errorf("%s: the replayed spec says %q: %v, want %v:\n%s", r.ID, want, got, a.Burstiness != 1, y)
		}
		in := resolveSpec(t, r.ID, y)
		pre, _ := testinput.Pools(t, in.Resolved())
		if got, pool := in.Workload.Burstiness(), pre.Workload.Burstiness(); got != a.Burstiness || pool != a.Burstiness {
			t.Errorf("%s: resolved burstiness %g, the prefill pool's %g; want %g", r.ID, got, pool, a.Burstiness)
		}
	}
	for src := range clientArrivals {
		if !used[src] {
			t.Errorf("clientArrivals names %s, which has no rate row", src)
		}
	}
}
