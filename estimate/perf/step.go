package perf

import (
	"math"
	"strconv"

	"github.com/vlaunch/vlaunch/vllm"
)

// RankLoad is the work one DP rank does in one engine step.
type RankLoad struct {
	// DecodeSeqs is the number of sequences generating a token this step.
	DecodeSeqs float64
	// DecodeCtx is the sum of their contexts (tokens already cached).
	DecodeCtx float64
	// PrefillTokens is the number of prompt tokens computed this step.
	PrefillTokens float64
	// PrefillPairs is Σ over prefill chunks of c·(p + (c+1)/2): the causal
	// query-key pairs of a chunk of c tokens after p cached tokens.
	PrefillPairs float64
	// PrefillPrefix is Σ over chunks of p (cached tokens the chunk reads).
	PrefillPrefix float64
	// PrefillSeqs is the number of prefill chunks (each samples a token).
	PrefillSeqs float64
	// PrefillFinal is how many of those chunks end their prompt; the others
	// have more of it to come, which vLLM schedules in the next micro-batch
	// (RankLoad.stageLoad). 0 counts every chunk as one with more to come.
	PrefillFinal float64
}

// Tokens is the number of token positions the rank pushes through the
// model: decode sequences verify 1 + SpecTokens positions each.
func (l RankLoad) tokens(spec int) float64 {
	return l.DecodeSeqs*float64(1+spec) + l.PrefillTokens
}

// within says l carries no more of anything than m: rankTime, which grows
// with every field, is then no longer for l than for m.
func (l RankLoad) within(m RankLoad) bool {
	return l.DecodeSeqs <= m.DecodeSeqs && l.DecodeCtx <= m.DecodeCtx && l.PrefillTokens <= m.PrefillTokens &&
		l.PrefillPairs <= m.PrefillPairs && l.PrefillPrefix <= m.PrefillPrefix && l.PrefillSeqs <= m.PrefillSeqs
}

func (l RankLoad) scaled(f float64) RankLoad {
	return RankLoad{l.DecodeSeqs * f, l.DecodeCtx * f, l.PrefillTokens * f, l.PrefillPairs * f, l.PrefillPrefix * f, l.PrefillSeqs * f, l.PrefillFinal * f}
}

// StepTime is one engine step, split into the terms the report shows.
// Per operation class the time is the roofline max of its compute time and
// its memory time; classes then add up (they run one after another).
type StepTime struct {
	DenseS     float64 `json:"dense_s"`     // attention/dense/shared projections + LM head (+ DeepSeek-V4's mHC)
	ExpertS    float64 `json:"experts_s"`   // routed experts
	AttentionS float64 `json:"attention_s"` // attention core (scores, softmax, values)
	// ComputeS and MemoryS are the same classes' compute-only and
	// memory-only times, summed (shown so the reader sees both sides).
	ComputeS float64 `json:"compute_s"`
	MemoryS  float64 `json:"memory_s"`
	// ComputeBoundS / MemoryBoundS split the roofline time by which side bound.
	ComputeBoundS float64 `json:"compute_bound_s"`
	MemoryBoundS  float64 `json:"memory_bound_s"`
	// A2AS is the MoE dispatch + combine time; TPS the TP all-reduces; PPS
	// the pipeline hand-offs.
	A2AS float64 `json:"all2all_s"`
	TPS  float64 `json:"tp_allreduce_s"`
	// DCPS is decode context parallelism's collectives (dcp.go): per
	// attention layer the queries' and the LSE's all-gathers and the
	// outputs' reduce-scatter over the DCP group.
	DCPS float64 `json:"dcp_s,omitempty"`
	PPS  float64 `json:"pp_handoff_s"`
	// InterBytesPerNode and IntraBytesPerGPU are the all-to-all bytes of the
	// busiest node's NICs and the busiest GPU's NVLink in this step.
	InterBytesPerNode float64 `json:"inter_bytes_per_node"`
	IntraBytesPerGPU  float64 `json:"intra_bytes_per_gpu"`
	// PPInterBytesPerNode is what the pipeline hand-offs of this step send
	// through the busiest node's NICs (one direction; zero when the stage
	// boundaries stay inside nodes): the bytes PPS is the time of
	// (ppHandoff).
	PPInterBytesPerNode float64 `json:"pp_inter_bytes_per_node,omitempty"`
	// KernelGapsS is the GPU time between and around the step's kernels
	// (kernels × Efficiency.KernelGapS, all stages): what a batch-1 decode
	// of a small model spends beyond reading its weights.
	KernelGapsS float64 `json:"kernel_gaps_s"`
	// Kernels is the number of kernels the step runs on its critical
	// path (all stages): every kernel but those DeepSeek-V4's aux streams
	// hide (StepModel.criticalKernels).
	Kernels float64 `json:"kernels"`
	// ExposedNetworkS is the communication time not hidden behind compute.
	ExposedNetworkS float64 `json:"exposed_network_s"`
	// OverheadS is the host's time on the critical path: work between
	// steps (HostS) and kernel launches the GPU waited for (LaunchS).
	OverheadS float64 `json:"overhead_s"`
	// HostS is the host's work between steps (scheduling, input
	// preparation, sampling, output processing) as costed, exposed or not;
	// LaunchS is the host's time to launch the step's kernels one by one
	// (steps without CUDA graphs), which overlaps the GPU's work.
	HostS   float64 `json:"host_s"`
	LaunchS float64 `json:"launch_s"`
	// SpecDraftS is speculative decoding's draft passes (spec_draft.go).
	SpecDraftS float64 `json:"spec_draft_s,omitempty"`
	TotalS     float64 `json:"total_s"`
	// Bindings is each term's binding, from the computation that priced
	// it (termbinding.go).
	Bindings TermBindings `json:"term_bindings"`
	// fusedNorms is the RMSNorm kernels per stage the fused TP all-reduce
	// takes in (networkTime): kernels the step does not run.
	fusedNorms float64
}

