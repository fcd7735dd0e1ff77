package perf

import "math"

// DecodePoint is steady-state decoding at one concurrency: every DP rank
// holds ceil(C/DP) sequences (the busiest rank sets the lock-step pace).
type DecodePoint struct {
	Concurrency   int     `json:"concurrency"`
	SeqsPerRank   int     `json:"seqs_per_rank"`
	TPOTS         float64 `json:"tpot_s"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	Binding       string  `json:"binding"`
	// KVCapped marks concurrencies whose per-rank share of KV at the given
	// context exceeds the KV capacity (vLLM would queue or preempt).
	KVCapped bool `json:"kv_capped,omitempty"`
}

// DecodeAt is steady decoding of conc sequences at mean context ctx. With
// independent replicas the fullest replica's share (the ceil of it) sets
// the pace every session is counted at.
func (sm *StepModel) DecodeAt(conc int, ctx float64) (DecodePoint, StepTime) {
	runs, per := sm.decodeRuns(conc, ctx)
	st := sm.StepRuns(runs)
	tps := float64(conc) * sm.S.TokensPerStep() / st.TotalS
	return DecodePoint{Concurrency: conc, SeqsPerRank: per, TPOTS: st.TotalS / sm.S.TokensPerStep(),
		OutputTokPerS: tps, Binding: st.Binding()}, st
}

// decodeRuns are the ranks' loads of one replica decoding its share of
// conc sequences at context ctx, and the sequences per rank: the ceil
// share on the first ranks, what is left on the next one, the rest idle.
func (sm *StepModel) decodeRuns(conc int, ctx float64) ([]RankRun, int) {
	one := (conc + sm.S.replicas() - 1) / sm.S.replicas()
	per := int(math.Ceil(float64(one) / float64(sm.S.DP)))
	full, rest := one/max(1, per), one%max(1, per)
	runs := []RankRun{{Loads: []RankLoad{{DecodeSeqs: float64(per), DecodeCtx: float64(per) * ctx}}, N: full}}
	if rest > 0 {
		runs = append(runs, RankRun{Loads: []RankLoad{{DecodeSeqs: float64(rest), DecodeCtx: float64(rest) * ctx}}, N: 1})
	}
	return runs, per
}

// DecodeCurve evaluates DecodeAt on a doubling grid of concurrencies, from
// one sequence per rank up to maxSeqsPerRank per rank (max_num_seqs), marking
// points beyond kvSeqsPerRank (KV capacity at context ctx; ≤0 = unknown).
func (sm *StepModel) DecodeCurve(ctx float64, maxSeqsPerRank, kvSeqsPerRank int) []DecodePoint {
	var out []DecodePoint
	for per := 1; per <= maxSeqsPerRank; per *= 2 {
		p, _ := sm.DecodeAt(per*sm.S.DP*sm.S.replicas(), ctx)
		p.KVCapped = kvSeqsPerRank > 0 && per > kvSeqsPerRank
		out = append(out, p)
		if p.KVCapped {
			break
		}
	}
	return out
}

// saturationGain is the throughput gain from doubling the concurrency
// below which the decode curve counts as saturated.
const saturationGain = 0.10

// Saturation is the first curve point past which doubling the concurrency
// adds less than 10% throughput (or the last point).
func Saturation(curve []DecodePoint) DecodePoint {
	for i := 1; i < len(curve); i++ {
		if curve[i].OutputTokPerS < (1+saturationGain)*curve[i-1].OutputTokPerS {
			return curve[i-1]
		}
	}
	if len(curve) == 0 {
		return DecodePoint{}
	}
	return curve[len(curve)-1]
}

// PrefillPoint is one request's prefill on an otherwise idle system.
type PrefillPoint struct {
	InputTokens int     `json:"input_tokens"`
	TTFTS       float64 `json:"ttft_s"`
	Steps       int     `json:"steps"`
	// InterBytesPerNode is what the prefill's all-to-all and pipeline
	// hand-offs push through its busiest node's NICs (StepTime.
	// InterBytesPerNode + PPInterBytesPerNode, the bytes the times are
	// priced from); NetworkS the communication time (all-to-all, TP and
	// PP) not hidden behind compute.
	InterBytesPerNode float64 `json:"inter_bytes_per_node"`
	NetworkS          float64 `json:"network_s"`
	ComputeS          float64 `json:"compute_s"`
	// GPUS is the chunks' kernel time (each operation class's roofline,
	// summed), KernelGapsS the GPU time between and around those kernels,
	// HostS the host's time on the critical path (work between steps and
	// launches the GPU waited for): with NetworkS they add up to TTFTS
	// (draft passes of speculative decoding aside).
	GPUS        float64 `json:"gpu_s"`
	KernelGapsS float64 `json:"kernel_gaps_s"`
	HostS       float64 `json:"host_s"`
	// HostBetweenS and LaunchS are HostS's parts as the steps cost them
	// (StepTime.HostS, StepTime.LaunchS, summed over the chunks): the
	// host's work between steps and its eager kernel launches, which
	// overlap the GPU's work; HostBetweenS + LaunchS − HostS of them ran
	// behind the GPU. Reported only; TTFTS does not read them.
	HostBetweenS float64 `json:"host_between_steps_s"`
	LaunchS      float64 `json:"launch_s"`
	Binding      string  `json:"binding"`
	// GPUBinding is the binding of the GPU kernels' largest class (dense,
	// experts or attention) in the prompt's longest chunk, GPUClass that
	// class; Bindings the chunk's other terms' (kernel gaps, network,
	// host), as a decode step's carry them (qa45c F14).
	GPUBinding TermBinding  `json:"gpu_binding"`
	GPUClass   string       `json:"gpu_class"`
	Bindings   TermBindings `json:"term_bindings"`
}

// PrefillIdle is the TTFT of one request of n prompt tokens with nothing
// else running: PrefillIdleCached with nothing cached.
func (sm *StepModel) PrefillIdle(n, maxBatched int) PrefillPoint {
	return sm.PrefillIdleCached(n, 0, maxBatched)
}

// PrefillFloor is a lower bound of PrefillIdle(n, maxBatched).TTFTS from
// at most floorGroups+1 step evaluations: a chunk's step never shrinks as
// its cached prefix grows (attention's work and reads grow with it, every
// other term is the same), so a run of chunks costs at least as many times
// its first one. A layout search bounds 16 TTFT lengths on hundreds of
// layouts with it (PrefillIdle's up to 257 evaluations each were most of
// a large search); within a few per cent of PrefillIdle on long prompts,
// equal on prompts of at most floorGroups chunks.
func (sm *StepModel) PrefillFloor(n, maxBatched int) float64 {
	c := max(1, maxBatched)
	k, last := chunking(n, c)
	g := max(1, (k+floorGroups-1)/floorGroups)
	var total float64
	for i := 0; i < k; i += g {
		total += float64(min(g, k-i)) * sm.prefillChunk(i*c, c, false).TotalS
	}
	if last > 0 {
		total += sm.prefillChunk(k*c, last, true).TotalS
	}
	return total
}

// floorGroups is how many runs of chunks PrefillFloor prices by their
// first chunk.
const floorGroups = 32

// exactChunks is how many chunks of a prompt PrefillIdle steps through
// one by one (2 Mi tokens at 8,192 a chunk); beyond, the chunks' sums are
// integrated (integrateChunks): a prompt of 16 Mi tokens in chunks of one
// token is a valid spec, and 16 M step evaluations are not a check.
const exactChunks = 256

// prefillChunk is the step of one chunk of c prompt tokens after p cached
// ones, on an otherwise idle system; final says it ends the prompt.
func (sm *StepModel) prefillChunk(p, c int, final bool) StepTime {
	return sm.Step([]RankLoad{prefillLoad(float64(p), c, final)})
}

// prefillLoad is a rank's load for a chunk of c prompt tokens after p
// cached ones (p may be fractional, or below 0 at the edge of an
// integral, where the prefix read is none); final says the chunk ends its
// prompt (RankLoad.PrefillFinal).
func prefillLoad(p float64, c int, final bool) RankLoad {
	l := RankLoad{PrefillTokens: float64(c), PrefillPairs: float64(c) * (p + float64(c+1)/2), PrefillPrefix: max(0, p), PrefillSeqs: 1}
	if final {
		l.PrefillFinal = 1
	}
	return l
}

// prefillSums are the sums PrefillIdle reports over a prompt's chunks.
type prefillSums struct {
	total, inter, net, comp, mem, computeS, gpu, gaps, host float64
	between, launch                                         float64
	// longest is the longest chunk's step time, bind its terms' bindings
	// and gpuBind, gpuClass its largest GPU class's.
	longest  float64
	bind     TermBindings
	gpuBind  TermBinding
	gpuClass string
}

// add adds w times step st.
func (s *prefillSums) add(st StepTime, w float64) {
	s.total += w * st.TotalS
	s.inter += w * (st.InterBytesPerNode + st.PPInterBytesPerNode)
	s.net += w * st.ExposedNetworkS
	s.comp += w * st.ComputeBoundS
	s.mem += w * st.MemoryBoundS
	s.computeS += w * st.ComputeS
	s.gpu += w * (st.TotalS - st.OverheadS - st.ExposedNetworkS - st.KernelGapsS - st.SpecDraftS) // all stages' kernels
	s.gaps += w * st.KernelGapsS
	s.host += w * st.OverheadS
	s.between += w * st.HostS
	s.launch += w * st.LaunchS
	if st.TotalS > s.longest {
		s.longest, s.bind = st.TotalS, st.Bindings
		s.gpuClass, s.gpuBind = "dense", st.Bindings.Dense
		if st.ExpertS > st.DenseS {
			s.gpuClass, s.gpuBind = "experts", st.Bindings.Experts
		}
		if st.AttentionS > max(st.DenseS, st.ExpertS) {
			s.gpuClass, s.gpuBind = "attention", st.Bindings.Attention
		}
	}
}

// integrateChunks sums the steps of k full chunks of c tokens, none of
// them the prompt's last (chunk i at prefix base + i·c), as ∫ over [−½, k−½] of the step at a real chunk index, by
// composite Simpson on chunkPanels panels: the step is a roofline of
// terms linear in the prefix, so the integral of the few kinks is all the
// error (a relative 1e-4 or less on the prompts tested).
func (sm *StepModel) integrateChunks(base, k, c int) prefillSums {
	var sum prefillSums
	h := float64(k) / chunkPanels
	for j := 0; j <= chunkPanels; j++ {
		x := -0.5 + float64(j)*h
		w := 2.0
		switch {
		case j == 0 || j == chunkPanels:
			w = 1
		case j%2 == 1:
			w = 4
		}
		sum.add(sm.Step([]RankLoad{prefillLoad(float64(base)+x*float64(c), c, false)}), w*h/3)
	}
	return sum
}

// chunkPanels is the even number of Simpson panels integrateChunks uses.
const chunkPanels = 256

func bindingOf(compute, memory, network float64) string {
	switch {
	case network >= compute && network >= memory:
		return "network"
	case compute >= memory:
		return "compute"
	}
	return "memory_bandwidth"
}

// Floors are physical lower bounds on one decode step, without any
// efficiency factor or overhead: no engine can beat them on this hardware.
type Floors struct {
	// WeightReadS reads the weights one decode step needs on one GPU once
	// at full HBM bandwidth: every dense weight, and of a MoE's routed
	// experts those the step's tokens are expected to hit (expertHit,
	// expertsRead: the busiest rank's under EP), as the step's expert term
	// counts them. At small batches that is a few experts a layer, not all
	// resident ones (qa45b F4: a floor of all of them exceeded the
	// predicted step); it nears every resident expert as the batch grows.
	WeightReadS float64 `json:"weight_read_s"`
	// ComputeS is the step's FLOPs at the dense tensor peak.
	ComputeS float64 `json:"compute_s"`
	// NetworkS is the step's all-to-all bytes of the busiest node over the
	// nominal NIC bandwidth (or NVLink on one node), without latency.
	NetworkS float64 `json:"network_s"`
	// WeightBytesPerGPU is the weight bytes behind WeightReadS (all resident
	// weights for a dense model).
	WeightBytesPerGPU float64 `json:"weight_bytes_per_gpu"`
}

// FloorsAt computes the floors for steady decoding of conc sequences at
// context ctx.
func (sm *StepModel) FloorsAt(conc int, ctx float64) Floors {
	ideal := sm.S
	ideal.Eff = Efficiency{GEMM: 1, ExpertGEMM: 1, Attention: 1, HBM: 1, Link: 1}
	im := NewStepModel(ideal)
	_, st := im.DecodeAt(conc, ctx)
	w := sm.denseBytesGPU
	if sm.experts > 0 {
		runs, _ := sm.decodeRuns(conc, ctx)
		total := sm.spreadOf(runs, sm.microBatchFrac(runs)).total
		w += sm.expertsRead(sm.expertHit(total)) * sm.expertBytes * sm.moeLayers
	}
	f := Floors{WeightBytesPerGPU: w, WeightReadS: w / sm.S.HW.HBMBytesPerS, ComputeS: st.ComputeS}
	switch {
	case st.InterBytesPerNode > 0 && sm.S.a2aInterBytesPerS() > 0:
		f.NetworkS = st.InterBytesPerNode / sm.S.a2aInterBytesPerS()
	case st.IntraBytesPerGPU > 0:
		f.NetworkS = st.IntraBytesPerGPU / sm.S.HW.IntraBytesPerS
	}
	return f
}
