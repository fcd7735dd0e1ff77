package replay

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// Assumed fabric when a multi-node source does not state its NICs: one
// 400 Gbit/s NIC per GPU (NVIDIA's HGX reference design, and what DeepSeek's
// and LMSYS's InfiniBand clusters describe), 2 µs latency.
const (
	assumedNICGbit     = 400
	assumedLatencyUs   = 2
	assumedIntraLatUs  = 2
	roceExtraLatencyUs = 8 // RoCE over Ethernet switches: ≈10 µs end to end
)

var nicRE = regexp.MustCompile(`(\d+)\s*x\s*(\d+)\s*Gbit/s per node`)

// fabric reads the inter-node NICs of a row: "N x M Gbit/s per node" when
// stated, else the assumption above (with the NIC count when only that is
// stated).
func fabric(h published.Hardware) (gbit float64, nics int, latUs float64, assumed bool) {
	if m := nicRE.FindStringSubmatch(h.InterNode); m != nil {
		n, _ := strconv.Atoi(m[1])
		g, _ := strconv.ParseFloat(m[2], 64)
		return g, n, assumedLatencyUs, false
	}
	lat := float64(assumedLatencyUs)
	if strings.Contains(strings.ToLower(h.InterNode), "roce") {
		lat += roceExtraLatencyUs
	}
	return assumedNICGbit, max(1, h.GPUsPerNode.Int()), lat, true
}

// nvlinkDomain is the multi-node NVLink domain a row's nodes share, in
// GPUs: the GPU's rack domain (catalog.GPU.NVLinkDomainGPUs, the GB200 and
// GB300 NVL72) when the row says its nodes reach each other over NVLink
// (inter_node "NVLink ..."), capped at the row's GPUs, as check widens a
// spec's nodes (perf.SetupFromInput, Hardware.InNVLinkDomain); 0 when the
// nodes talk over NICs. Without it a rack's trays would be priced as hosts
// joined by the assumed NICs.
func nvlinkDomain(h published.Hardware, g *catalog.GPU) int {
	if g.NVLinkDomainGPUs <= h.GPUsPerNode.Int() || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.InterNode)), "nvlink") {
		return 0
	}
	return min(g.NVLinkDomainGPUs, max(h.GPUs.Int(), h.GPUsPerNode.Int()))
}

// dtypeOf reads the first word of a dtype field ("fp8 (fbgemm_fp8, ...)").
func dtypeOf(s, def string) string {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return def
	}
	switch w := strings.TrimSuffix(f[0], ","); {
	case strings.HasPrefix(w, "fp8"):
		return "fp8"
	case w == "bf16" || w == "fp16" || w == "mxfp4" || w == "nvfp4" || w == "int4":
		// int4: GPTQ / AWQ / compressed-tensors W4A16 experts (Kimi's
		// checkpoints), which the step model prices as 4-bit weights
		// (perf.perfBytesPerParam); before it was read here such a row
		// would have been replayed with BF16 weights.
		return w
	}
	return def
}

// traffic maps the row's all-to-all description onto a traffic pattern.
// Unknown or engine-default exchanges of a DP>1 MoE deployment gather every
// rank's tokens (vLLM's naive / allgather backends, SGLang's EP MoE without
// DeepEP).
func traffic(r published.Row) vllm.Traffic {
	if r.Layout.DP.Int() <= 1 || r.Layout.EP.Int() <= 1 {
		return vllm.TrafficNone
	}
	a := strings.ToLower(r.Features.All2All)
	switch {
	case strings.Contains(a, "low-latency"), strings.HasPrefix(a, "internal"):
		return vllm.TrafficPerExpert
	case strings.Contains(a, "normal"), strings.Contains(a, "high-throughput"):
		return vllm.TrafficPerNode
	}
	return vllm.TrafficGather
}