// Binding names the term that dominates the step.
func (t StepTime) Binding() string {
	best, name := t.ComputeBoundS, "compute"
	if t.MemoryBoundS > best {
		best, name = t.MemoryBoundS, "memory_bandwidth"
	}
	if t.ExposedNetworkS > best {
		best, name = t.ExposedNetworkS, "network"
	}
	if t.KernelGapsS > best {
		best, name = t.KernelGapsS, "kernel_gaps"
	}
	if t.OverheadS > best {
		name = "overhead"
	}
	return name
}

// StepUniform is a step where every DP rank carries the same load.
func (sm *StepModel) StepUniform(l RankLoad) StepTime {
	return sm.StepRuns([]RankRun{{Loads: []RankLoad{l}, N: sm.S.DP}})
}

// Step is one lock-step engine step over the DP ranks (len(loads) == DP;
// missing ranks are idle). The slowest rank sets the pace of the dense and
// attention parts; the experts see the tokens of every rank.
func (sm *StepModel) Step(loads []RankLoad) StepTime {
	return sm.StepRuns([]RankRun{{Loads: loads, N: 1}})
}

// StepRuns is Step for ranks described by runs (see RankRun), in rank
// order; ranks they do not describe are idle. Its cost grows with the
// runs' lengths, not with the number of ranks they stand for.
func (sm *StepModel) StepRuns(runs []RankRun) StepTime {
	tt := sm.tokenTermsOf(runs)
	return sm.stepWith(runs, &tt, nil)
}

// slowestRank is the rank load whose dense and attention time sets the
// lock-step pace, and that time. A rank that carries no more of anything
// than one already priced is skipped (rankTime grows with every field):
// most ranks of a large step.
//
// The busiest rank (the most tokens, then the most context) is priced
// first, then the others in rank order, each skipped when within any of
// the first maxFrontier loads priced: with ranks out of balance (vLLM's DP
// load balancer, sim.UseDPLB) the loads differ rank by rank and the
// busiest does not carry the most of everything, so a single running
// maximum left half of the ranks to be priced. The result is the same
// (the largest rankTime over the ranks); which of two different loads of
// exactly equal time is returned may differ.
func (sm *StepModel) slowestRank(runs []RankRun, c *gemmSplitCache, pp float64) (RankLoad, float64) {
	var busiest RankLoad
	found := false
	for _, r := range runs {
		if r.N <= 0 {
			continue
		}
		for i := range r.Loads {
			if l := &r.Loads[i]; !found || busier(l, &busiest) {
				busiest, found = *l, true
			}
		}
	}
	if !found {
		return RankLoad{}, 0
	}
	p := frontier{sm: sm, c: c, pp: pp}
	p.price(busiest)
	for _, r := range runs {
		if r.N <= 0 {
			continue
		}
		for i := range r.Loads {
			// price's first test, without the call, for most ranks
			if l := &r.Loads[i]; p.pp <= 1 && p.nf > 0 && l.within(p.front[p.hit]) {
				continue
			}
			p.price(r.Loads[i])
		}
	}
	return p.worstLoad, p.worst
}

