// Package estimate is vlaunch's feasibility engine: pure functions from a
// resolved Input to per-GPU memory, KV-cache capacity, step time and SLO
// verdicts. Nothing here prints, reads files after FromSpec, or exits.
package estimate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// Diagnostic codes reported while resolving the input (ESTxxx, package estimate).
const (
	CodeUnknownModel  = "EST001" // model name not in the catalog / config unreadable
	CodeUnknownGPU    = "EST002" // GPU name not in the catalog / custom figures incomplete
	CodeBadLayout     = "EST003" // TP/PP/DP not positive, or GPUs do not add up
	CodeBadDType      = "EST004" // weights or KV dtype vLLM cannot use for this model
	CodeBadSetting    = "EST005" // out-of-range engine setting (utilization, lengths)
	CodeVersionApprox = "EST006" // vLLM version resolved to a neighbouring release
)

// Layout is the parallel layout of the deployment.
type Layout struct {
	TP, PP, DP int
	// EP is --enable-expert-parallel; the EP group is TP × DP ranks.
	EP bool
	// Nodes and GPUsPerNode describe the hosts (GPUsPerNode = the largest node).
	Nodes, GPUsPerNode int
}

// GPUs is the number of GPUs the layout uses (TP × PP × DP).
func (l Layout) GPUs() int { return l.TP * l.PP * l.DP }

// EPSize is the number of ranks MoE layers are spread over: TP × DP (vLLM's
// FusedMoEParallelConfig), whether experts are split (EP) or TP-sharded.
func (l Layout) EPSize() int { return l.TP * l.DP }

// Network is the resolved interconnect the performance model uses.
type Network struct {
	// IntraGBytesPerS is the GPU-to-GPU link per GPU, one direction.
	IntraGBytesPerS float64
	IntraLatencyUs  float64
	// InterGbitPerSPerNIC is one NIC, one direction.
	InterGbitPerSPerNIC float64
	NICsPerNode         int
	InterLatencyUs      float64
	// InterKind is infiniband | roce | ethernet ("" on one node).
	InterKind string
	// GPUDirectRDMA says NICs support GPU-initiated RDMA (DeepEP internode).
	GPUDirectRDMA bool
}

// Input is everything the memory and performance models need, with every
// default resolved. Both halves of `vlaunch check` read it; build it with
// FromSpec or QuickInput, or by hand in tests.
type Input struct {
	Model *catalog.Model
	GPU   *catalog.GPU
	// ModelSource says where the model came from (catalog id or config path).
	ModelSource string
	Layout      Layout
	// WeightsDType is how linear weights are stored: bf16 | fp16 | fp8 | int8 | mxfp4.
	WeightsDType string
	// WeightsFromCheckpoint is true when WeightsDType is what the checkpoint
	// ships (model.weights auto or equal); false means an up-cast or online
	// quantization of it.
	WeightsFromCheckpoint bool
	// KVCacheDType is bf16 | fp16 | fp8.
	KVCacheDType         string
	GPUMemoryUtilization float64
	MaxModelLen          int
	MaxNumSeqs           int
	MaxNumBatchedTokens  int
	// BlockSize is the KV block size vLLM will use (MLA backends force 64).
	BlockSize int
	// All2AllBackend is the MoE all-to-all backend in effect ("" when the
	// all2all kernels do not run: no EP or DP = 1).
	All2AllBackend string
	// All2AllExplicit is true when the user named the backend (spec or
	// VLLM_ALL2ALL_BACKEND) rather than leaving it to `auto`.
	All2AllExplicit bool
	// EnforceEager is vllm.enforce_eager: no CUDA graphs whatever the backend.
	EnforceEager        bool
	CUDAGraphs          bool
	EnableDBO           bool
	EnableEPLB          bool
	NumRedundantExperts int
	Network             Network
	Workload            spec.Workload
	SLO                 spec.SLO
	VLLMVersion         string
	// Env is the spec's vllm.env (read for VLLM_DEEPEP_BUFFER_SIZE_MB,
	// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, ...).
	Env map[string]string
	// Assumptions lists defaults the resolution chose, for the report.
	Assumptions []string
	// a2aAsked and a2aDefault are the all2all setting as written and the
	// version's default, kept so WithLayout can re-resolve `auto`.
	a2aAsked, a2aDefault string
}

