package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// expand writes runs out rank by rank, as Step takes them.
func expand(runs []RankRun) []RankLoad {
	var out []RankLoad
	for _, r := range runs {
		for i := 0; i < r.N; i++ {
			out = append(out, r.Loads...)
		}
	}
	return out
}

// TestStepRunsMatchesStep: the compact form gives the step the ranks
// written out give, term by term, for tiled patterns, uniform loads, a
// busy first rank and a ceil share with a remainder, over layouts with
// TP below, at and above a node, several nodes per rank pattern, PP, and
// every all-to-all mechanism (the node spread matters to each).
func TestStepRunsMatchesStep(t *testing.T) {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	load := func() RankLoad {
		d := float64(rng.IntN(9))
		p := float64(rng.IntN(3) * 700)
		return RankLoad{DecodeSeqs: d, DecodeCtx: d * float64(100+rng.IntN(4000)), PrefillTokens: p, PrefillPairs: p * p, PrefillPrefix: p / 2, PrefillSeqs: math.Min(p, 1)}
	}
	for _, lay := range []struct{ tp, pp, dp, perNode int }{
		{1, 1, 32, 8}, {1, 1, 24, 8}, {2, 1, 16, 8}, {8, 1, 4, 8}, {16, 1, 2, 8}, {1, 2, 16, 8}, {4, 1, 6, 4}, {1, 1, 20, 6},
	} {
		for i, a2a := range []vllm.Traffic{vllm.TrafficGather, vllm.TrafficPerNode, vllm.TrafficPerExpert} {
			setup := StepSetup{Model: m, HW: NewHardware(g, lay.perNode, 450, 2, 25, 1, 10), TP: lay.tp, PP: lay.pp, DP: lay.dp, EP: true,
				WeightDType: "fp8", KVDType: "bf16", A2A: a2a, CUDAGraphs: true, DBO: a2a != vllm.TrafficGather, Eff: DefaultEfficiency}
			if i == 1 { // speculative decoding: MTP draft passes over the same ranks
				setup.SpecTokens, setup.SpecAccepted = 2, 2.57
			}
			sm := NewStepModel(setup)
			cases := map[string][]RankRun{
				"uniform":   {{Loads: []RankLoad{load()}, N: lay.dp}},
				"first":     {{Loads: []RankLoad{load()}, N: 1}},
				"ceilshare": {{Loads: []RankLoad{load()}, N: lay.dp / 3}, {Loads: []RankLoad{load()}, N: 1}},
			}
			for _, k := range []int{1, 2, 4, 8} {
				if lay.dp%k == 0 {
					pat := make([]RankLoad, k)
					for i := range pat {
						pat[i] = load()
					}
					cases[fmt.Sprint("tiled", k)] = []RankRun{{Loads: pat, N: lay.dp / k}}
					cases[fmt.Sprint("halftiled", k)] = []RankRun{{Loads: pat, N: lay.dp / k / 2}}
				}
			}
			for name, runs := range cases {
				got, want := sm.StepRuns(runs), sm.Step(expand(runs))
				if !close(got, want) {
					t.Errorf("TP%d PP%d DP%d/%d %v %s:\n got %+v\nwant %+v", lay.tp, lay.pp, lay.dp, lay.perNode, a2a, name, got, want)
				}
			}
		}
	}
}

func close(a, b StepTime) bool {
	av, bv := []float64{a.TotalS, a.A2AS, a.ExpertS, a.DenseS, a.InterBytesPerNode, a.IntraBytesPerGPU, a.TPS, a.PPS, a.OverheadS, a.SpecDraftS},
		[]float64{b.TotalS, b.A2AS, b.ExpertS, b.DenseS, b.InterBytesPerNode, b.IntraBytesPerGPU, b.TPS, b.PPS, b.OverheadS, b.SpecDraftS}
	for i := range av {
		if math.Abs(av[i]-bv[i]) > 1e-9*math.Max(1e-12, math.Abs(bv[i])) {
			return false
		}
	}
	return true
}

