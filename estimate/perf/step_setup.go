// Package perf is the step-time model of a vLLM engine: one lock-step step
// over the DP ranks as a roofline of compute and HBM time per operation
// class plus communication (MoE all-to-all by the backend's traffic
// pattern, TP all-reduces, PP hand-offs) and host overhead, with the few
// global efficiency constants calibrated in docs/calibration-throughput.md.
// On top of it: steady decoding, idle-system prefill and physical floors.
package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// Hardware is what the step-time model needs about the GPUs and links,
// in SI units (FLOP/s, byte/s, seconds).
type Hardware struct {
	BF16FLOPS float64
	FP8FLOPS  float64 // 0 = no FP8 tensor cores
	FP4FLOPS  float64 // 0 = no FP4 tensor cores (catalog.GPU.FP4TFLOPS)
	// INT8OPS is the dense INT8 tensor-core peak (catalog.GPU.INT8TOPS);
	// 0 = no datasheet figure read: INT8 GEMMs are priced at BF16FLOPS.
	INT8OPS      float64
	HBMBytesPerS float64
	// GPUsPerNode is the GPUs that reach each other over the intra-node
	// link: one host's, or a multi-node NVLink domain's (InNVLinkDomain).
	GPUsPerNode int
	// HostGPUs is one host's GPUs when GPUsPerNode is an NVLink domain of
	// several hosts (0: GPUsPerNode is one host's). vLLM's custom
	// all-reduce stays inside a host (custom_all_reduce.py: "disabled
	// because this process group spans across nodes").
	HostGPUs int
	// IntraBytesPerS is one GPU's link to its node peers, one direction.
	IntraBytesPerS float64
	IntraLatencyS  float64
	// InterBytesPerSPerNode is the node's total RDMA/Ethernet bandwidth, one
	// direction (NICs × per-NIC rate), shared by its GPUs; for an NVLink
	// domain, all its hosts' NICs: what traffic leaving the domain takes.
	InterBytesPerSPerNode float64
	InterLatencyS         float64
	// IntraLink is the intra-node link's kind as the catalog names it
	// (catalog.GPU.IntraNodeKind: nvlink | pcie | xgmi; "" unknown): which
	// row of NCCL's hardware latencies a collective across nodes takes
	// (nccl_xnode.go).
	IntraLink string
}

// InNVLinkDomain is h with its "node" widened to a multi-node NVLink
// domain of domainGPUs (GB200/GB300 NVL72 trays sharing one NVLink
// fabric): collectives, all-to-alls and hand-offs inside it run at the
// intra-node link's bandwidth and latency, and what leaves it crosses the
// NICs of all its hosts. A domain no larger than a host changes nothing.
func (h Hardware) InNVLinkDomain(domainGPUs int) Hardware {
	host := max(1, h.GPUsPerNode)
	if domainGPUs <= host {
		return h
	}
	h.HostGPUs, h.GPUsPerNode = host, domainGPUs
	h.InterBytesPerSPerNode *= float64(domainGPUs) / float64(host)
	return h
}

// SetA2AFixed sets the all-to-all's fixed latency per layer
// (vllm.A2AFixedLatency) for a deployment spanning several hosts or not
// (multiNode), and, inside a multi-node NVLink domain, whether its
// backend's kernels run over the domain (overMNNVL,
// vllm.A2AOverMNNVL) or between hosts (A2AHostNodes): kernels that reach
// every EP peer over NVLink run their intranode form (DeepEP's low-latency
// kernels with MNNVL). check and the calibration replay both set it here.
func (s *StepSetup) SetA2AFixed(multiNode, overMNNVL bool) {
	if s.HW.MNNVL() {
		s.A2AHostNodes = !overMNNVL
		multiNode = s.EPSize() > s.a2aGroupGPUs()
	}
	s.A2AFixedS = vllm.A2AFixedLatency(s.A2A, multiNode, s.EPSize()).FixedS
}

// a2aGroupGPUs is the GPUs an all-to-all reaches over NVLink: the
// NVLink domain's, or one host's with A2AHostNodes.
func (s *StepSetup) a2aGroupGPUs() int {
	if s.A2AHostNodes {
		return s.HW.hostGPUs()
	}
	return max(1, s.HW.GPUsPerNode)
}

// a2aInterBytesPerS is the NIC bandwidth of one all-to-all "node" (the
// NVLink domain's NICs, or one host's with A2AHostNodes).
func (s *StepSetup) a2aInterBytesPerS() float64 {
	if s.A2AHostNodes && s.HW.MNNVL() {
		return s.HW.InterBytesPerSPerNode * float64(s.HW.hostGPUs()) / float64(s.HW.GPUsPerNode)
	}
	return s.HW.InterBytesPerSPerNode
}

