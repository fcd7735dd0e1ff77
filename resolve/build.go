package resolve

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Parts are what validate resolves one at a time (so that it can report
// each problem at its own position) before Assemble puts them together.
type Parts struct {
	Model        *catalog.Model
	GPU          *catalog.GPU
	Release      vllm.Release
	Version      Setting[string]
	VersionNotes []string
	// Calibration is the spec's calibration file, resolved (zero: global).
	Calibration Calibration
	// Draft is vllm.speculative.draft_model's architecture (DraftModel;
	// nil when the spec names none).
	Draft *catalog.Model
}

// SourceSpec resolves a loaded, defaulted spec (spec.ApplyDefaults). It
// stops at the first part it cannot resolve; validate reports every problem
// with its position, so commands build the deployment through validate and
// SourceSpec serves tests and tools that start from trusted specs.
func FromSpec(d *spec.Deployment) (*Deployment, error) {
	m, err := Model(d)
	if err != nil {
		return nil, fieldErr("model", err.Error(), "see `vlaunch models` for catalog ids")
	}
	g, err := GPU(d)
	if err != nil {
		return nil, fieldErr("hardware.gpu", err.Error(), "see `vlaunch gpus`, or give custom figures")
	}
	r, ver, notes, err := Release(d.VLLM.Version)
	if err != nil {
		return nil, fieldErr("vllm.version", err.Error(), "")
	}
	cal, err := specCalibration(d)
	if err != nil {
		return nil, err
	}
	draft, err := DraftModel(d)
	if err != nil {
		return nil, fieldErr("vllm.speculative.draft_model", err.Error(), "")
	}
	parts := Parts{Model: m, GPU: g, Release: r, Version: ver, VersionNotes: notes, Calibration: cal, Draft: draft}
	if d.Disaggregation != nil {
		return fromSpecPD(d, parts)
	}
	return Assemble(d, parts)
}

// fromSpecPD assembles each pool's RoleView, then the P/D deployment (a
// pool's speculative draft is the top-level one: FromSpec trusts its spec).
func fromSpecPD(d *spec.Deployment, parts Parts) (*Deployment, error) {
	var roles []*Deployment
	for _, role := range spec.Roles {
		r, err := Assemble(d.RoleView(role), parts)
		if err != nil {
			return nil, err
		}
		roles = append(roles, r)
	}
	return AssembleDisaggregated(d, roles)
}

// Assemble builds the deployment from resolved parts and the spec's
// settings: layout, network, engine settings with release defaults, and
// the all2all backend.
//
// A colocated deployment whose top-level router runs on a CPU-only node
// is laid out on its GPU nodes (spec.Deployment.EngineView): Spec is then
// that view, and Router.Node the CPU-only host.
func Assemble(d *spec.Deployment, p Parts) (*Deployment, error) {
	d = d.EngineView()
	out := &Deployment{Spec: d, Model: p.Model, ModelSource: modelSource(d, p.Model), GPU: p.GPU,
		Release: p.Release, Version: p.Version, VersionNotes: p.VersionNotes, Defaults: p.Release.Defaults(),
		Workload: d.Workload, SLO: d.SLO, Runtime: d.Runtime, Nodes: d.Hardware.Nodes, Calibration: p.Calibration, draft: p.Draft}
	out.Layout = layoutFromSpec(d)
	out.Network = networkFromSpec(d.Hardware.Network, p.GPU)
	out.Router = colocatedRouter(d)
	v := d.VLLM
	err := out.resolveEngine(EngineSettings{
		Weights: d.Model.Weights, KVCacheDType: v.KVCacheDType, Util: v.GPUMemoryUtilization,
		MaxModelLen: d.Workload.MaxModelLen, MaxNumSeqs: v.MaxNumSeqs, MaxNumBatchedTokens: v.MaxNumBatchedTokens,
		BlockSize: v.BlockSize, All2All: v.All2AllBackend, EnforceEager: v.EnforceEager,
		EnableDBO: v.EnableDBO, EnableEPLB: v.EnableEPLB, Redundant: v.NumRedundantExperts, Env: v.Env,
		Speculative: v.Speculative, Draft: p.Draft, APIServerCount: v.APIServerCount, DCP: v.DecodeContextParallelSize,
		ExtraArgs: v.ExtraArgs,
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Build assembles a deployment without a spec from resolved parts, a
// layout, a network, a workload and raw engine settings: the quick form,
// calibration tables and tests start here.
func Build(p Parts, l Layout, n Network, w spec.Workload, e EngineSettings) (*Deployment, error) {
	if p.Model == nil || p.GPU == nil {
		return nil, fieldErr("model", "a deployment needs a model and a GPU", "")
	}
	d := &Deployment{Model: p.Model, ModelSource: p.Model.ID, GPU: p.GPU, Release: p.Release, Version: p.Version,
		VersionNotes: p.VersionNotes, Defaults: p.Release.Defaults(), Layout: l, Network: n, Workload: w, Calibration: p.Calibration, draft: p.Draft}
	if err := d.resolveEngine(e); err != nil {
		return nil, err
	}
	return d, nil
}

// layoutFromSpec reads parallelism and the hosts; `auto` keeps TP, PP and
// DP at 1 until the search picks a layout.
func layoutFromSpec(d *spec.Deployment) Layout {
	p := d.Parallelism
	l := Layout{TP: orOne(p.Tensor), PP: orOne(p.Pipeline), DP: orOne(p.Data), EP: p.Expert, Replicas: p.ReplicaCount(),
		Nodes: len(d.Hardware.Nodes), Auto: p.Auto}
	if p.Auto {
		l.TP, l.PP, l.DP, l.EP, l.Replicas = 1, 1, 1, false, 1
	}
	for _, n := range d.Hardware.Nodes {
		l.GPUsPerNode = max(l.GPUsPerNode, n.GPUs)
	}
	if l.Nodes == 0 {
		l.Nodes, l.GPUsPerNode = 1, l.TotalGPUs()
	}
	return l
}

func orOne(v int) int {
	if v <= 0 {
		return 1
	}
	return v
}

// networkFromSpec fills what the spec leaves out from the GPU's figures and
// spec.Defaults.
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
	out.NVLinkDomainGPUs = NVLinkDomainGPUs(n, g)
	return out
}

// NVLinkDomainGPUs is the size of the spec's multi-node NVLink domain:
// nvlink_domain.gpus, or the GPU's own domain when it leaves the size out;
// 0 without a nvlink_domain block.
func NVLinkDomainGPUs(n spec.Network, g *catalog.GPU) int {
	if n.NVLinkDomain == nil {
		return 0
	}
	if n.NVLinkDomain.GPUs > 0 {
		return n.NVLinkDomain.GPUs
	}
	return g.NVLinkDomainGPUs
}

// WithLayout returns a copy of d with layout l (Nodes and GPUsPerNode kept
// from d) and what depends on the layout resolved again: the all2all
// backend, CUDA graphs and the API-server count. It is how `parallelism:
// auto` gets its answer.
func (d Deployment) WithLayout(l Layout) Deployment {
	l.Nodes, l.GPUsPerNode, l.Auto = d.Layout.Nodes, d.Layout.GPUsPerNode, false
	d.Layout = l
	d.resolveForLayout()
	return d
}
