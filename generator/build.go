package generator

import (
	"fmt"
	"path/filepath"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Runtimes the generator supports.
var Runtimes = []string{"bare", "docker", "kubernetes"}

// MakePlan works out the whole bundle as data. d must be defaulted
// (spec.ApplyDefaults) and should be validated; MakePlan re-checks what it
// relies on and reports problems as GENxxx diagnostics.
func MakePlan(d *spec.Deployment, runtime string) (*Plan, diag.Diagnostics) {
	ds := checkInputs(d)
	if d.Parallelism.Auto {
		ds = append(ds, gdiag(d, CodeLayout, diag.Error, "parallelism", "parallelism is auto; the generator needs a concrete layout",
			"run `vlaunch check` to pick one and write it into the spec"))
	}
	r, vds := resolveRelease(d)
	ds = append(ds, vds...)
	if ds.HasErrors() {
		return nil, ds
	}
	layout, nodes, lds := layoutFor(d, r)
	ds = append(ds, lds...)
	if ds.HasErrors() {
		return nil, ds
	}
	p := newPlan(d, r, runtime, layout, nodes)
	choice, ads := resolveAll2All(d, r, p.multiNode())
	ds = append(ds, ads...)
	p.All2All, p.All2AllWhy = choice.Backend, choice.Why
	if b, ok := r.All2AllBackend(p.All2All); ok {
		p.DeepEP = b.DeepEP
	}
	ds = append(ds, checkExtraArgs(d, r)...)
	ds = append(ds, checkReleaseSupport(d, r)...)
	ds = append(ds, dboWarning(d, p)...)
	if ds.HasErrors() {
		return nil, ds
	}
	if err := p.buildNodes(d); err != nil {
		return nil, append(ds, diag.Diagnostic{Code: CodeLayout, Severity: diag.Error, File: d.File, Message: err.Error()})
	}
	ds = append(ds, interfaceWarnings(p, d)...)
	if runtime == "kubernetes" {
		kp, kds := makeKubePlan(p, d)
		ds = append(ds, kds...)
		p.Kube = kp
	}
	return p, ds
}

func resolveRelease(d *spec.Deployment) (vllm.Release, diag.Diagnostics) {
	if d.VLLM.Version == "" {
		return vllm.Release{}, diag.Diagnostics{gdiag(d, CodeVersion, diag.Error, "vllm.version",
			"vllm.version is required: flags differ between releases", "e.g. version: \"0.11.1\"")}
	}
	r, warns, err := vllm.ResolveString(d.VLLM.Version)
	if err != nil {
		return r, diag.Diagnostics{gdiag(d, CodeVersion, diag.Error, "vllm.version", err.Error(), "")}
	}
	var ds diag.Diagnostics
	for _, w := range warns {
		ds = append(ds, gdiag(d, CodeVersion, diag.Warning, "vllm.version", w, ""))
	}
	return r, ds
}

func newPlan(d *spec.Deployment, r vllm.Release, runtime, layout string, nodes []NodePlan) *Plan {
	p := &Plan{Name: d.Metadata.Name, Runtime: runtime, Release: r, Version: d.VLLM.Version, Defaults: r.Defaults(),
		Layout: layout, Model: modelArg(d), Served: d.Model.ServedName, Port: d.VLLM.Port, RPCPort: d.VLLM.RPCPort,
		TP: d.Parallelism.Tensor, PP: d.Parallelism.Pipeline, DP: d.Parallelism.Data, EP: d.Parallelism.Expert,
		Nodes: nodes, Fabric: d.Hardware.Network.InterNode.Kind, Image: d.Runtime.Image, Binary: d.Runtime.VLLMBinary,
		Docker: d.Runtime.Docker, K8s: d.Runtime.Kubernetes, Spec: d, K8sName: k8sName(d.Metadata.Name)}
	runtimeDefaults(p)
	p.SpecFile = "SPEC"
	if d.File != "" {
		p.SpecFile = filepath.Base(d.File)
	}
	p.Primary = &p.Nodes[0]
	p.Via = r.All2AllVia().String()
	p.RDMA = p.Fabric == "infiniband" || p.Fabric == "roce"
	if p.Binary == "" {
		p.Binary = "vllm"
	}
	if d.VLLM.APIServerCount != nil {
		p.apiServers = *d.VLLM.APIServerCount
	}
	return p
}

// runtimeDefaults fills the runtime sections spec.ApplyDefaults leaves
// empty when the spec's runtime.kind differs from the one generated
// (--runtime overrides it).
func runtimeDefaults(p *Plan) {
	for _, shm := range []*string{&p.Docker.ShmSize, &p.K8s.ShmSize} {
		if *shm == "" {
			*shm = spec.Defaults.DockerShmSize
		}
	}
	if p.K8s.Namespace == "" {
		p.K8s.Namespace = spec.Defaults.KubernetesNS
	}
}

// interfaceWarnings: without GLOO_SOCKET_IFNAME multi-node start-up can
// hang on the wrong interface (vllm #7074), so say which nodes lack one.
func interfaceWarnings(p *Plan, d *spec.Deployment) diag.Diagnostics {
	if !p.multiNode() {
		return nil
	}
	var ds diag.Diagnostics
	for _, n := range p.activeNodes() {
		if n.Interface == "" {
			ds = append(ds, gdiag(d, CodeNoInterface, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", n.Index),
				fmt.Sprintf("node %s has no interface: GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME are not set and start-up may hang on the wrong NIC", n.Name),
				"set hardware.nodes[].interface to the node-to-node interface (e.g. eth0)"))
		}
	}
	return ds
}

// modelArg is what `vllm serve` gets: the spec's path, else the catalog's
// Hugging Face repo, else the name as given.
func modelArg(d *spec.Deployment) string {
	if d.Model.Path != "" {
		return d.Model.Path
	}
	if m := lookupModel(d); m != nil && m.HFRepo != "" {
		return m.HFRepo
	}
	return d.Model.Name
}

// lookupModel finds the model in the catalog or reads model.config; nil if
// neither works (the validator reports that).
func lookupModel(d *spec.Deployment) *catalog.Model {
	if d.Model.Config != "" {
		path := d.Model.Config
		if !filepath.IsAbs(path) && d.File != "" {
			path = filepath.Join(filepath.Dir(d.File), path)
		}
		if m, err := catalog.LoadHFConfig(path); err == nil {
			return m
		}
		return nil
	}
	if m, err := catalog.LookupModel(d.Model.Name); err == nil {
		return m
	}
	return nil
}

// buildNodes fills every active node's environment and commands.
func (p *Plan) buildNodes(d *spec.Deployment) error {
	common, err := commonArgs(p, d)
	if err != nil {
		return err
	}
	extra := make([]Arg, len(d.VLLM.ExtraArgs))
	for i, a := range d.VLLM.ExtraArgs {
		extra[i] = Arg{Text: a}
	}
	for _, n := range p.activeNodes() {
		n.Env = nodeEnv(p, d, n, EnvVar{Value: n.Address})
		steps, err := p.nodeSteps(n, common, extra)
		if err != nil {
			return err
		}
		n.Steps = steps
		if p.Runtime == "docker" && len(steps) > 1 {
			n.ContainerScript = fmt.Sprintf("node%d.container.sh", n.Index)
		}
	}
	return nil
}

// nodeSteps are the commands a node runs, the last one exec'd.
func (p *Plan) nodeSteps(n *NodePlan, common, extra []Arg) ([]Step, error) {
	bin := []Arg{{Text: p.Binary}}
	switch p.Layout {
	case LayoutRay:
		return p.raySteps(n, bin, common, extra)
	case LayoutNNodes:
		own, err := spanningArgs(p, n, Arg{Text: itoa(n.Index)}, Arg{Text: p.Primary.Address})
		return []Step{{Args: join(bin, common, own, extra), Comment: roleComment(p, n)}}, err
	}
	start, local := Arg{Text: itoa(n.DPStart)}, Arg{Text: itoa(n.DPLocal)}
	own, err := nodeArgs(p, n, &start, &local)
	return []Step{{Args: join(bin, common, own, extra), Comment: roleComment(p, n)}}, err
}

// raySteps: the head starts Ray, waits for every GPU, then serves; workers
// join and block.
func (p *Plan) raySteps(n *NodePlan, bin, common, extra []Arg) ([]Step, error) {
	head := fmt.Sprintf("%s:%d", p.Primary.Address, RayPort)
	if n.Role == RoleRayWorker {
		return []Step{{Args: words("ray", "start", "--block", "--address", head, "--node-ip-address", n.Address),
			Comment: "join the Ray cluster of " + p.Primary.Name + " and block"}}, nil
	}
	own, err := spanningArgs(p, n, Arg{}, Arg{})
	total := 0
	for _, a := range p.activeNodes() {
		total += a.GPUs
	}
	return []Step{
		{Args: words("ray", "start", "--head", "--port", itoa(RayPort), "--node-ip-address", n.Address),
			Comment: "start the Ray head; start the workers now"},
		{Args: join(bin, common, own, extra), WaitForRayGPUs: total,
			Comment: fmt.Sprintf("wait until Ray sees all %d GPUs, then serve", total)},
	}, err
}

func roleComment(p *Plan, n *NodePlan) string {
	switch {
	case p.Layout == LayoutNNodes && n.Role == RolePrimary:
		return fmt.Sprintf("node rank 0 of %d: API server and engine rank 0", len(p.activeNodes()))
	case p.Layout == LayoutNNodes:
		return fmt.Sprintf("node rank %d of %d: engine workers only (--headless)", n.Index, len(p.activeNodes()))
	case n.Role == RolePrimary && p.Layout == LayoutDP:
		return fmt.Sprintf("primary: API server and DP ranks %d-%d", n.DPStart, n.DPStart+n.DPLocal-1)
	case n.Role == RolePrimary:
		return "single node: API server and every engine"
	}
	return fmt.Sprintf("headless: DP ranks %d-%d, no API server", n.DPStart, n.DPStart+n.DPLocal-1)
}

func words(ws ...string) []Arg {
	out := make([]Arg, len(ws))
	for i, w := range ws {
		out[i] = Arg{Text: w}
	}
	return out
}

func join(parts ...[]Arg) []Arg {
	var out []Arg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