// naiveA2A reports whether a vLLM row's gather exchange is the naive
// backend: named so, or unnamed (or "unknown") on a release whose default
// it is (vllm.Release.Defaults; a row without a release is replayed on the
// newest, whose default is allgather_reducescatter).
func naiveA2A(r published.Row, rel vllm.Release) bool {
	a := strings.ToLower(r.Features.All2All)
	switch {
	case strings.Contains(a, vllm.BackendNaive):
		return true
	case a != "" && a != "unknown":
		return false
	}
	k, _ := vllm.BackendKernels(rel.Defaults().All2AllBackend)
	return k.NaiveBroadcast
}

// dbo reads whether the source ran two overlapped micro-batches.
func dbo(r published.Row) bool {
	o := strings.ToLower(r.Features.Overlap)
	return strings.Contains(o, "two-batch") || strings.Contains(o, "dual micro-batch") || strings.Contains(o, "dbo")
}

// Setup builds the step-model setup of a row with the given constants, and
// the row's engine.
func Setup(r published.Row, eff perf.Efficiency) (perf.StepSetup, engine, error) {
	m, err := catalog.LookupModel(r.Model.Catalog)
	if err != nil {
		return perf.StepSetup{}, engine{}, err
	}
	g, err := catalog.LookupGPU(r.Hardware.GPU)
	if err != nil {
		return perf.StepSetup{}, engine{}, err
	}
	h, l := r.Hardware, r.Layout
	if !l.TP.Positive() || !l.DP.Positive() || !h.GPUsPerNode.Positive() {
		return perf.StepSetup{}, engine{}, fmt.Errorf("layout or GPUs per node unknown")
	}
	e := engineOf(r, g, maxModelLen(r, m.MaxPositionEmbeddings))
	gbit, nics, lat, _ := fabric(h)
	hw := perf.NewHardware(g, h.GPUsPerNode.Int(), 0, assumedIntraLatUs, gbit, nics, lat)
	multi := h.Nodes.Int() > 1
	if !multi {
		hw.InterBytesPerSPerNode, hw.InterLatencyS = 0, 0
	} else if d := nvlinkDomain(h, g); d > 0 {
		hw = hw.InNVLinkDomain(d)
	}
	s := perf.StepSetup{Model: m, HW: hw, TP: l.TP.Int(), PP: max(1, l.PP.Int()), DP: l.DP.Int(), EP: l.EP.Int() > 1,
		WeightDType: dtypeOf(r.Model.Weights, "bf16"), KVDType: dtypeOf(r.Model.KVCacheDType, "bf16"),
		A2A: traffic(r), CUDAGraphs: e.graphs, EnforceEager: e.eager, PrefillEager: e.prefillEager, DBO: dbo(r), Eff: perf.ForRelease(eff, g, e.release, e.name == "vllm", envOf(r.Engine.Flags))}
	s.PrefillGraphTokens = sglangPiecewiseTokens(r, e, m.IsMLA())
	if s.A2A == vllm.TrafficPerNode && !r.Features.CUDAGraphs.Known {
		s.CUDAGraphs = false // DeepEP normal kernels are not graph-capturable
	}
	if s.EP && r.Features.EPLBRedundantExperts.Positive() {
		s.RedundantExperts = r.Features.EPLBRedundantExperts.Int()
	}
	s.Storage = storage(m, g, s)
	s.FP8Dispatch = s.A2A.PointToPoint() && s.WeightDType == "fp8"
	s.DSV4Streams = e.name == "vllm" && vllm.DSV4AuxStreams(g.Vendor)
	// Pipeline hand-offs through Ray's compiled graph (perf.StepSetup.
	// PPRayDAG): a vLLM row that names the Ray executor, or whose engine
	// spans nodes on a release without --nnodes and names no --nnodes.
	s.PPRayDAG = e.name == "vllm" && s.PP > 1 && (strings.Contains(r.Engine.Flags, "--distributed-executor-backend ray") ||
		strings.Contains(r.Engine.Flags, "--distributed-executor-backend=ray") ||
		(multi && s.TP*s.PP > h.GPUsPerNode.Int() && !strings.Contains(r.Engine.Flags, "--nnodes") && e.release.Defaults().MultiNodeEngine != "nnodes"))
	s.MarlinMoE = e.name == "vllm" && marlinMoE(r, m, g, s, e.release)
	s.A2ANaive = s.A2A == vllm.TrafficGather && e.name == "vllm" && naiveA2A(r, e.release)
	if e.name == "vllm" && m.IsMLA() {
		s.MLABackend = mlaBackend(r, g, s, e.release)
	}
	s.FA2Varlen = e.name == "vllm" && perf.FA2VarlenFor(e.release, g, m, s.KVDType == "fp8", envOf(r.Engine.Flags))
	// Inside a multi-node NVLink domain the row's all-to-all runs over it
	// (the only such row runs DeepEP, whose kernels use MNNVL).
	s.SetA2AFixed(multi, true)
	if e.name == "vllm" && e.versioned {
		// The release's TP all-reduce kernel (perf.UseTPARPerRelease).
		s.TPAR = perf.TPARSetupFor(e.release, g, r.Features.MaxNumBatchedTokens.Int())
	}
	if e.name == "vllm" {
		s.IdleRanksSlow, _ = e.release.IdleDPRanksSlow()
		if !e.versioned && IdleDPSlowWhenReleaseUnknown {
			s.IdleRanksSlow = true
		}
	} else {
		s.SGLang = true
		if v, ok := sglangVersion(r.Engine.Version); ok && r.Engine.Name == "sglang" {
			s.SGLangVersion = v
		}
		// SGLang's overlap scheduler is on unless disabled, and off under
		// pipeline parallelism: ServerArgs._handle_pipeline_parallelism
		// sets disable_overlap_schedule when pp_size > 1 ("Pipeline
		// parallelism is incompatible with overlap schedule.",
		// python/sglang/srt/server_args.py in the stored copies of the
		// 0.5.x line; sgl-project/sglang@001067ff keeps it as the
		// _pipeline_parallel_overlap_disable post-process).
		s.OverlapHost = !strings.Contains(r.Engine.Flags, "--disable-overlap-schedule") && s.PP <= 1
	}
	if f := r.Features.MaxCUDAGraphCaptureSize; f.Positive() {
		s.MaxCaptureTokens = f.Int()
	}
	if f := r.Features.AsyncScheduling; f.Known && f.V {
		s.OverlapHost = true
	}
	if perf.UseAsyncOverlap && e.name == "vllm" && e.scheduleAhead {
		s.OverlapHost = true
	}
	if sp := r.Speculative; sp != nil && sp.NumSpeculativeTokens.Positive() {
		s.SpecTokens = sp.NumSpeculativeTokens.Int()
		s.SpecAccepted = acceptance(sp)
	}
	return s, e, nil
}

