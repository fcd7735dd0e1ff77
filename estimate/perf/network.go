package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// LinkTime is the time to move bytes over a link of the given one-direction
// bandwidth at the achievable fraction eff, plus latency per message:
// bytes / (bandwidth × eff) + messages × latency. Both terms are linear, so
// an all-to-all over a slow link scales with its bytes.
func LinkTime(bytes, bytesPerS, eff float64, messages int, latencyS float64) float64 {
	if bytes <= 0 && messages == 0 {
		return 0
	}
	t := float64(messages) * latencyS
	if bytes > 0 {
		t += bytes / (bytesPerS * eff)
	}
	return t
}

// RingAllReduceBytes is what each GPU sends in a ring all-reduce of n
// ranks over a message of size bytes: 2(n−1)/n × bytes.
func RingAllReduceBytes(bytes float64, n int) float64 {
	if n <= 1 {
		return 0
	}
	return 2 * float64(n-1) / float64(n) * bytes
}

// networkTime fills the communication terms of one step: MoE all-to-all
// per MoE layer, TP all-reduces (tpReducesPerStage) and PP hand-offs. frac is
// the busiest micro-batch's share of the busiest rank (microBatchFrac); dbo is whether the
// step runs as two overlapped micro-batches (dboActive).
func (sm *StepModel) networkTime(runs []RankRun, sp spread, frac float64, dbo bool, st *StepTime) {
	s := &sm.S
	maxRank := maxRankTokens(runs, s.SpecTokens) * frac
	sm.a2aTime(sp, dbo, st)
	if s.TP > 1 {
		msg := maxRank * sm.hidden * 2
		t, fused := sm.tpAllReduceK(msg, true)
		st.TPS = sm.tpReduces * t
		if fused {
			// The fused all-reduces take the RMSNorm after them into their
			// kernel: those norms' kernels (and gaps) go. A MoE layer's
			// output all-reduce stays plain (fusedReduces).
			n := sm.fusedReduces()
			plain, _ := sm.tpAllReduceK(msg, false)
			st.TPS = n*t + (sm.tpReduces-n)*plain
			st.fusedNorms = n
		}
		st.TPS += sm.qkNormTPTime(maxRank)
	}
	st.DCPS = sm.dcpTime(runs, frac)
	if s.PP > 1 {
		// The step's micro-batches each cross PP−1 boundaries, each priced
		// as the busiest; each leaves the busiest node once (pphandoff.go).
		mb := sm.microBatches(runs)
		t, nodeBytes := sm.ppHandoff(maxRank)
		st.PPS = mb * float64(s.PP-1) * t
		st.PPInterBytesPerNode = mb * nodeBytes
	}
}

// tpAllReduce is one all-reduce of msg bytes over the TP group. Inside a
// node it is a ring over NVLink: each GPU sends 2(n−1)/n × msg. Across
// nodes NCCL runs one ring per channel and spreads the channels over the
// node's NICs; each ring leaves a node once, so a node's NICs together
// carry 2(n−1)/n × msg while each GPU still moves its ring share over
// NVLink — the two links work at once and the slower sets the time.
// (Costing every GPU's ring share through the node's NICs counted the
// inter-node bytes GPUs-per-node times over: issue #28's Llama-405B TP16
// prefill at 1.2 s of all-reduce against ≈0.15 s by hand.)
func (sm *StepModel) tpAllReduce(msg float64) float64 {
	t, _ := sm.tpAllReduceK(msg, true)
	return t
}

// fusedReduces is how many of a stage's TP all-reduces the release's
// all-reduce + RMSNorm fusion can take: each one an RMSNorm follows, the
// attention's and a dense MLP's (vLLM's decoder layers: the row-parallel
// output's all-reduce, then the residual add and the next RMSNorm). A MoE
// layer's output all-reduce is left plain: FusedMoE's runner reduces and
// may slice a padded hidden dimension before the residual add
// (fused_moe/runner at the v0.17.0 and v0.24.0 tags), and whether the
// pass's pattern matches there was not read.
func (sm *StepModel) fusedReduces() float64 {
	return max(0, sm.tpReduces-sm.moeLayers)
}