// BenchmarkStepRunsLargeDP: a step over 80,000 DP ranks described as 64
// representative ranks tiled over the cluster costs what 64 ranks cost.
func BenchmarkStepRunsLargeDP(b *testing.B) {
	m, _ := catalog.LookupModel("deepseek-v3")
	g, _ := catalog.LookupGPU("h20-96g")
	sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 450, 2, 25, 1, 10), TP: 1, PP: 1, DP: 80000, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerNode, CUDAGraphs: true, Eff: DefaultEfficiency})
	pat := make([]RankLoad, 64)
	for i := range pat {
		pat[i] = RankLoad{DecodeSeqs: float64(i % 7), DecodeCtx: float64(1000 * (i % 7))}
	}
	runs := []RankRun{{Loads: pat, N: 80000 / 64}}
	for b.Loop() {
		sm.StepRuns(runs)
	}
}

// TestStepSkipsOnlyDominatedRanks: StepRuns skips the rank time of a rank
// that carries no more of anything than the slowest so far (rankTime grows
// with every field), so the step's dense and attention parts are still
// those of the slowest rank, whatever the order of the ranks.
func TestStepSkipsOnlyDominatedRanks(t *testing.T) {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	hw := NewHardware(g, 8, 450, 2, 25, 1, 10)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tp := range []int{1, 8} {
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: tp, PP: 1, DP: 64, EP: true, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: DefaultEfficiency})
		for trial := 0; trial < 200; trial++ {
			loads := make([]RankLoad, 64)
			var slowest float64
			for i := range loads {
				d := float64(1 + rng.IntN(2))
				p := 0.0
				if trial%2 == 1 && rng.IntN(8) == 0 { // half the steps decode only
					p = float64(rng.IntN(3000))
				}
				loads[i] = RankLoad{DecodeSeqs: d, DecodeCtx: d * float64(rng.IntN(8000)), PrefillTokens: p, PrefillPairs: p * p / 2, PrefillPrefix: float64(rng.IntN(2000)) * math.Min(p, 1), PrefillSeqs: math.Min(p, 1)}
				slowest = math.Max(slowest, sm.rankTime(loads[i], nil))
			}
			st := sm.Step(loads)
			if got := st.DenseS + st.AttentionS; math.Abs(got-slowest) > 1e-12*slowest {
				t.Fatalf("TP %d trial %d: dense+attention %.9g s, slowest rank %.9g s", tp, trial, got, slowest)
			}
		}
	}
}

// TestStepMemoIsStepRuns: a memo reused over a run of steps — contexts
// growing while the counts stay (a steady stretch), then counts changing,
// a rank going idle, the ranks' number changing — gives what StepRuns
// gives at every step, term by term, with and without MTP draft passes.
func TestStepMemoIsStepRuns(t *testing.T) {
	for _, spec := range []int{0, 3} {
		testStepMemo(t, spec)
	}
}