// hostGPUs is one host's GPUs (HostGPUs, else GPUsPerNode).
func (h Hardware) hostGPUs() int {
	if h.HostGPUs > 0 {
		return h.HostGPUs
	}
	return max(1, h.GPUsPerNode)
}

// MNNVL reports whether the model's "node" is a multi-node NVLink domain.
func (h Hardware) MNNVL() bool { return h.HostGPUs > 0 && h.GPUsPerNode > h.HostGPUs }

// StepSetup is everything that fixes the cost of an engine step: model,
// hardware, layout, dtypes and engine switches. Fields are primitive so the
// model can be driven from a spec (see SetupFromInput) or from a
// calibration row directly.
type StepSetup struct {
	Model *catalog.Model
	HW    Hardware
	TP    int
	PP    int
	DP    int
	EP    bool
	// Replicas are independent copies of the TP × PP × DP engine, each with
	// its share of the sessions (0 or 1: one); a step is one replica's.
	Replicas int
	// WeightDType is bf16 | fp16 | fp8 | int8 | mxfp4 | nvfp4 | int4 (the
	// linear/expert weights).
	WeightDType string
	// KVDType is the KV-cache element type: bf16 | fp16 | fp8.
	KVDType string
	// A2A is the traffic pattern of the MoE all-to-all in effect
	// (vllm.TrafficNone when DP = 1 or the model is dense).
	A2A vllm.Traffic
	// A2ANaive: the gather exchange is vLLM's naive backend (vllm.Kernels.
	// NaiveBroadcast): broadcasts and an all-reduce, not an all-gather and a
	// reduce-scatter (gatherInHost).
	A2ANaive bool
	// FP8Dispatch sends dispatch activations as FP8 with one float32 scale per
	// 128 values (DeepEP with FP8 block-quantized experts); combine is BF16.
	FP8Dispatch bool
	// CUDAGraphs is whether the engine captures CUDA graphs, as vLLM
	// decides it (vllm.Release.CUDAGraphs); steps above the largest captured
	// batch still run eagerly.
	CUDAGraphs bool
	// MaxCaptureTokens is the largest captured batch in tokens per rank
	// (vLLM's --max-cudagraph-capture-size); 0: the default ceiling,
	// vllm.MaxCUDAGraphCaptureSize.
	MaxCaptureTokens int
	// EnforceEager runs every step in PyTorch eager mode (enforce_eager).
	EnforceEager bool
	// PrefillEager runs steps that carry prompt tokens in eager mode:
	// engines that capture CUDA graphs for decode only (SGLang, vLLM V0).
	PrefillEager bool
	// PrefillGraphTokens: with PrefillEager, a step of prompt tokens of at
	// most this many tokens on its busiest rank replays captured graphs
	// instead (SGLang's piecewise CUDA graph for prefill/extend, which picks
	// the smallest captured size at or above the step's tokens and runs
	// eagerly above the largest, --piecewise-cuda-graph-max-tokens); 0: none.
	PrefillGraphTokens int
	// SGLang selects SGLang's eager cost (calibration rows only).
	SGLang bool
	// FA2Varlen: vLLM runs attention as one FlashAttention-2 varlen call
	// per step (FA2VarlenFor; fa2mixed.go).
	FA2Varlen bool
	// SGLangVersion is the SGLang release's x.y.z (zero: unknown or not
	// SGLang), which sglangFP8TritonFactor reads.
	SGLangVersion [3]int
	// TPAR is what picks the TP all-reduce's kernel (tparChoice); zero:
	// the release is not known and the newest measured curve stands for
	// every size.
	TPAR TPARSetup
	// OverlapHost: the engine prepares the next step while the GPU runs
	// this one (vLLM --async-scheduling, SGLang's overlap scheduler), so
	// the host's work between steps hides behind the GPU's.
	OverlapHost bool
	DBO         bool
	// RedundantExperts are EPLB's extra expert replicas over the EP group;
	// each GPU holds and reads (E + R) / EP experts per MoE layer.
	RedundantExperts int
	// SpecTokens is the number of draft tokens per sequence per step
	// (speculative decoding): the target verifies SpecTokens + 1 positions.
	SpecTokens int
	// SpecDraft is the proposer the draft passes run (spec_draft.go); nil
	// with SpecTokens > 0 means the target's own MTP layer, as the
	// calibration rows that ran MTP did.
	SpecDraft *Drafter
	// SpecAccepted is the mean number of tokens a sequence emits per step
	// with speculative decoding (accepted drafts + 1); 0 means 1.
	SpecAccepted float64
	// A2AFixedS is the fixed time of one dispatch or combine phase of the
	// all-to-all kernels in use, beyond link latency
	// (vllm.A2AFixedLatency).
	A2AFixedS float64
	// A2AHostNodes: the all-to-all crosses the hosts of a multi-node
	// NVLink domain over their NICs, not NVLink (DeepEP's normal kernels,
	// vllm.A2AOverMNNVL), while TP and PP still use the domain's NVLink.
	A2AHostNodes bool
	// IdleRanksSlow: a lock-step step in which some DP rank has nothing to
	// do runs as a step without CUDA graphs (vllm.Release.IdleDPRanksSlow).
	IdleRanksSlow bool
	// DSV4Streams: the engine runs DeepSeek-V4's attention with aux CUDA
	// streams beside the main one (vLLM on CUDA: vllm.DSV4AuxStreams), so
	// the kernels it forks off cost the step's critical path only what
	// outlasts the main stream's (dsv4HiddenKernels).
	DSV4Streams bool
	// PPRayDAG: a pipeline's stages hand on their activations through Ray's
	// compiled graph (the Ray executor: the only way one vLLM engine spans
	// nodes before --nnodes, and --distributed-executor-backend ray
	// after), where every TP rank sends its whole IntermediateTensors to
	// its peer of the next stage; false: the multiprocess executor's
	// send_tensor_dict, each TP rank sending 1/TP and the receiver
	// all-gathering over its TP group (pphandoff.go).
	PPRayDAG bool
	// Storage is how the checkpoint stores the weights a step streams, as
	// the memory model sizes them (StorageBytesOf); zero where the setup
	// was not built from an input (the coarse rules by WeightDType).
	Storage StorageBytes
	// MarlinMoE: the engine runs the routed experts through Marlin's fused
	// MoE (vllm.Release.MarlinMoE: INT4 weight-only experts, MXFP4 where
	// the release picks Marlin), whose block heuristic UseMarlinBlocks
	// prices (marlinblocks.go).
	MarlinMoE bool
	// DCP is the decode context parallel size (0 or 1: off): each GPU of a
	// DCP group reads 1/DCP of every decode sequence's cached context, and
	// every attention layer gathers the queries and the partial softmax LSE
	// and reduce-scatters the outputs over the group (dcp.go).
	DCP int
	// MLABackend is the vLLM MLA attention backend the engine runs for an
	// MLA model (vllm.MLAFlashMLA etc.: the release's default for the GPU
	// and KV dtype, vllm.Release.MLABackend, or the one the run forces);
	// empty where unknown or not vLLM. flashMLAPadFactor reads it.
	MLABackend string
	Eff        Efficiency
}