// tpAllReduceK is tpAllReduce and whether the all-reduce runs fused with
// the RMSNorm after it (vllm.TPARFlashInferFused); fuse false asks for the
// unfused kernel at the same size.
func (sm *StepModel) tpAllReduceK(msg float64, fuse bool) (float64, bool) {
	s := &sm.S
	ring := RingAllReduceBytes(msg, s.TP)
	g := max(1, s.HW.GPUsPerNode)
	if s.TP <= g {
		// vLLM's custom all-reduce, measured: its floor beyond one kernel
		// gap; it runs inside one host, so a TP group across the trays of an
		// NVLink domain reduces through NCCL over NVLink.
		if k := s.Eff.Kernels; k.AllReduceS > 0 && s.TP <= s.HW.hostGPUs() {
			// Measured at the message's size where the curve covers the
			// GPU and the kernel takes the message (customar.go); the
			// floor-plus-link line otherwise, and for SGLang, whose
			// all-reduce kernel differs by model and GPU (FlashInfer's
			// fused all-reduce by default for DeepSeek-V3 and gpt-oss on
			// one Blackwell node: sgl-project/sglang PR #12724).
			line := LinkTime(ring, s.HW.IntraBytesPerS, k.AllReduceLink, 1, max(0, k.AllReduceS-s.Eff.KernelGapS))
			if !UseCustomARCurve || s.SGLang {
				return line, false
			}
			if t, ok := sm.fusedAR(k.System, msg); ok && fuse {
				return max(0, t-s.Eff.KernelGapS), true
			}
			if t, ok := curveTime(sm.arCurves(k.System), s.TP, min(msg, customARMaxBytes)); ok {
				t = max(0, t-s.Eff.KernelGapS)
				if msg > customARMaxBytes {
					// Another kernel's message: the line, never below the
					// curve's largest (no cheaper step past it).
					return max(line, t), false
				}
				return t, false
			}
			return line, false
		}
		// NCCL inside a host, measured where the GPU has tables (less the
		// kernel gap the step already counts for it, as above).
		if t, ok := s.ncclTime(ncclAllReduce, s.TP, msg); ok {
			return max(0, t-s.Eff.KernelGapS), false
		}
		// RCCL's cited bus-bandwidth share (amdkernels.go).
		if t, ok := s.citedAllReduce(ring); ok {
			return t, false
		}
		return s.ncclFirstPrinciples(ring), false
	}
	nodes := (s.TP + g - 1) / g
	inter := LinkTime(ring, s.HW.InterBytesPerSPerNode, s.Eff.Link, 0, 0)
	intra := LinkTime(ring, s.HW.IntraBytesPerS, s.Eff.Link, 0, 0)
	if UseNCCLCrossNodeLatency && (s.HW.IntraLink == "nvlink" || s.HW.IntraLink == "pcie") {
		// NCCL's tuner: latency by algorithm and protocol, its pick by size
		// (nccl_xnode.go); RCCL (xgmi) and unknown links keep the link model.
		t, _, _ := ncclXNodeAllReduce(s.TP, nodes, s.HW.IntraLink == "pcie", s.HW.InterBytesPerSPerNode, msg, max(inter, intra))
		return t, false
	}
	lat := 2*float64(nodes)*s.HW.InterLatencyS + s.Eff.CollectiveS
	return max(inter, intra) + lat, false
}