// IdleDPSlowWhenReleaseUnknown: a vLLM row whose release cannot be read
// (version unknown) steps as the releases with the idle-rank slowdown do
// (vllm.Release.IdleDPRanksSlow: 0.10.1 and 0.10.2), where otherwise the
// newest release's rules stand in for it and would rule the slowdown out.
// The row's release cannot rule it in or out; the only such rows with
// DP + EP are vllm-issue-23752's, whose source (2025-08-27, before 0.11.0
// shipped; PyTorch 2.7.1 in its posted environment, as vLLM pinned until PR
// #20358 of 2025-08-29) reports the slowdown itself. Off: those rows take
// the newest release's rule (no slowdown).
var IdleDPSlowWhenReleaseUnknown = true

// storage is how the row's checkpoint stores the weights its steps stream
// (perf.StorageBytesOf), where the row's weights are the catalog
// checkpoint's own dtype: the memory model then reads that checkpoint. A
// row whose catalog entry stands in for another checkpoint's architecture
// (inferencex-pr-3183: DeepSeek-R1 NVFP4 on the FP8 entry) says only the
// dtype, and keeps the coarse rules by it.
func storage(m *catalog.Model, g *catalog.GPU, s perf.StepSetup) perf.StorageBytes {
	if s.WeightDType != m.CheckpointDType() {
		return perf.StorageBytes{}
	}
	in := &input.Input{Model: m, GPU: g, WeightsDType: s.WeightDType, WeightsFromCheckpoint: true,
		Layout: input.Layout{TP: s.TP, PP: s.PP, DP: s.DP, EP: s.EP}}
	return perf.StorageBytesOf(in)
}