// replicas is the number of independent replicas (at least 1).
func (s *StepSetup) replicas() int { return max(1, s.Replicas) }

// TokensPerStep is what one sequence emits per decode step.
func (s *StepSetup) TokensPerStep() float64 {
	if s.SpecTokens > 0 && s.SpecAccepted > 0 {
		return s.SpecAccepted
	}
	return 1
}

// EPSize is the expert-parallel group (TP × DP); without EP the experts are
// TP-sharded over the same TP × DP GPUs, so it is also their shard count.
func (s *StepSetup) EPSize() int { return s.TP * s.DP }

// gemmFLOPS is the tensor peak the linear layers run at: FP8 when the
// weights are FP8 and the GPU has FP8 tensor cores, INT8 for INT8 W8A8
// weights where the GPU's INT8 peak is known (vLLM's
// CompressedTensorsW8A8Int8 quantizes the activations per token and runs
// cutlass_scaled_mm on int8), FP4 for NVFP4 weights on a GPU with FP4
// tensor cores (Blackwell), BF16 otherwise (MXFP4 and NVFP4 without FP4
// tensor cores are dequantised to BF16 in the kernels; an INT8 GEMM on a
// GPU whose INT8 peak was not read is priced at BF16, never guessed).
func (s *StepSetup) gemmFLOPS() float64 {
	switch {
	case s.WeightDType == "fp8" && s.HW.FP8FLOPS > 0:
		return s.HW.FP8FLOPS
	case s.WeightDType == "int8" && s.HW.INT8OPS > 0:
		return s.HW.INT8OPS
	case s.WeightDType == "nvfp4" && s.HW.FP4FLOPS > 0:
		return s.HW.FP4FLOPS
	}
	return s.HW.BF16FLOPS
}