// soleLoad is the one rank load of runs (its busiest micro-batch through
// pp stages, RankLoad.stageLoad, as slowestRank gives it) when they hold exactly one: slowestRank would
// price it only to return it, and an engine of one DP rank steps through
// a simulation this way, every step.
func soleLoad(runs []RankRun, pp float64) (RankLoad, bool) {
	var sole RankLoad
	n := 0
	for _, r := range runs {
		if r.N <= 0 {
			continue
		}
		n += len(r.Loads)
		if n > 1 {
			return RankLoad{}, false
		}
		if len(r.Loads) == 1 {
			sole = r.Loads[0]
		}
	}
	if n != 1 {
		return RankLoad{}, false
	}
	return sole.stageLoad(pp), true
}

// frontier is slowestRank's pricing: the first maxFrontier loads priced
// (front), the slowest so far, and hit, the entry that last covered a
// load, tried first (the order the entries are tried in does not change
// whether one covers a load).
type frontier struct {
	sm        *StepModel
	c         *gemmSplitCache // nil: none
	pp        float64         // pipeline stages (each load priced as its stageLoad)
	front     [maxFrontier]RankLoad
	nf, hit   int
	worst     float64
	worstLoad RankLoad
}

// price prices l unless a load of the front carries at least as much of
// everything.
func (p *frontier) price(l RankLoad) {
	l = l.stageLoad(p.pp) // the busiest of the rank's micro-batches
	if p.nf > 0 && l.within(p.front[p.hit]) {
		return
	}
	for i := 0; i < p.nf; i++ {
		if i != p.hit && l.within(p.front[i]) {
			p.hit = i
			return
		}
	}
	t := p.sm.rankTimeC(l, nil, p.c)
	if p.nf == 0 || t > p.worst {
		p.worst, p.worstLoad = t, l
	}
	if p.nf < maxFrontier {
		p.front[p.nf] = l
		p.nf++
	}
}

// maxFrontier bounds the priced loads slowestRank compares each rank with.
const maxFrontier = 8

// busier orders rank loads busiest first: the most tokens, then the most
// context read.
func busier(a, b *RankLoad) bool {
	ta, tb := a.PrefillTokens+a.DecodeSeqs, b.PrefillTokens+b.DecodeSeqs
	if ta != tb {
		return ta > tb
	}
	return a.DecodeCtx+a.PrefillPairs > b.DecodeCtx+b.PrefillPairs
}

// stepWith is StepRuns given the step's token terms (read, never written:
// a pointer, as the memo holds them, rather than a copy of two StepTimes
// per step); m (nil: none) is the memo the draft passes of speculative
// decoding use.
func (sm *StepModel) stepWith(runs []RankRun, tt *tokenTerms, m *StepMemo) StepTime {
	s := &sm.S
	pp := float64(s.PP)
	var st StepTime
	c := m.gemmCache(sm)
	worstLoad, ok := soleLoad(runs, pp)
	if !ok {
		worstLoad, _ = sm.slowestRank(runs, c, pp)
	}
	sm.rankTimeC(worstLoad, &st, c)
	// The experts' roof adds to the slowest rank's, in that order.
	e := &tt.expert
	st.ComputeS += e.ComputeS
	st.MemoryS += e.MemoryS
	st.ComputeBoundS += e.ComputeBoundS
	st.MemoryBoundS += e.MemoryBoundS
	st.ExpertS = e.ExpertS
	st.Bindings.Experts = e.Bindings.Experts
	n := &tt.net
	st.A2AS, st.TPS, st.PPS, st.InterBytesPerNode, st.IntraBytesPerGPU = n.A2AS, n.TPS, n.PPS, n.InterBytesPerNode, n.IntraBytesPerGPU
	st.DCPS, st.PPInterBytesPerNode = n.DCPS, n.PPInterBytesPerNode
	// Every kernel on the critical path costs its gap on top of its
	// roofline (two micro-batches run every kernel twice); kernels on an aux
	// stream in the shadow of the main stream's cost none (criticalKernels).
	kernels := sm.criticalKernels(runs) - tt.net.fusedNorms
	if tt.dbo {
		kernels *= 2
	}
	gaps := kernels * s.Eff.KernelGapS
	roof := st.DenseS + st.AttentionS + st.ExpertS + gaps
	stage := roof + st.A2AS
	if tt.dbo {
		// Two micro-batches: one computes while the other communicates; the
		// pipeline fill/drain leaves half of the shorter side exposed.
		stage = max(roof, st.A2AS) + min(roof, st.A2AS)/2
	}
	stage += st.TPS + st.DCPS
	st.KernelGapsS, st.Kernels = pp*gaps, pp*kernels
	st.HostS, st.LaunchS = tt.serial, tt.launch

	// Host work between steps adds up; launching the step's kernels one by
	// one (no CUDA graph) overlaps the GPU's execution of those already
	// launched, so the step takes the longer of the two.
	st.SpecDraftS = sm.draftTime(runs, m)
	gpu := pipelineRound(pp, stage, st.PPS) + st.SpecDraftS
	st.TotalS = tt.serial + max(tt.launch, gpu)
	if s.OverlapHost {
		st.TotalS = max(tt.serial+tt.launch, gpu)
	}
	st.OverheadS = st.TotalS - gpu
	st.ExposedNetworkS = gpu - pp*roof - st.SpecDraftS
	st.Bindings.KernelGaps, st.Bindings.Host, st.Bindings.Network = TermLaunch, TermHost, st.networkBinding()
	return st
}

