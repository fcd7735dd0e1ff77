package generator

import (
	"fmt"
	"path/filepath"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// Runtimes the generator supports.
var Runtimes = []string{"bare", "docker", "kubernetes"}

// MakePlan works out the whole bundle as data for a deployment resolved
// from a validated spec (validate.File): validate has checked names,
// addresses, the release, the backend and the layout's arithmetic, so
// MakePlan only reports what is the generator's own concern (GENxxx).
func MakePlan(r *resolve.Deployment, runtime string) (*Plan, diag.Diagnostics) {
	return makePlan(r, runtime, allNodes)
}

// Refusal is MakePlan's verdict on a deployment — its diagnostics — at a
// cost that barely grows with the nodes (`vlaunch plan` asks it of
// thousands of candidates on clusters of up to 10,000 nodes): every check
// runs, but the plan holds, and the commands are built for, the first node
// of each role only (leaderNodes); what is about every node (idle GPUs and
// nodes, a LeaderWorkerSet's identical pods) is read from the placement.
// That finds every error building them all would: the flags a node's
// command gets (the only thing that can fail there, a flag the release
// lacks) depend on the plan and the node's role, not on which node of the
// role it is (nodeArgs, spanningArgs, raySteps).
func Refusal(r *resolve.Deployment, runtime string) diag.Diagnostics {
	_, ds := makePlan(r, runtime, leaderNodes)
	return ds
}

// makePlan is MakePlan holding the nodes keep picks (and building their
// commands).
func makePlan(r *resolve.Deployment, runtime string, keep func(resolve.Placement) []int) (*Plan, diag.Diagnostics) {
	d := r.Spec
	if d == nil {
		return nil, diag.Diagnostics{{Code: CodeLayout, Severity: diag.Error, Message: "a bundle needs a spec (the quick form has none)"}}
	}
	var ds diag.Diagnostics
	if r.Layout.Auto {
		ds = append(ds, gdiag(d, CodeLayout, diag.Error, "parallelism", "parallelism is auto; the generator needs a concrete layout",
			"run `vlaunch check` to pick one and write it into the spec"))
	}
	ds = append(ds, checkSecrets(d, false)...)
	if ds.HasErrors() {
		return nil, ds
	}
	pl, nodes, lds := layoutFor(r, keep)
	ds = append(ds, lds...)
	ds = append(ds, extLBLayoutProblem(r, pl)...)
	if ds.HasErrors() {
		return nil, ds
	}
	p := newPlan(r, runtime, pl, nodes)
	ds = append(ds, planAll2All(r, p)...)
	ds = append(ds, checkSpeculativeSupport(d, r.Release, r.Engine.Speculative)...)
	// What the release or the image refuses: validate's one rule
	// (validate.BundleRefusals), here for the runtime generated and for
	// plan's candidates.
	ds = append(ds, validate.BundleRefusals(r, runtime)...)
	if ds.HasErrors() {
		return nil, ds
	}
	if err := p.buildNodes(d, p.activeNodes()); err != nil {
		return nil, append(ds, diag.Diagnostic{Code: CodeLayout, Severity: diag.Error, File: d.File, Message: err.Error()})
	}
	if p.extLB {
		p.Router = makeRouterPlan(p)
		if ds = append(ds, routerPortProblem(p)...); ds.HasErrors() {
			return nil, ds
		}
	}
	if runtime == "kubernetes" {
		kp, kds := makeKubePlan(p, d)
		ds = append(ds, kds...)
		p.Kube = kp
	}
	return p, ds
}

func newPlan(r *resolve.Deployment, runtime string, pl resolve.Placement, nodes []NodePlan) *Plan {
	d, l := r.Spec, r.Layout
	p := &Plan{Name: d.Metadata.Name, Runtime: runtime, Release: r.Release, Version: d.VLLM.Version, Defaults: r.Defaults,
		Layout: pl.Kind, placement: pl, Model: modelArg(r), Served: d.Model.ServedName, Port: d.VLLM.Port, RPCPort: d.VLLM.RPCPort,
		TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP,
		Nodes: nodes, Fabric: d.Hardware.Network.InterNode.Kind, Image: d.Runtime.Image, Binary: d.Runtime.VLLMBinary,
		Docker: d.Runtime.Docker, K8s: d.Runtime.Kubernetes, Spec: d, Deployment: r, K8sName: k8sName(d.Metadata.Name)}
	runtimeDefaults(p)
	p.Startup = startupFacts(r.Release)
	p.WeightsNote = weightsNote(r)
	p.SpecFile = "SPEC"
	if d.File != "" {
		p.SpecFile = filepath.Base(d.File)
	}
	p.Primary = &p.Nodes[0]
	p.extLB = extLBWanted(r)
	p.SubNode = pl.SubNode
	p.HostPID = r.HostPID(runtime)
	p.setReplicas()
	p.Via = r.Release.All2AllVia().String()
	p.RDMA = p.Fabric == "infiniband" || p.Fabric == "roce"
	p.AMD = r.GPU != nil && r.GPU.Vendor == "amd"
	if p.Binary == "" {
		p.Binary = "vllm"
	}
	return p
}

// runtimeDefaults fills the runtime sections spec.ApplyDefaults leaves
// empty when the spec's runtime.kind differs from the one generated
// (--runtime overrides it). Docker's shm_size stays empty unless the spec
// sets it: the container then shares the host's IPC namespace.
func runtimeDefaults(p *Plan) {
	if p.K8s.ShmSize == "" {
		p.K8s.ShmSize = spec.Defaults.DockerShmSize
	}
	if p.K8s.Namespace == "" {
		p.K8s.Namespace = spec.Defaults.KubernetesNS
	}
}

// modelArg is what `vllm serve` gets: the spec's path, else the catalog's
// Hugging Face repo, else the name as given.
func modelArg(r *resolve.Deployment) string { return validate.ModelArg(r) }

// sharedNode reports whether node i of the pool is one both P/D pools
// share (resolve.NodeShare).
func (p *Plan) sharedNode(i int) bool {
	sh := p.Deployment.Shares
	return i < len(sh) && sh[i].Shared
}

// buildNodes fills the environment and commands of nodes (of p).
func (p *Plan) buildNodes(d *spec.Deployment, nodes []*NodePlan) error {
	common, err := commonArgs(p, d)
	if err != nil {
		return err
	}
	extra := extraArgs(d)
	for _, n := range nodes {
		n.HostPID = p.HostPID && p.sharedNode(n.Index)
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
	if n.ExtLB {
		return p.extLBSteps(n, bin, common, extra)
	}
	switch p.Layout {
	case LayoutRay:
		return p.raySteps(n, bin, common, extra)
	case LayoutNNodes:
		own, err := spanningArgs(p, n, Arg{Text: itoa(n.Rank)}, Arg{Text: p.primaryOf(n).Address})
		return []Step{{Args: join(bin, common, own, extra), Comment: roleComment(p, n)}}, err
	}
	start, local := Arg{Text: itoa(n.DPStart)}, Arg{Text: itoa(n.DPLocal)}
	own, err := nodeArgs(p, n, &start, &local)
	return []Step{{Args: join(bin, common, own, extra), Comment: roleComment(p, n)}}, err
}

// raySteps: the head starts Ray, waits for every GPU, then serves; workers
// join and block.
func (p *Plan) raySteps(n *NodePlan, bin, common, extra []Arg) ([]Step, error) {
	primary := p.primaryOf(n)
	head := fmt.Sprintf("%s:%d", primary.Address, RayPort)
	if n.Role == RoleRayWorker {
		return []Step{{Args: words("ray", "start", "--block", "--address", head, "--node-ip-address", n.Address),
			Comment: "join the Ray cluster of " + primary.Name + " and block"}}, nil
	}
	own, err := spanningArgs(p, n, Arg{}, Arg{})
	total := p.replicaGPUs(n.Replica)
	return []Step{
		{Args: words("ray", "start", "--head", "--port", itoa(RayPort), "--node-ip-address", n.Address),
			Comment: "start the Ray head; start the workers now"},
		{Args: join(bin, common, own, extra), WaitForRayGPUs: total,
			Comment: fmt.Sprintf("wait until Ray sees all %d GPUs, then serve", total)},
	}, err
}

func roleComment(p *Plan, n *NodePlan) string {
	if p.Replicas > 1 {
		return fmt.Sprintf("replica %d of %d (independent; a load balancer spreads requests over the replicas): %s", n.Replica+1, p.Replicas, replicaRoleComment(p, n))
	}
	return replicaRoleComment(p, n)
}

// replicaRoleComment is the node's role within its replica.
func replicaRoleComment(p *Plan, n *NodePlan) string {
	switch {
	case p.Layout == LayoutNNodes && p.DP > 1:
		return spanningDPRoleComment(p, n)
	case p.Layout == LayoutNNodes && n.Role == RolePrimary:
		return fmt.Sprintf("node rank 0 of %d: API server and engine rank 0", p.ReplicaNodes)
	case p.Layout == LayoutNNodes:
		return fmt.Sprintf("node rank %d of %d: engine workers only (--headless)", n.Rank, p.ReplicaNodes)
	case n.Role == RolePrimary && p.Layout == LayoutDP:
		return fmt.Sprintf("primary: API server and DP ranks %d-%d", n.DPStart, n.DPStart+n.DPLocal-1)
	case n.Role == RolePrimary:
		return "single node: API server and every engine"
	}
	return fmt.Sprintf("headless: DP ranks %d-%d, no API server", n.DPStart, n.DPStart+n.DPLocal-1)
}

// extraArgs are the spec's vllm.extra_args as words (checked by
// checkExtraArgs; quoted like every other value).
func extraArgs(d *spec.Deployment) []Arg {
	return words(d.VLLM.ExtraArgs...)
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

// spanningDPRoleComment names a node's place when each DP rank's engine
// spans nodes (--nnodes with DP > 1): vLLM infers the node's DP rank from
// its node rank, and the rank's first node runs its engine core (the
// replica's first node the API server too), the others its workers only.
func spanningDPRoleComment(p *Plan, n *NodePlan) string {
	per := max(p.ReplicaNodes/max(p.DP, 1), 1)
	rank, within := n.Rank/per, n.Rank%per
	what := "workers only (--headless)"
	switch {
	case n.Role == RolePrimary:
		what = "the API server and the rank's engine core"
	case within == 0:
		what = "the rank's engine core, no API server (--headless)"
	}
	return fmt.Sprintf("node rank %d of %d: DP rank %d's node %d of %d, %s", n.Rank, p.ReplicaNodes, rank, within+1, per, what)
}