// expertFLOPS is the tensor peak the routed experts' GEMMs run at:
// gemmFLOPS, except for a compressed-tensors MXFP4 checkpoint whose
// release runs CUTLASS's MXFP4 × MXFP4 experts on this GPU (packedMXFP4W4A4):
// the FP4 peak, as NVFP4's experts, while the checkpoint's unquantized
// layers stay at gemmFLOPS.
func (s *StepSetup) expertFLOPS() float64 {
	if s.packedMXFP4W4A4() {
		return s.HW.FP4FLOPS
	}
	return s.gemmFLOPS()
}

// packedMXFP4 reports MXFP4 experts that vLLM serves through
// CompressedTensorsW4A4Mxfp4MoEMethod (vllm.MXFP4MethodFor), not
// gpt-oss's Mxfp4MoEMethod: their kernels are not the ones gpt-oss's
// measured MXFP4 curve timed.
func (s *StepSetup) packedMXFP4() bool {
	return s.WeightDType == "mxfp4" && s.Model != nil && s.Model.Quant.Format == catalog.FormatMXFP4 &&
		vllm.MXFP4MethodFor(s.Model.Architecture, s.Model.Quant.Method) == vllm.MXFP4MethodPacked
}

// packedMXFP4W4A4 reports packed MXFP4 experts on a GPU with FP4 tensor
// cores whose release verifiably runs them W4A4 (Efficiency.PackedMXFP4:
// CUTLASS, activations quantised to MXFP4 per 32).
func (s *StepSetup) packedMXFP4W4A4() bool {
	return s.packedMXFP4() && s.HW.FP4FLOPS > 0 && s.Eff.PackedMXFP4.Verified &&
		s.Eff.PackedMXFP4.Kernel.MXFP4Activations() == "mxfp4"
}

// gemmEff is the efficiency of the linear layers at gemmFLOPS: the FP8
// constant for FP8 weights on FP8 tensor cores, and for INT8 weights where
// int8AsFP8; the BF16 one otherwise.
func (s *StepSetup) gemmEff() float64 {
	if (s.WeightDType == "fp8" && s.HW.FP8FLOPS > 0 || s.int8AsFP8()) && s.Eff.GEMMFP8 > 0 {
		return s.Eff.GEMMFP8
	}
	return s.Eff.GEMM
}

// int8AsFP8 reports whether INT8 weights' GEMMs take the GPU's measured FP8
// GEMM figures (the efficiency and aiconfigurator's per-tensor fp8 tables):
// only where the GPU has them and its datasheet INT8 and FP8 peaks are
// equal (H100, H200, B200, GB200). No INT8 GEMM was measured; vLLM's INT8
// W8A8 path (per-token activation quantization, then cutlass_scaled_mm on
// int8) is the same CUTLASS scaled-mm family the fp8 tables time. Elsewhere
// INT8 takes the scalar GEMM efficiency.
func (s *StepSetup) int8AsFP8() bool {
	return s.WeightDType == "int8" && s.HW.INT8OPS > 0 && s.HW.INT8OPS == s.HW.FP8FLOPS && s.Eff.Kernels.GEMMFP8 > 0
}

// attnFLOPS is the attention peak: MLA decode with an FP8 KV cache runs
// FP8 (FlashMLA FP8); everything else BF16.
func (s *StepSetup) attnFLOPS(decode bool) float64 {
	if decode && s.Model.IsMLA() && s.KVDType == "fp8" && s.HW.FP8FLOPS > 0 {
		return s.HW.FP8FLOPS
	}
	return s.HW.BF16FLOPS
}

// perfBytesPerParam is the storage of one quantized linear weight by the
// weights dtype alone: the fallback of a setup without Storage (and the
// measured MoE curve's ridge, which is the curve's dtype's). FP8 block
// scales add one float32 per 128×128 block; MXFP4 stores 4 bits plus one
// 8-bit scale per 32 values, NVFP4 4 bits plus one FP8 scale per 16
// values, INT4 (GPTQ, AWQ, compressed-tensors W4A16) 4 bits plus one
// 16-bit scale per group — 128 assumed here; the checkpoint's own group
// size is read by StorageBytesOf (Kimi's 32 streams 9% more than this).
func perfBytesPerParam(dtype string) float64 {
	switch dtype {
	case "fp8":
		return 1 + 4.0/(128*128)
	case "int8":
		// One byte; the per-channel fp32 scales (4 B per input row of
		// hidden_size weights) are under 0.1% and left out.
		return 1
	case "mxfp4":
		return 4.25 / 8
	case "nvfp4":
		return 4.5 / 8
	case "int4":
		return (4 + 16.0/128) / 8
	default:
		return 2
	}
}