// criticalKernels is the kernels one stage's forward pass runs on its
// critical path: all of them (sm.kernels) less those DeepSeek-V4's aux
// streams hide — the post-GEMM fork's always, the input-GEMM fork's when
// no rank's forward exceeds vLLM's multi-stream token threshold. The
// host still launches every kernel (the eager launch term counts
// eagerLayers, not this).
func (sm *StepModel) criticalKernels(runs []RankRun) float64 {
	k := sm.kernels - sm.hiddenPostFork
	if sm.hiddenGEMMFork > 0 {
		var tok float64
		eachLoad(runs, func(l RankLoad) { tok = max(tok, l.tokens(sm.S.SpecTokens)) })
		if tok <= vllm.DSV4MultiStreamGEMMTokenThreshold {
			k -= sm.hiddenGEMMFork
		}
	}
	return k
}

// vLLM's default DBO thresholds (--dbo-decode-token-threshold and
// --dbo-prefill-token-threshold, from package vllm's flag table): a step is
// split into two micro-batches only when a rank has at least this many
// tokens.
var (
	dboDecodeTokenThreshold  = flagDefault("dbo-decode-token-threshold")
	dboPrefillTokenThreshold = flagDefault("dbo-prefill-token-threshold")
)

// flagDefault is the numeric default vLLM gives a flag (0 when the table
// has none, which a test rules out for the flags the model reads).
func flagDefault(name string) float64 {
	f, ok := vllm.KnownFlagEver(name)
	if !ok {
		return 0
	}
	v, _ := strconv.ParseFloat(f.Default, 64)
	return v
}

// dboActive reports whether the step runs as two overlapped micro-batches:
// DBO on, a DeepEP backend, and enough tokens on the busiest rank.
func (sm *StepModel) dboActive(runs []RankRun) bool {
	s := &sm.S
	if !s.DBO || !s.A2A.PointToPoint() {
		return false
	}
	threshold, tok := dboDecodeTokenThreshold, 0.0
	eachLoad(runs, func(l RankLoad) {
		tok = max(tok, l.tokens(s.SpecTokens))
		if l.PrefillTokens > 0 {
			threshold = dboPrefillTokenThreshold
		}
	})
	return tok >= threshold
}

// overhead is the per-step host cost between steps — a fixed part and a
// part per sequence of the busiest rank — and the host time to launch a
// step without CUDA graphs, which overlaps the GPU's work: in eager mode
// (enforce_eager; a prefill step of an engine that captures decode only),
// or compiled but not captured — graphs off for the backend (vllm.Release.
// CUDAGraphs), a batch larger than the largest captured size (StepSetup.
// MaxCaptureTokens, by default vllm.MaxCUDAGraphCaptureSize), or a lock-step step with an idle DP rank where
// the release runs those slowly.
func (sm *StepModel) overhead(runs []RankRun) (serial, launch float64) {
	return sm.overheadOf(runs, false)
}