// FromSpec resolves a loaded, defaulted deployment into an Input: catalog
// lookups (or the model config relative to the spec file, or custom GPU
// figures), version-dependent vLLM defaults, and the network.
func FromSpec(d *spec.Deployment) (Input, diag.Diagnostics) {
	var ds diag.Diagnostics
	in := Input{Workload: d.Workload, SLO: d.SLO, VLLMVersion: d.VLLM.Version, Env: d.VLLM.Env}
	m, src, err := resolveModel(d)
	if err != nil {
		return in, append(ds, estErr(CodeUnknownModel, "model", err.Error(), "see `vlaunch models` for catalog ids"))
	}
	in.Model, in.ModelSource = m, src
	g, err := resolveGPU(d.Hardware.GPU)
	if err != nil {
		return in, append(ds, estErr(CodeUnknownGPU, "hardware.gpu", err.Error(), "see `vlaunch gpus`, or give custom figures"))
	}
	in.GPU = g
	in.Layout = layoutFromSpec(d)
	in.Network = networkFromSpec(d.Hardware.Network, g)
	eng := engineSettings{
		Weights: d.Model.Weights, KVCacheDType: d.VLLM.KVCacheDType, Util: d.VLLM.GPUMemoryUtilization,
		MaxModelLen: d.Workload.MaxModelLen, MaxNumSeqs: d.VLLM.MaxNumSeqs, MaxNumBatchedTokens: d.VLLM.MaxNumBatchedTokens,
		BlockSize: d.VLLM.BlockSize, All2All: d.VLLM.All2AllBackend, EnforceEager: d.VLLM.EnforceEager,
		EnableDBO: d.VLLM.EnableDBO, EnableEPLB: d.VLLM.EnableEPLB, Redundant: d.VLLM.NumRedundantExperts,
	}
	ds = append(ds, in.resolveEngine(eng)...)
	return in, ds
}

// QuickOptions is the quick form of `vlaunch check` (no spec file).
type QuickOptions struct {
	Model, GPU           string
	TP, PP, DP           int
	EP                   bool
	MaxModelLen          int
	GPUMemoryUtilization float64 // 0 = the version's default
	KVCacheDType         string  // "" = auto
	Weights              string  // "" = auto
	VLLMVersion          string  // "" = the newest release vlaunch knows
	Concurrency          int     // 0 = one sequence
	GPUsPerNode          int     // 0 = min(8, TP×PP×DP)
}

// QuickInput resolves the quick form into an Input.
func QuickInput(o QuickOptions) (Input, diag.Diagnostics) {
	var ds diag.Diagnostics
	in := Input{VLLMVersion: o.VLLMVersion}
	m, err := catalog.LookupModel(o.Model)
	if err != nil {
		return in, diag.Diagnostics{estErr(CodeUnknownModel, "--model", err.Error(), "see `vlaunch models` for catalog ids")}
	}
	in.Model, in.ModelSource = m, m.ID
	g, err := catalog.LookupGPU(o.GPU)
	if err != nil {
		return in, diag.Diagnostics{estErr(CodeUnknownGPU, "--gpu", err.Error(), "see `vlaunch gpus`")}
	}
	in.GPU = g
	in.Layout = Layout{TP: orOne(o.TP), PP: orOne(o.PP), DP: orOne(o.DP), EP: o.EP}
	n := in.Layout.GPUs()
	in.Layout.GPUsPerNode = o.GPUsPerNode
	if in.Layout.GPUsPerNode <= 0 {
		in.Layout.GPUsPerNode = min(8, n)
	}
	in.Layout.Nodes = (n + in.Layout.GPUsPerNode - 1) / in.Layout.GPUsPerNode
	in.Network = networkFromSpec(spec.Network{}, g)
	in.Workload = spec.Workload{Concurrency: max(o.Concurrency, 1), MaxModelLen: o.MaxModelLen,
		InputTokens: spec.Defaults.InputTokens, OutputTokens: spec.Defaults.OutputTokens}
	var util *float64
	if o.GPUMemoryUtilization > 0 {
		util = &o.GPUMemoryUtilization
	}
	eng := engineSettings{Weights: o.Weights, KVCacheDType: o.KVCacheDType, Util: util, MaxModelLen: o.MaxModelLen, All2All: "auto"}
	ds = append(ds, in.resolveEngine(eng)...)
	in.Workload.MaxModelLen = in.MaxModelLen
	return in, ds
}