// a2aTime is the MoE dispatch + combine time of the step over the stage's
// MoE layers, for the mechanism the configuration selects:
//   - per node (DeepEP high-throughput): one RDMA copy per remote node hit, then NVLink
//     forwarding to the expert GPUs there;
//   - per expert (DeepEP low-latency): one copy per remote expert (RDMA) and per
//     same-node expert on another GPU (NVLink);
//   - gather (allgather_reducescatter): every EP rank gathers every token of the
//     group and reduce-scatters the outputs (BF16 both ways).
//
// Nodes run in lock-step, so the busiest node's NICs and the busiest GPU's
// NVLink set the pace; the two kinds of links work concurrently (max).
//
// The fixed part of a phase (link latency, collective cost, A2AFixedS) is
// paid per kernel call, and with dbo each micro-batch calls its own
// dispatch and combine (vllm.DBOMicroBatches: D₁, D₀, C₁, C₀ per MoE
// layer; SGLang's two-batch overlap alike, assumed), so a layer pays it
// four times while its bytes are the step's either way. Against DeepEP's
// table (docs/legacy.md at 0297fc8, EP 32, 128 tokens per rank: dispatch
// 155 µs, combine 273 µs), a step of 512 tokens per rank split in two is
// 2 × (dispatch + combine) at 256 tokens, ≈2 × (269 + 493) µs per layer by
// the table's latencies plus the added tokens' bytes
// (TestA2ADBOPaysFixedPerMicroBatch); counting the fixed part once per
// phase left ≈100 µs per layer out (issue #28).
func (sm *StepModel) a2aTime(sp spread, dbo bool, st *StepTime) {
	s := &sm.S
	if sm.moeLayers == 0 || s.A2A == vllm.TrafficNone || s.DP <= 1 {
		return
	}
	maxNode, minNode, maxGPU, minGPU, total := sp.maxNode, sp.minNode, sp.maxGPU, sp.minGPU, sp.total
	var inter, intra float64
	phases, lat := 2, s.HW.IntraLatencyS
	if sm.nodes > 1 {
		lat = s.HW.InterLatencyS
	}
	switch s.A2A {
	case vllm.TrafficPerNode:
		inter = maxNode * sm.route.RemoteNodes * sm.bytesCopy
		intra = maxGPU * (sm.route.LocalGPUs + sm.route.RemoteNodeGPUs) * sm.bytesCopy
	case vllm.TrafficPerExpert:
		inter = maxNode * sm.route.RemoteExpertCopies * sm.bytesCopy
		intra = maxGPU * sm.route.LocalExpertCopies * sm.bytesCopy
	default: // all-gather + reduce-scatter of BF16 hidden states
		if t, ok := sm.gatherInHost(total); ok {
			st.A2AS = sm.moeLayers * t
			st.IntraBytesPerGPU = sm.moeLayers * (total - minGPU) * sm.hidden * 2 * 2 * float64(s.PP)
			return
		}
		if sm.nodes > 1 {
			inter = (total - minNode) * sm.hidden * 2 * 2
		}
		intra = (total - minGPU) * sm.hidden * 2 * 2
		// NCCL ring: one latency per hop, inter-node hops and NVLink hops.
		lat = float64(sm.nodes-1)*s.HW.InterLatencyS + float64(s.EPSize()-sm.nodes)*s.HW.IntraLatencyS
	}
	if sm.nodes <= 1 {
		intra += inter
		inter = 0
	}
	interBW := s.a2aInterBytesPerS()
	if s.A2AHostNodes && s.HW.MNNVL() {
		// The spread's "node" is the NVLink domain, the traffic's the host:
		// the busiest host's share (ranks balanced over the domain's hosts)
		// over that host's NICs.
		inter /= float64(s.HW.GPUsPerNode) / float64(s.HW.hostGPUs())
	}
	t := max(LinkTime(inter, interBW, s.Eff.Link, 0, 0),
		LinkTime(intra, s.HW.IntraBytesPerS, s.Eff.Link, 0, 0))
	calls := 1.0
	if dbo && s.A2A.PointToPoint() {
		calls = vllm.DBOMicroBatches
	}
	t += calls * float64(phases) * (lat + s.Eff.CollectiveS + s.A2AFixedS)
	st.A2AS = sm.moeLayers * t
	st.InterBytesPerNode = sm.moeLayers * inter * float64(s.PP)
	st.IntraBytesPerGPU = sm.moeLayers * intra * float64(s.PP)
}