// overheadOf is overhead; dummy says the ranks run vLLM's dummy batch
// (DummyStepRuns), which a release with IdleRanksSlow runs without graphs
// on every rank, as it does an idle rank's.
func (sm *StepModel) overheadOf(runs []RankRun, dummy bool) (serial, launch float64) {
	s := &sm.S
	var tok, seqs float64
	idle := dummy || rankCount(runs) < s.DP
	var prefill bool
	eachLoad(runs, func(l RankLoad) {
		tok = max(tok, l.tokens(s.SpecTokens))
		seqs = max(seqs, l.DecodeSeqs+l.PrefillSeqs)
		idle = idle || l.tokens(s.SpecTokens) == 0
		prefill = prefill || l.PrefillTokens > 0
	})
	serial = s.Eff.StepOverheadS + s.Eff.StepPerSeqS*seqs
	switch {
	case s.pipelinedHost():
		// Engine core and workers side by side (hostpipeline.go).
		serial = max(serial, s.Eff.MultiprocStepS)
	case s.TP*s.PP > 1 && !s.SGLang:
		serial += s.Eff.MultiprocStepS
	}
	slowIdle := s.IdleRanksSlow && idle && s.DP > 1 && sm.experts > 0
	switch {
	case s.PrefillEager && prefill && !s.EnforceEager && tok <= float64(s.PrefillGraphTokens):
		// piecewise graphs replayed (StepSetup.PrefillGraphTokens): no
		// eager launches
	case s.EnforceEager || (s.PrefillEager && prefill):
		per := s.Eff.EagerPerLayerS
		if s.SGLang {
			per = s.Eff.SGLangEagerPerLayerS
		}
		launch = per * sm.eagerLayers
	case !s.CUDAGraphs || slowIdle:
		// Before the capture ceiling: a step without graphs launches
		// every kernel whatever its size, so adding prompt tokens past the
		// ceiling must not make it cheaper (it did, 120 → 91 ms for a DBO
		// DeepEP step, which let plan's simulations beat its bound).
		launch = s.Eff.EagerPerLayerS * sm.eagerLayers
	case tok > s.captureCeiling():
		launch = s.Eff.LargeStepPerLayerS * sm.eagerLayers
	}
	return serial, launch
}

// captureCeiling is the largest step, in tokens per rank, that replays a
// captured graph: the setup's own, or vLLM's default ceiling.
func (s *StepSetup) captureCeiling() float64 {
	if s.MaxCaptureTokens > 0 {
		return float64(s.MaxCaptureTokens)
	}
	return vllm.MaxCUDAGraphCaptureSize
}

// roof adds one operation class to st and returns its roofline time.
func roof(st *StepTime, computeS, memoryS float64) float64 {
	if st != nil {
		st.ComputeS += computeS
		st.MemoryS += memoryS
		if computeS >= memoryS {
			st.ComputeBoundS += computeS
		} else {
			st.MemoryBoundS += memoryS
		}
	}
	return max(computeS, memoryS)
}

// rankTime is the dense + attention time of one rank (per GPU, one stage).
func (sm *StepModel) rankTime(l RankLoad, st *StepTime) float64 { return sm.rankTimeC(l, st, nil) }

