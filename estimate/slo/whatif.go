package slo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/layouts"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Alternative is one changed configuration run through the same memory and
// performance models (analytic steady state, no simulation).
type Alternative struct {
	Name string `json:"name"`
	// Fits is false when the weights or one max-length sequence do not fit.
	Fits            bool  `json:"fits"`
	KVTokensPerRank int64 `json:"kv_tokens_per_rank"`
	// KVSeqsPerRank is how many sessions (kvSessionTokens) one rank's KV
	// pool holds (memory.Report.SequencesFit).
	KVSeqsPerRank int     `json:"-"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	TPOTS         float64 `json:"tpot_s"`
	// IdleTTFTS is the idle-system TTFT per SLO input length.
	IdleTTFTS map[int]float64 `json:"idle_ttft_s"`
	Binding   string          `json:"binding"`
	in        input.Input
	// backendOnly names the all-to-all backend when that is the variant's
	// only change ("" otherwise): the candidates of backendAdvice.
	backendOnly string
	// edit is the variant as a change to the spec, so a line naming it is
	// re-simulated on the deployment resolved again (wouldPassCheck).
	edit specEdit
	// replicas marks a variant of independent replicas (replicaLayouts):
	// kept only when it fits in memory, as plan keeps its candidates.
	replicas bool
}

// alternativeInputs lists the variants worth trying for this deployment:
// FP8 weights, the other all-to-all backends, one 400 Gbit/s NIC per GPU,
// TP within a node with DP across nodes, TP within a node with pipeline
// stages across nodes (when TP spans nodes), and the combination.
func alternativeInputs(in *input.Input) []Alternative {
	var out []Alternative
	add := func(name string, f func(*input.Input), e func(*spec.Deployment)) *Alternative {
		v := *in
		f(&v)
		// Whether vLLM captures CUDA graphs depends on the backend and DP
		// size, so the variant's own decide.
		v.SetCUDAGraphs()
		out = append(out, Alternative{Name: name, in: v, edit: specEdit{"alt " + name, e, func(d *input.Input) { *d = v }}})
		return &out[len(out)-1]
	}
	// INT8 W8A8 weights take FP8's bytes already; FP8 would need another
	// checkpoint, not a flag.
	// A pre-quantized copy model.path names (input.Input.CheckpointDType)
	// is served in its own format: FP8 is its weights only when it is FP8
	// (vLLM refuses --quantization fp8 on another method's checkpoint).
	ckpt := in.CheckpointDType()
	copyOK := ckpt == in.Model.CheckpointDType() || ckpt == "fp8"
	fp8 := in.WeightsDType != "fp8" && in.WeightsDType != "int8" && in.GPU.FP8TFLOPS > 0 && !catalog.NarrowerThanFP8(in.WeightsDType) && copyOK
	if fp8 {
		add("FP8 weights", func(v *input.Input) {
			v.WeightsDType, v.WeightsFromCheckpoint = "fp8", ckpt == "fp8"
		}, func(s *spec.Deployment) { s.Model.Weights = "fp8" })
	}
	moeDP := in.Model.IsMoE() && in.Layout.DP > 1 && in.Layout.EP
	multi := in.Layout.Nodes > 1
	if moeDP {
		for _, b := range []string{vllm.BackendAllgatherReducescatter, vllm.BackendDeepEPHighThroughput, vllm.BackendDeepEPLowLatency} {
			if in.All2AllBackend != b {
				add("all2all "+b, func(v *input.Input) { v.All2AllBackend = b },
					func(s *spec.Deployment) { s.VLLM.All2AllBackend = b }).backendOnly = b
			}
		}
	}
	fast := func(v *input.Input) { v.Network.InterGbitPerSPerNIC, v.Network.NICsPerNode = 400, v.Layout.GPUsPerNode }
	fastSpec := func(s *spec.Deployment) {
		s.Hardware.Network.InterNode.BandwidthGbitPerS, s.Hardware.Network.InterNode.NICsPerNode = 400, in.Layout.GPUsPerNode
	}
	if multi && in.Network.InterGbitPerSPerNIC*float64(in.Network.NICsPerNode) < 400*float64(in.Layout.GPUsPerNode) {
		add(fmt.Sprintf("inter-node %d × 400 Gbit/s NICs per node", in.Layout.GPUsPerNode), fast, fastSpec)
	}
	g, pp := in.Layout.GPUsPerNode, in.Layout.PP
	if dp := in.Layout.GPUs() / pp / max(1, g); in.Layout.TP != g && g > 1 && dp >= 1 && dp*g*pp == in.Layout.GPUs() && in.Model.TPSplitProblem(g) == "" && blockSplits(in, g, dp) {
		add(fmt.Sprintf("TP=%d DP=%d", g, dp), func(v *input.Input) { v.Layout.TP, v.Layout.DP = g, dp },
			func(s *spec.Deployment) { s.Parallelism.Tensor, s.Parallelism.Data = g, dp })
	}
	for _, l := range replicaLayouts(in) {
		// no parenthesis in a name: a line is "NAME (re-simulated: …)"
		name := fmt.Sprintf("TP=%d DP=%d × %d independent replicas, one per node", l.TP, l.DP, l.ReplicaCount())
		add(name, func(v *input.Input) { *v = v.WithLayout(l) },
			func(s *spec.Deployment) {
				s.Parallelism.Tensor, s.Parallelism.Pipeline, s.Parallelism.Data, s.Parallelism.Replicas = l.TP, l.PP, l.DP, l.Replicas
			}).replicas = true
	}
	if tp := in.Layout.TP; g > 1 && tp > g && tp%g == 0 && in.Model.TPSplitProblem(g) == "" {
		// TP across nodes: the same GPUs with TP inside each node and
		// pipeline stages across them (issue #27).
		add(fmt.Sprintf("TP=%d PP=%d", g, tp/g*pp), func(v *input.Input) { v.Layout.TP, v.Layout.PP = g, tp/g*pp },
			func(s *spec.Deployment) { s.Parallelism.Tensor, s.Parallelism.Pipeline = g, tp/g*pp })
	}
	if moeDP && multi && (fp8 || in.All2AllBackend != vllm.BackendDeepEPLowLatency) {
		dbo := dboWith(in, vllm.BackendDeepEPLowLatency)
		name := vllm.BackendDeepEPLowLatency + " + 400 Gbit/s per GPU"
		if dbo {
			name = vllm.BackendDeepEPLowLatency + " + DBO + 400 Gbit/s per GPU"
		}
		if fp8 {
			name = "FP8 weights + " + name
		}
		add(name, func(v *input.Input) {
			if fp8 {
				v.WeightsDType = "fp8"
			}
			v.All2AllBackend, v.EnableDBO = vllm.BackendDeepEPLowLatency, dbo
			fast(v)
		}, func(s *spec.Deployment) {
			if fp8 {
				s.Model.Weights = "fp8"
			}
			s.VLLM.All2AllBackend, s.VLLM.EnableDBO = vllm.BackendDeepEPLowLatency, dbo
			fastSpec(s)
		})
	}
	return out
}

// replicaLayouts are the independent replicas, one per node, that check
// tries for an engine spanning several nodes: of the layouts plan and
// `parallelism: auto` search on these hosts (layouts.Candidates: placed by
// resolve.Place, weights vLLM splits), those with one replica per node,
// the spec's expert parallelism and PP 1, with either the spec's TP (its
// DP shrunk to the node) or TP over the whole node; Alternatives drops
// those that do not fit in memory, as plan does. Replicas take every
// collective off the inter-node network, which the TP=g DP=n variant
// keeps for its all-to-all (qa43: MiniMax-M2.5 on 2 × 8 H20 at 25 Gbit/s,
// DP 16 with EP, TTFT p50 77 s: check named no alternative passing it,
// while plan's TP 8 × 2 replicas passes it at 139 ms).
func replicaLayouts(in *input.Input) []input.Layout {
	l := in.Layout
	if l.Nodes < 2 || l.ReplicaCount() > 1 || l.GPUs() <= l.GPUsPerNode || l.Auto {
		return nil
	}
	var out []input.Layout
	for _, c := range layouts.All(l.Nodes, l.GPUsPerNode, in.Model) {
		if c.ReplicaCount() == l.Nodes && c.PP == 1 && c.EP == l.EP && (c.TP == l.TP || c.TP == l.GPUsPerNode) {
			out = append(out, c)
		}
	}
	return layouts.Allowed(in, out) // layouts.Candidates' filters, on these few
}

// dboWith reports whether vLLM would run DBO for in with backend b
// (input.Input.DBO: the release has it and its assertion accepts b), so a
// variant offers DBO only where vLLM starts with it.
func dboWith(in *input.Input, b string) bool {
	v := *in
	v.All2AllBackend, v.EnableDBO = b, true
	return v.DBO()
}

// Alternatives evaluates every variant: memory first (KV capacity from
// Memory), then steady decode at the SLO's concurrency and idle TTFT.
func Alternatives(in *input.Input) []Alternative {
	alts := alternativeInputs(in)
	for i := 0; i < len(alts); i++ {
		a := &alts[i]
		mem := memory.Estimate(&a.in)
		a.KVTokensPerRank = mem.KVTokensPerRank
		a.KVSeqsPerRank = kvSeqsOf(&a.in, &mem)
		a.Fits = mem.Capacity.OneSequenceFits && mem.KVTokensPerRank > 0
		if a.replicas && !a.Fits {
			// plan prunes it by memory; a node too small for the model
			// is no replica to suggest
			alts = slices.Delete(alts, i, i+1)
			i--
			continue
		}
		sm := perf.NewStepModel(perf.SetupFromInput(&a.in))
		pt, st := sm.DecodeAt(max(1, in.Workload.Concurrency), in.MeanContext())
		a.OutputTokPerS, a.TPOTS, a.Binding = pt.OutputTokPerS, pt.TPOTS, stepBinding(st)
		a.IdleTTFTS = map[int]float64{}
		for _, n := range perfInputLengths(in) {
			a.IdleTTFTS[n] = sm.PrefillIdleCached(n, n-computedPrompt(&a.in, n), max(1, in.MaxNumBatchedTokens)).TTFTS // the cached prefix read, not computed (idlePrefill)
		}
	}
	return alts
}

// alternativesPassing names the variants that meet v. A variant is a
// candidate when the steady-state models predict it meets v (throughput
// in steady decode; TTFT percentiles as its idle TTFT scaled by this
// deployment's ratio of predicted to idle TTFT — an assumption); a
// candidate is named only when the deployment re-resolved with it and
// simulated (wp) meets v too — the steady figures alone said "pass" for
// variants that failed when applied (issue #27).
func alternativesPassing(in *input.Input, alts []Alternative, v *Verdict, wp *wouldPassCheck) []string {
	var out []string
	cands := alternativeCandidates(in, alts, v)
	wp.prefetchMeets(v, alternativeEdits(cands))
	for _, a := range cands {
		got, pass := wp.meets(v, a.edit)
		if !pass {
			continue
		}
		how := fmt.Sprintf("%s (re-simulated: %s", a.Name, textfmt.Quantity(got, v.Unit))
		if !strings.HasPrefix(v.Name, "TTFT") {
			how += ", " + a.Binding + "-bound in steady decode"
		}
		out = append(out, how+")"+wp.bandCaveat(v, a.edit))
	}
	// the alternatives that cost no other target first (sideEffects says
	// which would then fail): the change that passes everything leads
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Compare(strings.Count(a, " would then fail: "), strings.Count(b, " would then fail: "))
	})
	if len(out) == 0 && len(alts) > 0 {
		names := make([]string, len(alts))
		for i, a := range alts {
			names[i] = a.Name
		}
		out = append(out, "none of the alternatives tried passes alone: "+strings.Join(names, "; "))
	}
	return out
}

// alternativeCandidates are the alternatives alternativesPassing tries on
// v, in order: those that fit and whose steady-state prediction meets v.
func alternativeCandidates(in *input.Input, alts []Alternative, v *Verdict) []Alternative {
	var cands []Alternative
	for _, a := range alts {
		if !a.Fits {
			continue
		}
		pred, ok := alternativePrediction(in, a, v)
		if !ok || !((v.Unit == "tokens/s" && pred >= v.Target) || (v.Unit == "s" && pred <= v.Target)) {
			continue
		}
		cands = append(cands, a)
	}
	return cands
}

// alternativeEdits are the spec edits of alts.
func alternativeEdits(alts []Alternative) []specEdit {
	edits := make([]specEdit, len(alts))
	for i, a := range alts {
		edits[i] = a.edit
	}
	return edits
}

// prefetchAlternatives simulates ahead, side by side, the screening runs
// and confirmations alternativesPassing will ask for on every failing
// verdict of vs (wouldPassCheck.prefetchTries): the alternatives that
// pass the screen of one verdict only were confirmed alone, one verdict
// after another (qa43's MiniMax-M2.5: TP 1 × DP 8 × 2 replicas for TPOT,
// 0.13 s after the throughput target's two).
func prefetchAlternatives(in *input.Input, alts []Alternative, vs []Verdict, wp *wouldPassCheck) {
	var tries []meetsTry
	for i := range vs {
		if vs[i].Verdict == VerdictFail {
			tries = append(tries, meetsTry{&vs[i], alternativeEdits(alternativeCandidates(in, alts, &vs[i]))})
		}
	}
	wp.prefetchTries(tries)
}

func alternativePrediction(in *input.Input, a Alternative, v *Verdict) (float64, bool) {
	switch {
	case v.Unit == "tokens/s":
		return throughputOf(in, perf.DecodePoint{OutputTokPerS: a.OutputTokPerS}, in.SLO.ThroughputCounts == "total"), true
	case strings.HasPrefix(v.Name, "TPOT"):
		return a.TPOTS, true
	case strings.HasPrefix(v.Name, "TTFT"):
		var n int
		if _, err := fmt.Sscanf(v.Name[strings.Index(v.Name, " at ")+4:], "%d", &n); err != nil {
			return 0, false
		}
		if a.replicas {
			// Independent replicas each serve their share of the sessions
			// on an engine of their own, with no collective between
			// nodes: they do not inherit this engine's queueing, so the
			// idle-system TTFT, a bound no run beats, screens them and the
			// re-simulation judges (qa43: MiniMax-M2.5 on 2 × 8 H20 at 25
			// Gbit/s, DP 16 with EP, TTFT p50 33.8 s of an idle 3.66 s:
			// TP 8 × 2 replicas, scaled by that queueing, was put at 1 s
			// and never run; it runs at 146 ms).
			return a.IdleTTFTS[n], a.IdleTTFTS[n] > 0
		}
		// A change to the same engine is assumed to queue as this one
		// does (an assumption: screening every variant by its idle TTFT
		// alone re-simulated variants that then failed, 0.06 s more CPU
		// on the reference example with nothing more to say).
		base := idlePrefill(perf.NewStepModel(perf.SetupFromInput(in)), in, n).TTFTS
		if base <= 0 {
			return 0, false
		}
		return a.IdleTTFTS[n] * max(1, v.Predicted/base), true
	}
	return 0, false
}

// sessionsWithAlternatives finds, over the alternatives that fit, the one
// reaching the throughput target with the fewest sessions in steady decode,
// or else the best throughput any of them reaches within max_num_seqs and
// KV capacity. The one that reaches it is re-simulated with those sessions
// (wp; sessionsReaching) and named as reaching it only when a run does.
func sessionsWithAlternatives(in *input.Input, alts []Alternative, v *Verdict, total bool, wp *wouldPassCheck) (string, bool) {
	var reach, top struct {
		c, dp, limit int
		tp           float64
		name         string
		edit         specEdit
		sm           *perf.StepModel
		in           *input.Input
	}
	target := v.Target
	for _, a := range alts {
		if !a.Fits {
			continue
		}
		sm := perf.NewStepModel(perf.SetupFromInput(&a.in))
		c, tp, ok := minSessionsFor(&a.in, sm, a.KVSeqsPerRank, target, total)
		if ok && (reach.c == 0 || c < reach.c) {
			reach.c, reach.tp, reach.name, reach.edit, reach.sm, reach.in = c, tp, a.Name, a.edit, sm, &a.in
			reach.dp, reach.limit = sm.S.DP, sessionsLimit(&a.in, a.KVSeqsPerRank)*sm.S.DP
		}
		if tp > top.tp {
			top.c, top.tp, top.name = c, tp, a.Name
		}
	}
	switch {
	case reach.c > 0:
		est := fmt.Sprintf("with %s, the steady-decode model puts it at %d concurrent sessions (%.0f tokens/s before prefill interference)", reach.name, reach.c, reach.tp)
		if !closedLoop(in) {
			return est + "; an estimate, not simulated", true
		}
		n, got, tried := sessionsReaching(v, func(c int) specEdit { return both(reach.edit, concurrencyEdit(c)) }, reach.c, reach.dp, reach.limit, wp)
		switch {
		case n > 0:
			// steady decode at the sessions named (it said "656 sessions
			// … steady decode 8557 at 240", the search's start)
			pn, _ := reach.sm.DecodeAt(n, reach.in.MeanContext())
			return fmt.Sprintf("with %s, %d concurrent sessions would reach %.0f tokens/s (re-simulated as check simulates that spec; steady decode %.0f)",
				reach.name, n, got, throughputOf(in, pn, total)) + wp.bandCaveat(v, both(reach.edit, concurrencyEdit(n))), true
		case tried != "":
			return est + tried + ": not shown to meet it", true
		}
		return est + "; an estimate, not simulated", true
	case top.c > 0:
		return fmt.Sprintf("no alternative tried reaches it at any concurrency: the best, %s, peaks at %.0f tokens/s in steady decode (before prefill interference) with %d sessions (KV capacity and max_num_seqs bound it)",
			top.name, top.tp, top.c), true
	}
	return "", false
}

// blockSplits reports whether vLLM accepts the layout at TP g × DP dp (the
// spec's EP) for the model's block-quantized weights
// (resolve.Layout.BlockSplitProblem), so no alternative names a layout vLLM
// refuses to start.
func blockSplits(in *input.Input, g, dp int) bool {
	l := in.Layout
	l.TP, l.DP = g, dp
	return l.BlockSplitProblem(in.Model, in.WeightsFromCheckpoint) == ""
}