// gatherInHost is one MoE layer's gather exchange inside one host with TP
// = 1 (the EP group is the DP group, whose collectives vLLM runs), total
// tokens over the group, priced by the collectives vLLM issues:
//   - allgather_reducescatter: an all-gather of the group's BF16 hidden
//     states and a reduce-scatter of the outputs (router logits, a few % of
//     the bytes, left out as before);
//   - naive (S.A2ANaive, with UseNaiveA2A): per DP rank one broadcast of its
//     hidden states and one of its router logits (BF16 gate output, the
//     experts' count per token; assumed), then an all-reduce of the whole
//     gathered buffer (vllm.Kernels.NaiveBroadcast).
//
// Each collective is NCCL's measured latency where the GPU has tables
// (UseNCCLTables) and the link model elsewhere. NCCL has no broadcast
// table: a broadcast of b bytes is priced as the all-gather whose bus bytes
// are b (size b·n/(n−1)) — both are one ring pass of n−1 NVLink hops
// (assumed). false: the case is not this one (multi-node, TP > 1, or the
// plain gather without tables), and a2aTime's link model prices it.
func (sm *StepModel) gatherInHost(total float64) (float64, bool) {
	s := &sm.S
	n := s.DP
	if sm.nodes > 1 || s.TP != 1 || n < 2 || n > s.HW.hostGPUs() {
		return 0, false
	}
	buf := total * sm.hidden * 2
	coll := func(o ncclOp, size float64) float64 {
		if t, ok := s.ncclTime(o, n, size); ok {
			return t
		}
		return s.ncclFirstPrinciples(size * o.busFactor(n))
	}
	if s.A2ANaive && UseNaiveA2A {
		nf := float64(n)
		bcast := func(b float64) float64 { return coll(ncclAllGather, b*nf/(nf-1)) }
		logits := total * float64(s.Model.NumExperts) * 2
		return nf*(bcast(buf/nf)+bcast(logits/nf)) + coll(ncclAllReduce, buf), true
	}
	ag, ok1 := s.ncclTime(ncclAllGather, n, buf)
	rs, ok2 := s.ncclTime(ncclReduceScatter, n, buf)
	return ag + rs, ok1 && ok2
}

// tpReducesPerStage is the TP all-reduces of one stage's forward pass: two
// per decoder layer (after the attention's and the MLP's row-parallel
// output), one per Nemotron-H layer, whose hybrid_override_pattern gives
// each layer a single mixer (Mamba-2, attention, MLP or MoE) and so one
// row-parallel output (vLLM's nemotron_h.py: one mixer per decoder layer).
func tpReducesPerStage(m *catalog.Model, pp float64) float64 {
	if m.MixerFFN {
		// Granite-4.0-H: the mixer's, the MoE's and the shared MLP's
		// (catalog.Model.GraniteAllReduces).
		return float64(m.NumLayers*m.GraniteAllReduces()) / pp
	}
	if m.HybridPattern != "" {
		return float64(m.NumLayers) / pp
	}
	if m.NAS != nil {
		// Llama-Nemotron NAS: one all-reduce per attention and per MLP a
		// layer has (a no-op runs neither its projection nor its reduce).
		n := 0
		for i := 0; i < m.NumLayers; i++ {
			n += boolToInt(m.HasAttention(i)) + boolToInt(m.HasFFN(i))
		}
		return float64(n) / pp
	}
	if m.LongCat != nil {
		// LongCat-Flash's sub-layers (catalog/longcat.go): the attention's
		// and the dense MLP's all-reduce each, and the TP-sharded experts'
		// own output reduction on the MoE sub-layers (LongcatMoe's output
		// is added after mlps[1], not summed into an MLP's reduce).
		return float64(2*m.NumLayers+m.MoELayerCount()) / pp
	}
	return 2 * float64(m.NumLayers) / pp
}