// rankTimeC is rankTime, the measured GEMMs' times looked up in c first
// (nil: none).
func (sm *StepModel) rankTimeC(l RankLoad, st *StepTime, c *gemmSplitCache) float64 {
	s := &sm.S
	tok := l.tokens(s.SpecTokens)
	if tok <= 0 {
		return 0
	}
	hbm := s.HW.HBMBytesPerS * s.Eff.HBM
	gemm := s.gemmFLOPS() * s.gemmEff()
	sampled := l.DecodeSeqs*float64(1+s.SpecTokens) + l.PrefillSeqs
	denseF := 2*tok*sm.denseParamsGPU + 2*sampled*sm.lmHeadParamsGPU
	act := tok * (sm.hidden*2*activationPassesPerLayer*sm.layers + sm.qkNormBytesTok)
	var dense float64
	if sm.gemms != nil {
		// Measured per-shape GEMM latencies (weights streamed, launch
		// included), against the activation passes outside the GEMMs at
		// the HBM rate. The report's compute / memory "alone" columns keep
		// the scalar roofline's two sides (the FLOPs at the fitted rate,
		// weights and activations at the HBM rate); the bound time goes to
		// the side each shape's floors say binds it (timeSplit).
		var pk *gemmPeaks
		if st != nil {
			fp8 := s.HW.FP8FLOPS
			if s.int8AsFP8() {
				fp8 = s.HW.INT8OPS
			}
			pk = &gemmPeaks{bf16: s.HW.BF16FLOPS, fp8: fp8, fp4: s.HW.FP4FLOPS, hbm: s.HW.HBMBytesPerS}
		}
		tc, tm := c.timeSplit(sm.gemms, tok, sampled, pk)
		dense = max(tc+tm, act/hbm)
		if st != nil {
			st.Bindings.Dense = gemmTableBinding(tc, tm, act/hbm)
			st.ComputeS += denseF / gemm
			st.MemoryS += (sm.denseBytesGPU + act) / hbm
			if tc+tm >= act/hbm {
				st.ComputeBoundS += tc
				st.MemoryBoundS += tm
			} else {
				st.MemoryBoundS += act / hbm
			}
		}
	} else {
		compute := denseF / gemm
		if sm.fp4Split {
			fp4F := 2 * tok * sm.denseFP4ParamsGPU
			compute = fp4F/(s.HW.FP4FLOPS*s.gemmEff()) + (denseF-fp4F)/(s.HW.BF16FLOPS*s.gemmEff())
		}
		dense = roof(st, compute, (sm.denseBytesGPU+act)/hbm)
		if st != nil {
			st.Bindings.Dense = rooflineBinding(compute, (sm.denseBytesGPU+act)/hbm)
		}
	}
	dense += sm.mhcTime(tok, st) // DeepSeek-V4's hyper-connections (mhc.go), in the dense term
	idxF, idxB := sm.indexerCost(l)
	// the decode part's compute time, worked out once for both roofs (the
	// simulations price millions of steps)
	decodeC := sm.attnFLOPs(l, true) / (s.attnFLOPS(true) * s.Eff.Attention)
	attnC := decodeC + sm.fa2MixedDecodeS(l) + sm.attnFLOPs(l, false)/(s.attnFLOPS(false)*s.Eff.prefillAttnEff(prefillSpan(l))) + idxF/(s.indexerFLOPS()*s.Eff.Attention)
	attnM := (sm.kvBytes(l) + idxB) / hbm
	attn := roof(st, attnC, attnM)
	attnBind := rooflineBinding(attnC, attnM)
	decodeRoof := max(decodeC, sm.kvBytesTokLayer*sm.layerCtx(l)/hbm)
	floor := 0.0
	if x, ok := sm.v4AttnFloor(l, decodeRoof); ok {
		floor = x // DeepSeek-V4's FlashMLA sparse decode calls: v4floors.go
	} else {
		floor = sm.attnFixed(l)
	}
	if floor > attn {
		attnBind = TermAttnKernelFloor // the measured calls' fixed cost outlasts the roofline
	}
	attn += floor
	attn += sm.windowedExtra(l) // windowed layers past their window: swafloor.go
	if st != nil {
		st.DenseS, st.AttentionS = dense, attn
		st.Bindings.Attention = attnBind
	}
	return dense + attn
}

// prefillSpan is the mean number of tokens a prefill chunk of l attends
// to (its cached prefix and itself): the length prefill attention's
// measured efficiency is read at.
func prefillSpan(l RankLoad) float64 {
	if l.PrefillSeqs <= 0 {
		return 0
	}
	return (l.PrefillPrefix + l.PrefillTokens) / l.PrefillSeqs
}

// attnFixed is the decode-attention time the KV bytes do not carry, from
// the GPU's measured kernels (zero without them): per layer, the call's
// floor beyond one kernel gap, and a cost per sequence of the batch.
func (sm *StepModel) attnFixed(l RankLoad) float64 {
	e := &sm.S.Eff
	k := &e.Kernels
	if l.DecodeSeqs <= 0 || k.AttnDecodeS <= 0 {
		return 0
	}
	return sm.attnLayers * (max(0, k.AttnDecodeS-e.KernelGapS) + l.DecodeSeqs*k.AttnPerSeqS)
}

// layerCtx is Σ over layers of the context one decode token attends to,
// for a rank whose decode sequences have summed context ctx.
func (sm *StepModel) layerCtx(l RankLoad) float64 {
	if l.DecodeSeqs <= 0 {
		return 0
	}
	avg := l.DecodeCtx / l.DecodeSeqs
	if sm.dsv4 != nil {
		return l.DecodeSeqs * sm.dsv4.attended(avg)
	}
	return sm.fullLayers*l.DecodeCtx + sm.slidingLayers*l.DecodeSeqs*min(avg, sm.window)
}

// attnFLOPs is the attention-core work of the decode (or prefill) part.
func (sm *StepModel) attnFLOPs(l RankLoad, decode bool) float64 {
	if decode {
		return sm.attnDecCoef * sm.layerCtx(l) * float64(1+sm.S.SpecTokens) * max(1, sm.attnDecPad)
	}
	if sm.dsv4 != nil {
		return sm.attnPreCoef * sm.dsv4.prefillPairs(l.PrefillPairs, l.PrefillTokens)
	}
	pairs := sm.fullLayers * l.PrefillPairs
	if sm.slidingLayers > 0 {
		pairs += sm.slidingLayers * min(l.PrefillPairs, l.PrefillTokens*sm.window)
	}
	return sm.attnPreCoef*pairs + sm.decompCoef*sm.attnLayers*l.PrefillPrefix
}