func orOne(v int) int {
	if v <= 0 {
		return 1
	}
	return v
}

func estErr(code, path, msg, hint string) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: diag.Error, Path: path, Message: msg, Hint: hint}
}

func resolveModel(d *spec.Deployment) (*catalog.Model, string, error) {
	if d.Model.Config != "" {
		p := d.Model.Config
		if !filepath.IsAbs(p) && d.File != "" {
			p = filepath.Join(filepath.Dir(d.File), p)
		}
		m, err := catalog.LoadHFConfig(p)
		if err != nil {
			return nil, "", fmt.Errorf("model.config %s: %w", d.Model.Config, err)
		}
		m.ID = strings.TrimSuffix(filepath.Base(filepath.Dir(p)), "/")
		return m, d.Model.Config, nil
	}
	if d.Model.Name == "" {
		return nil, "", fmt.Errorf("the spec names no model (model.name or model.config)")
	}
	m, err := catalog.LookupModel(d.Model.Name)
	if err != nil {
		return nil, "", err
	}
	return m, m.ID, nil
}

func resolveGPU(r spec.GPURef) (*catalog.GPU, error) {
	if r.Custom == nil {
		if r.Name == "" {
			return nil, fmt.Errorf("the spec names no GPU (hardware.gpu)")
		}
		return catalog.LookupGPU(r.Name)
	}
	c := r.Custom
	if c.MemoryMiB <= 0 {
		return nil, fmt.Errorf("custom GPU %q needs memory_mib (the CUDA-runtime total)", c.Name)
	}
	name := c.Name
	if name == "" {
		name = "custom GPU"
	}
	return &catalog.GPU{ID: "custom", Name: name, Vendor: c.Vendor, MemoryMiB: c.MemoryMiB, SMIMemoryMiB: c.MemoryMiB,
		HBMBandwidthGBytesPerS: c.HBMBandwidthGBytesPerS, BF16TFLOPS: c.BF16TFLOPS, FP8TFLOPS: c.FP8TFLOPS,
		IntraNodeGBytesPerS: c.IntraNodeGBytesPerS, IntraNodeKind: "nvlink"}, nil
}

func layoutFromSpec(d *spec.Deployment) Layout {
	p := d.Parallelism
	l := Layout{TP: orOne(p.Tensor), PP: orOne(p.Pipeline), DP: orOne(p.Data), EP: p.Expert, Nodes: len(d.Hardware.Nodes)}
	for _, n := range d.Hardware.Nodes {
		l.GPUsPerNode = max(l.GPUsPerNode, n.GPUs)
	}
	if l.Nodes == 0 {
		l.Nodes, l.GPUsPerNode = 1, l.GPUs()
	}
	return l
}

func networkFromSpec(n spec.Network, g *catalog.GPU) Network {
	out := Network{
		IntraGBytesPerS: n.IntraNode.BandwidthGBytesPerS, IntraLatencyUs: n.IntraNode.LatencyUs,
		InterGbitPerSPerNIC: n.InterNode.BandwidthGbitPerS, NICsPerNode: n.InterNode.NICsPerNode,
		InterLatencyUs: n.InterNode.LatencyUs, InterKind: n.InterNode.Kind,
	}
	if out.IntraGBytesPerS <= 0 {
		out.IntraGBytesPerS = g.IntraNodeGBytesPerS
	}
	if out.IntraLatencyUs <= 0 {
		out.IntraLatencyUs = spec.Defaults.IntraNodeLatencyUs
	}
	if out.NICsPerNode <= 0 {
		out.NICsPerNode = spec.Defaults.NICsPerNode
	}
	if out.InterLatencyUs <= 0 {
		out.InterLatencyUs = spec.Defaults.InterNodeLatencyUs[out.InterKind]
	}
	if n.InterNode.GPUDirectRDMA != nil {
		out.GPUDirectRDMA = *n.InterNode.GPUDirectRDMA
	} else {
		out.GPUDirectRDMA = out.InterKind == "infiniband" || out.InterKind == "roce"
	}
	return out
}