// kvElemBytes is the KV-cache element size.
func kvElemBytes(dtype string) float64 {
	if dtype == "fp8" || dtype == "fp8_e4m3" || dtype == "fp8_e5m2" {
		return 1
	}
	return 2
}

// denseBytesPerParam is the coarse storage of attention/dense/shared
// weights, for a setup without Storage: 4-bit checkpoints of MoE models
// quantize the experts (gpt-oss's MXFP4, Kimi's INT4; NVFP4 ones are taken
// to do the same — an assumption: ModelOpt's exclusion lists vary by
// checkpoint and only StorageBytesOf reads them); a dense model's 4-bit
// checkpoint quantizes its linears.
func (s *StepSetup) denseBytesPerParam() float64 {
	if fourBit(s.WeightDType) && s.Model.IsMoE() {
		return 2
	}
	return perfBytesPerParam(s.WeightDType)
}

// denseBytes is the bytes per dense weight a step streams: the
// checkpoint's (Storage.Dense), else the coarse rule.
func (s *StepSetup) denseBytes() float64 {
	if s.Storage.Dense > 0 {
		return s.Storage.Dense
	}
	return s.denseBytesPerParam()
}

// expertBytesPerParam is the bytes per routed-expert weight a step
// streams: the checkpoint's (Storage.Expert: DeepSeek-V4's FP4 experts
// under its FP8 config, the INT4 group size), else the weights dtype's.
func (s *StepSetup) expertBytesPerParam() float64 {
	if s.Storage.Expert > 0 {
		return s.Storage.Expert
	}
	return perfBytesPerParam(s.WeightDType)
}

// lmHeadBytes is the bytes per LM-head weight: the checkpoint's
// (Storage.LMHead: a mixed-precision checkpoint may quantize it), else 16
// bits (every other checkpoint vlaunch reads keeps it so).
func (s *StepSetup) lmHeadBytes() float64 {
	if s.Storage.LMHead > 0 {
		return s.Storage.LMHead
	}
	return 2
}

// fourBit: the 4-bit weight formats.
func fourBit(dtype string) bool { return dtype == "mxfp4" || dtype == "nvfp4" || dtype == "int4" }

// fallbackIntraGBytesPerS is the GPU-to-GPU bandwidth assumed when neither
// the spec nor the GPU figures give one: PCIe Gen5 x16, one direction.
const fallbackIntraGBytesPerS = 64

// NewHardware converts catalog figures and network settings (the
// units specs use) into SI units. intraGBps ≤ 0 takes the GPU's own link.
func NewHardware(g *catalog.GPU, gpusPerNode int, intraGBps, intraLatUs, interGbitPerNIC float64, nics int, interLatUs float64) Hardware {
	if intraGBps <= 0 {
		intraGBps = g.IntraNodeGBytesPerS
	}
	if intraGBps <= 0 {
		intraGBps = fallbackIntraGBytesPerS
	}
	return Hardware{
		BF16FLOPS:             g.BF16TFLOPS * 1e12,
		FP8FLOPS:              g.FP8TFLOPS * 1e12,
		FP4FLOPS:              g.FP4TFLOPS * 1e12,
		INT8OPS:               g.INT8TOPS * 1e12,
		HBMBytesPerS:          g.HBMBandwidthGBytesPerS * 1e9,
		GPUsPerNode:           max(1, gpusPerNode),
		IntraBytesPerS:        intraGBps * 1e9,
		IntraLatencyS:         intraLatUs * 1e-6,
		InterBytesPerSPerNode: interGbitPerNIC * 1e9 / 8 * float64(max(1, nics)),
		InterLatencyS:         interLatUs * 1e-6,
		IntraLink:             g.IntraNodeKind,
	}
}

// WithDP is a copy of s with another DP size.
func (s StepSetup) WithDP(dp int) *StepSetup {
	s.DP = dp
	return &s
}

// TPARSetup is what vLLM's release reads to pick the kernel of a TP
// all-reduce (vllm.Release.TPAllReduce).
type TPARSetup struct {
	// Known: Release is the deployment's; otherwise the newest measured
	// curve prices every size and no fusion is modelled.
	Known   bool
	Release vllm.Release
	// SM is the GPU's compute capability × 10 (103 for B300/GB300).
	SM int
	// MaxBatchedTokens is max_num_batched_tokens (0: not known), which caps
	// the fused all-reduce + RMSNorm's tokens.
	MaxBatchedTokens int
}