// kvBytes is the KV cache the step reads (decode contexts, prefill
// prefixes) and writes (new tokens) in the attention layers, and a hybrid's
// recurrent state.
func (sm *StepModel) kvBytes(l RankLoad) float64 {
	if a := sm.dsv4; a != nil {
		return a.entryBytes * (sm.layerCtx(l) + a.prefixEntries(l.PrefillPrefix, l.PrefillSeqs) + a.writtenEntries(l.tokens(sm.S.SpecTokens)))
	}
	// With DCP a GPU holds, and its decode attention reads, every DCP-th
	// token of a sequence (dcp.go); prefill's prefix reads are left as
	// they are.
	read := sm.layerCtx(l)/float64(max(1, sm.S.DCP)) + sm.attnLayers*l.PrefillPrefix
	write := sm.attnLayers * l.tokens(sm.S.SpecTokens)
	// A hybrid's state layers read and write each sequence's state once.
	state := 2 * sm.stateBytesSeq * (l.DecodeSeqs + l.PrefillSeqs)
	return sm.kvBytesTokLayer*(read+write) + state
}

// expertTime is the routed-expert time given the tokens of all DP ranks.
// Each GPU computes its share of the token-expert pairs (T·k/EP) and reads
// the experts hit at least once: E_local × (1 − (1 − k/E)^T) under uniform
// routing.
func (sm *StepModel) expertTime(total float64, st *StepTime) { sm.expertTimeCall(total, total, st) }

// expertTimeCall is expertTime where the fused-MoE call holds call tokens
// (total and the DP padding of a graphed step: dpGraphTokens), which is
// what Marlin's block heuristic reads (marlinblocks.go).
func (sm *StepModel) expertTimeCall(total, call float64, st *StepTime) {
	s := &sm.S
	if sm.experts == 0 || total <= 0 {
		return
	}
	flops, bytes := sm.expertWork(total)
	compute, memory := flops/(s.expertFLOPS()*s.expertGEMMEff()), bytes/(s.HW.HBMBytesPerS*s.Eff.HBM*scale(s.Eff.ExpertHBM))
	if r := sm.expertStreamRate(); r > 0 {
		memory = bytes / r // the measured kernel's streaming rate (moestream.go)
	}
	if c := s.moeCurve(); c != nil {
		// The measured curve at the experts' M (tokens per expert), held
		// at its ridge-point value below the ridge: there the table times
		// weight streaming, which the memory term prices, not the GEMMs'
		// rate (read as a rate it would charge decode's streaming twice,
		// once more for the MeasuredCompute share that applies to compute).
		x := max(total*sm.topK/sm.experts, s.moeRidge())
		compute = flops / (s.citedMoECurveFLOPS(c, x) * s.moeWidthFactor(c, sm.moeSliceWidth) * s.sglangFP8TritonFactor(x) * s.nonBlockFP8Factor(x))
	}
	if s.marlinApplies() {
		// Marlin's tiles multiply whole blocks of rows (marlinblocks.go).
		compute = max(compute, sm.marlinFLOPs(total, call)/(s.gemmFLOPS()*s.marlinGEMMEff()))
	}
	st.ExpertS = roof(st, compute, memory) + sm.moeLayers*sm.sglangTritonFixedExcess()
	st.Bindings.Experts = expertBinding(compute, memory, s.moeCurve() != nil, sm.expertStreamRate() > 0)
}

// moeRidge is the tokens per expert at which an expert GEMM's FLOPs per
// weight byte reach the GPU's peak over its memory bandwidth (2·M FLOPs
// per weight over the weight's bytes): below it a fused MoE streams
// weights. It reads the weights dtype's bytes, not Storage's: it places the
// measured curve, which was timed with that dtype's kernels.
func (s *StepSetup) moeRidge() float64 {
	return s.expertFLOPS() * perfBytesPerParam(s.WeightDType) / (2 * s.HW.HBMBytesPerS)
}

// moeCurve is the measured fused-MoE curve for the experts' dtype on
// this GPU (KernelFigures.MoE), nil where the tables have none or where
// DeepGEMM, not the fused-MoE kernels, runs the experts (expertGEMMEff).
func (s *StepSetup) moeCurve() *MoECurve {
	m := s.Eff.Kernels.MoE
	if m == nil || (s.EP && s.A2A.PointToPoint()) {
		return nil
	}
	var c *MoECurve
	switch s.WeightDType {
	case "", "bf16", "fp16":
		c = &m.BF16
	case "fp8":
		c = &m.FP8
	case "nvfp4":
		if s.HW.FP4FLOPS > 0 {
			c = &m.NVFP4
		}
	case "mxfp4":
		// Zero unless the release runs the kernel it timed (ForRelease);
		// never for compressed-tensors MXFP4, whose method picks other
		// kernels (CUTLASS W4A4, Marlin).
		if !s.packedMXFP4() {
			c = &m.MXFP4
		}
	}
	if c == nil || c[0] <= 0 {
		return nil
	}
	return c
}