func testStepMemo(t *testing.T, spec int) {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	setup := StepSetup{Model: m, HW: NewHardware(g, 8, 450, 2, 25, 1, 10), TP: 1, PP: 2, DP: 16, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, CUDAGraphs: true, DBO: true, Eff: DefaultEfficiency}
	if spec > 0 {
		setup.SpecTokens, setup.SpecAccepted = spec, 2.2
	}
	sm := NewStepModel(setup)
	if (sm.draft != nil) != (spec > 0) {
		t.Fatalf("spec %d: draft model %v", spec, sm.draft != nil)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	loads := make([]RankLoad, 16)
	var memo StepMemo
	for step := 0; step < 300; step++ {
		switch {
		case step%50 == 0: // new counts
			for i := range loads {
				d, p := float64(rng.IntN(40)), float64(rng.IntN(2)*rng.IntN(4000))
				loads[i] = RankLoad{DecodeSeqs: d, DecodeCtx: d * 900, PrefillTokens: p, PrefillPairs: p * p / 2, PrefillSeqs: math.Min(p, 1)}
			}
		case step%50 == 10: // a prefill chunk grows, every other count the same
			loads[0].PrefillTokens, loads[0].PrefillSeqs = loads[0].PrefillTokens+512, 1
		case step%50 == 20: // a sequence starts decoding on one rank
			loads[1].DecodeSeqs++
		case step%50 == 25: // one rank goes idle, the last leaves the step
			loads[3] = RankLoad{}
			loads = loads[:15]
		}
		for i := range loads { // the steady part: contexts grow
			loads[i].DecodeCtx += loads[i].DecodeSeqs
			loads[i].PrefillPrefix += loads[i].PrefillTokens
		}
		runs := []RankRun{{Loads: loads, N: 1}}
		if got, want := sm.StepRunsMemo(runs, &memo), sm.StepRuns(runs); got != want {
			t.Fatalf("spec %d step %d:\n memo %+v\nfresh %+v", spec, step, got, want)
		}
		if step%50 == 49 {
			loads = loads[:16]
		}
	}
}

// TestPrefillIdleIntegratesLongPrompts: beyond exactChunks chunks the
// prompt's steps are integrated, within 1e-3 of stepping through them
// (TTFT and each sum), for dense-and-MoE layouts, short and long chunks.
func TestPrefillIdleIntegratesLongPrompts(t *testing.T) {
	eachPrefillModel(t, func(name string, lay prefillLayout, sm *StepModel) {
		for _, c := range []int{64, 2048} {
			n := (exactChunks*3+7)*c + c/3
			got := sm.PrefillIdle(n, c)
			var exact prefillSums
			for p := 0; p < n; p += c {
				exact.add(sm.prefillChunk(p, min(c, n-p), p+c >= n), 1)
			}
			for _, f := range []struct {
				what      string
				got, want float64
			}{{"TTFT", got.TTFTS, exact.total}, {"network", got.NetworkS, exact.net}, {"compute", got.ComputeS, exact.computeS}, {"NIC bytes", got.InterBytesPerNode, exact.inter}} {
				if math.Abs(f.got-f.want) > 1e-3*math.Abs(f.want) {
					t.Errorf("%s TP%d DP%d chunk %d: %s %.6g, stepping through %.6g", name, lay.tp, lay.dp, c, f.what, f.got, f.want)
				}
			}
			if got.Steps != (n+c-1)/c {
				t.Errorf("%d steps for %d chunks", got.Steps, (n+c-1)/c)
			}
		}
	})
}

// prefillLayout is a layout the prefill tests run on.
type prefillLayout struct{ tp, dp int }

// eachPrefillModel calls f with the step model of a dense and an MoE model
// on H20s, at TP 8 and at DP 16.
func eachPrefillModel(t *testing.T, f func(name string, lay prefillLayout, sm *StepModel)) {
	t.Helper()
	for _, name := range []string{"deepseek-v3", "llama-3.1-70b"} {
		m, err := catalog.LookupModel(name)
		g, gerr := catalog.LookupGPU("h20-96g")
		if err != nil || gerr != nil {
			t.Fatal(err, gerr)
		}
		for _, lay := range []prefillLayout{{8, 1}, {1, 16}} {
			f(name, lay, NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 450, 2, 25, 1, 10), TP: lay.tp, PP: 1, DP: lay.dp, EP: lay.dp > 1 && m.IsMoE(),
				WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, Eff: DefaultEfficiency}))
		}
	}
}

// TestPrefillFloorIsALowerBound: PrefillFloor never exceeds PrefillIdle,
// equals it on prompts of at most floorGroups chunks, and stays within 5%
// of it on long ones (dense and MoE, TP and DP, short and long chunks).
func TestPrefillFloorIsALowerBound(t *testing.T) {
	eachPrefillModel(t, func(name string, lay prefillLayout, sm *StepModel) {
		for _, c := range []int{64, 2048} {
			for _, n := range []int{c / 2, floorGroups*c + 5, 100*c + c/3, 3000 * c} {
				floor, idle := sm.PrefillFloor(n, c), sm.PrefillIdle(n, c).TTFTS
				if floor > idle*(1+1e-9) || floor < 0.95*idle {
					t.Errorf("%s TP%d DP%d chunk %d, %d tokens: floor %.6g, idle %.6g", name, lay.tp, lay.dp, c, n, floor, idle)
				}
				if n <= floorGroups*c && math.Abs(floor-idle) > 1e-9*idle {
					t.Errorf("%d tokens in %d chunks: floor %.9g, idle %.9g, want equal", n, (n+c-1)/c, floor, idle)
				}
			}
		}
	})
}

// TestPassesCountsDraftPasses: a step evaluates the target once, and with
// MTP one more pass for the first draft and one for the rest.
func TestPassesCountsDraftPasses(t *testing.T) {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	for spec, want := range map[int]int{0: 1, 1: 2, 3: 3} {
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 450, 2, 25, 1, 10), TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: DefaultEfficiency}
		if spec > 0 {
			s.SpecTokens, s.SpecAccepted = spec, 1.8
		}
		if got := NewStepModel(s).Passes(); got != want {
			t.Errorf("%d draft tokens: %d passes, want %d", spec, got, want)
		}
	}
}