// acceptance is the published mean acceptance length (tokens per verify
// step, bonus included), the middle of a published range, or — when the
// source gives none — the chain of per-position acceptance 0.85 the Ant Group
// figures fit (published/README.md).
func acceptance(sp *published.Speculative) float64 {
	a := sp.AcceptanceLength
	switch {
	case a.Mean.Known:
		return a.Mean.V
	case a.Median.Known:
		return a.Median.V
	case a.Min.Known && a.Max.Known:
		return (a.Min.V + a.Max.V) / 2
	}
	acc, p := 1.0, 1.0
	for range sp.NumSpeculativeTokens.Int() {
		p *= 0.85
		acc += p
	}
	return acc
}

// marlinMoE says whether the row's vLLM ran the routed experts through
// Marlin's fused MoE: the row says so (features.moe_backend names Marlin),
// or the release's rule does for the row's expert dtype
// (vllm.Release.MarlinMoE: MXFP4 where the release picks Marlin; INT4 only
// where the catalog checkpoint is the INT4 one, whose group size the rule
// reads).
func marlinMoE(r published.Row, m *catalog.Model, g *catalog.GPU, s perf.StepSetup, rel vllm.Release) bool {
	if !m.IsMoE() {
		return false
	}
	if b := strings.ToLower(r.Features.MoEBackend); b != "" {
		return strings.Contains(b, "marlin")
	}
	in := &input.Input{Model: m, GPU: g, WeightsDType: s.WeightDType, WeightsFromCheckpoint: s.WeightDType == m.CheckpointDType(),
		Layout: input.Layout{TP: s.TP, DP: s.DP, EP: s.EP}, Env: envOf(r.Engine.Flags)}
	if s.A2A != vllm.TrafficNone {
		in.All2AllBackend = "unknown"
	}
	in.VLLMVersion = rel.Version.String()
	return input.MarlinMoE(in).Runs == vllm.Present
}

// mlaBackend is the vLLM MLA attention backend a row runs: the one its
// source names (features.attention_backend, VLLM_ATTENTION_BACKEND in the
// quoted command, --attention-backend), else the release's default for the
// GPU and KV dtype (vllm.Release.MLABackend). A FlashMLA FP8 name is
// FlashMLA's dense kernel for a dense MLA model.
func mlaBackend(r published.Row, g *catalog.GPU, s perf.StepSetup, rel vllm.Release) string {
	named := r.Features.AttentionBackend
	if named == "" {
		named = envOf(r.Engine.Flags)[vllm.AttentionBackendEnv]
	}
	if named == "" {
		if m := attnBackendFlag.FindStringSubmatch(r.Engine.Flags); m != nil {
			named = m[1]
		}
	}
	if named != "" {
		n := strings.ToUpper(strings.ReplaceAll(named, "-", "_"))
		switch {
		case strings.Contains(n, "FLASHMLA_SPARSE"):
			return vllm.MLAFlashMLASparse
		case strings.HasPrefix(n, "FLASHMLA"):
			return vllm.MLAFlashMLA
		}
		return n
	}
	b, _ := rel.MLABackend(g.ComputeMajor, s.KVDType == "fp8", s.Model.IsSparseAttention())
	return b
}

// attnBackendFlag is vLLM's --attention-backend in a quoted command.
var attnBackendFlag = regexp.MustCompile(`--attention[-_]backend[= ]+([A-Za-z0-9_]+)`)