// expertWork is one GPU's routed-expert FLOPs and HBM bytes for total
// tokens over all DP ranks: its share of the token-expert pairs through one
// expert each (expertParams: at the experts' width, a latent MoE's
// moe_latent_size), the weights of the experts hit, the pairs'
// activations.
func (sm *StepModel) expertWork(total float64) (flops, bytes float64) {
	pairs := total * sm.topK / float64(sm.S.EPSize())
	flops = 2 * pairs * sm.expertParams * sm.moeLayers
	act := total * sm.topK * sm.actPairShare * sm.actBytesPerPair
	bytes = (sm.expertsRead(sm.expertHit(total))*sm.expertBytes + act) * sm.moeLayers
	return flops, bytes
}

// expertHit is the chance that a step of total tokens (all DP ranks) hits
// a given routed expert at least once under uniform routing:
// 1 − (1 − k/E)^T.
func (sm *StepModel) expertHit(total float64) float64 {
	if sm.zeroRemap {
		// LongCat-Flash: expert 0 (every zero pick lands there) and the
		// experts of the expected real picks (catalog/longcat.go).
		return sm.S.Model.LongCatExpertHitShare(total)
	}
	return 1 - math.Pow(1-sm.topK/sm.experts, total)
}

// expertGEMMEff is the efficiency of the grouped expert GEMMs in use:
// DeepGEMM's with a DeepEP all-to-all (whole experts per GPU, dense-GEMM
// shapes), the fused-MoE kernels' otherwise (Efficiency.ExpertGEMM).
func (s *StepSetup) expertGEMMEff() float64 {
	if s.EP && s.A2A.PointToPoint() {
		return s.gemmEff()
	}
	if x := s.citedExpertEff(); x > 0 {
		return x
	}
	return s.Eff.ExpertGEMM
}

// DummyStepRuns is the step in which every rank of runs executes vLLM's
// dummy batch (DPEngineCoreProc.run_busy_loop's execute_dummy_batch while
// a DP wave runs on with no work anywhere): Worker.execute_dummy_batch →
// GPUModelRunner._dummy_run(1, uniform_decode=True), a one-token uniform
// decode forward through every layer, MoE experts and all-to-all included
// (no LM head, no sampler). Where the release dispatches it through the
// CUDA-graph dispatcher (vLLM 0.11.0 on: _dummy_run leaves
// cudagraph_runtime_mode to CudagraphDispatcher.dispatch, which returns FULL
// for the one-token uniform-decode key every decode capture holds, after
// coordinate_batch_across_dp — get_dp_padding in 0.11 — pads every rank to
// the most tokens of any, one) it replays the graph a one-sequence decode
// step does, and is priced as that step: StepRuns. Where the release runs
// it eagerly (IdleRanksSlow: 0.10.1 and 0.10.2, _dummy_run's mode
// defaulting to NONE), the launches of a step without graphs are added, as
// for a step with an idle rank. Sources: vllm/v1/worker/gpu_worker.py,
// gpu_model_runner.py _dummy_run and _determine_batch_execution_and_padding,
// vllm/v1/worker/dp_utils.py, vllm/v1/cudagraph_dispatcher.py at the v0.11.0
// tag b8b302cde434 and at upstream main 08ed2b968 (2026-04-02, the Gemma 4
// commit 0.19.0 ships; the files' lines match those the pegainfer source
// cites from its 0.19.0 install).
func (sm *StepModel) DummyStepRuns(runs []RankRun) StepTime {
	tt := sm.tokenTermsOf(runs)
	tt.serial, tt.launch = sm.overheadOf(runs, true)
	return sm.stepWith(runs, &tt, nil)
}

// StepSeconds is Step(loads).TotalS, the form the simulator calls.
func (sm *StepModel) StepSeconds(loads []RankLoad) float64 { return sm.Step(loads).TotalS }

// maxRankTokens is the largest per-rank token count of the step.
func maxRankTokens(runs []RankRun, spec int) float64 {
	var m float64
	eachLoad(runs, func(l RankLoad) { m = max(m, l.tokens(spec)) })
	return m
}
