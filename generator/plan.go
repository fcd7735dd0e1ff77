package generator

import (
	"fmt"
	"sort"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Layout kinds: how the nodes cooperate.
const (
	// LayoutSingle is one node running one `vllm serve` (any DP/TP/PP inside it).
	LayoutSingle = "single"
	// LayoutDP is one `vllm serve` per node joined by vLLM's DP coordinator
	// (engines fit on one node; node 0 primary, the others --headless).
	LayoutDP = "dp"
	// LayoutNNodes is one engine spanning nodes through --nnodes/--node-rank.
	LayoutNNodes = "nnodes"
	// LayoutRay is one engine spanning nodes through a Ray cluster.
	LayoutRay = "ray"
)

// Node roles.
const (
	RolePrimary   = "primary"    // runs the API server
	RoleHeadless  = "headless"   // engines only
	RoleRayHead   = "ray-head"   // starts Ray, waits for workers, then vllm serve
	RoleRayWorker = "ray-worker" // joins Ray and blocks
	RoleIdle      = "idle"       // not needed by the layout
)

// RayPort is the Ray GCS port the generated Ray cluster uses.
const RayPort = 6379

// Arg is one shell word. Raw words are emitted without quoting; the
// generator only creates them from constants (e.g. "$START_RANK"), never
// from spec values.
type Arg struct {
	Text string
	Raw  bool
}

// EnvVar is one exported variable. Raw values are shell expressions built
// by the generator (LWS variables), never spec text.
type EnvVar struct {
	Name, Value string
	Raw         bool
	// FieldRef, for Kubernetes only, takes the value from the pod
	// (e.g. "status.podIP") instead of Value.
	FieldRef string
	// Why says where the value comes from (shown as a comment).
	Why string
}

// Step is one command; the last step of a script is exec'd.
type Step struct {
	Args []Arg
	// Comment is a one-line explanation above the command.
	Comment string
	// WaitForRay asks the template to wait until the Ray cluster has the
	// given number of GPUs before the step runs.
	WaitForRayGPUs int
}

// NodePlan is what one node runs.
type NodePlan struct {
	Index       int
	Name        string
	Address     string
	GPUs        int
	Interface   string
	RDMADevices []string
	Role        string
	DPLocal     int
	DPStart     int
	Env         []EnvVar
	Steps       []Step
	ScriptName  string
	// ContainerScript, for docker nodes with several steps (the Ray head),
	// is a bundle file mounted into the container and run there.
	ContainerScript string
}

// Plan is the complete, runtime-independent description of the bundle.
type Plan struct {
	Name string
	// K8sName is Name made a valid Kubernetes resource name.
	K8sName    string
	Runtime    string
	Release    vllm.Release
	Version    string
	Defaults   vllm.Defaults
	Layout     string
	Model      string // positional model argument
	Served     string
	Port       int
	RPCPort    int
	TP, PP     int
	DP         int
	EP         bool
	All2All    string // resolved backend, "" = none emitted
	Via        string // how the backend is selected
	All2AllWhy string
	Nodes      []NodePlan
	// Primary is the node clients talk to.
	Primary *NodePlan
	Fabric  string
	RDMA    bool
	DeepEP  bool
	Image   string
	Binary  string
	Docker  spec.Docker
	K8s     spec.Kubernetes
	Summary string
	// Kube is set for the kubernetes runtime.
	Kube *KubePlan
	// Spec is the deployment the plan was made from; SpecFile its base
	// name ("SPEC" when it has none), for commands in the README.
	Spec     *spec.Deployment
	SpecFile string

	apiServers int
}

// layoutFor assigns DP ranks to nodes, or finds that engines span nodes.
func layoutFor(d *spec.Deployment, r vllm.Release) (string, []NodePlan, diag.Diagnostics) {
	p := d.Parallelism
	perEngine := p.Tensor * p.Pipeline
	nodes := make([]NodePlan, len(d.Hardware.Nodes))
	for i, n := range d.Hardware.Nodes {
		nodes[i] = NodePlan{Index: i, Name: n.Name, Address: n.Address, GPUs: n.GPUs, Interface: n.Interface,
			RDMADevices: n.RDMADevices, ScriptName: fmt.Sprintf("node%d.sh", i)}
	}
	if len(nodes) == 0 {
		return "", nil, diag.Diagnostics{gdiag(d, CodeLayout, diag.Error, "hardware.nodes", "the spec has no nodes", "")}
	}
	if perEngine > nodes[0].GPUs {
		return spanningLayout(d, r, nodes, perEngine)
	}
	return dpLayout(d, nodes, perEngine)
}

// dpLayout fills nodes in order with whole engines until DP ranks run out.
func dpLayout(d *spec.Deployment, nodes []NodePlan, perEngine int) (string, []NodePlan, diag.Diagnostics) {
	var ds diag.Diagnostics
	left, used := d.Parallelism.Data, 0
	for i := range nodes {
		n := &nodes[i]
		fit := n.GPUs / perEngine
		n.DPLocal = min(fit, left)
		n.DPStart = d.Parallelism.Data - left
		left -= n.DPLocal
		n.Role = RoleHeadless
		if n.DPLocal == 0 {
			n.Role = RoleIdle
			continue
		}
		used++
		if idle := n.GPUs - n.DPLocal*perEngine; idle > 0 {
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d].gpus", i),
				fmt.Sprintf("node %s leaves %d of %d GPUs unused (%d engines x TP %d x PP %d)", n.Name, idle, n.GPUs,
					n.DPLocal, d.Parallelism.Tensor, d.Parallelism.Pipeline), ""))
		}
	}
	if left > 0 {
		return "", nil, append(ds, gdiag(d, CodeLayout, diag.Error, "parallelism.data",
			fmt.Sprintf("DP %d x TP %d x PP %d needs %d GPUs in whole engines; the nodes hold only %d engines",
				d.Parallelism.Data, d.Parallelism.Tensor, d.Parallelism.Pipeline, d.Parallelism.Data*perEngine, d.Parallelism.Data-left),
			"lower parallelism.data or add nodes"))
	}
	if nodes[0].Role == RoleIdle {
		return "", nil, append(ds, gdiag(d, CodeLayout, diag.Error, "hardware.nodes[0]", "node 0 runs no engine", ""))
	}
	nodes[0].Role = RolePrimary
	for i := range nodes {
		if nodes[i].Role == RoleIdle {
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", i),
				fmt.Sprintf("node %s is not needed by the layout and gets no script", nodes[i].Name), ""))
		}
	}
	if used == 1 {
		return LayoutSingle, nodes, ds
	}
	return LayoutDP, nodes, ds
}

// spanningLayout handles one engine (TP x PP) larger than a node.
func spanningLayout(d *spec.Deployment, r vllm.Release, nodes []NodePlan, perEngine int) (string, []NodePlan, diag.Diagnostics) {
	per := nodes[0].GPUs
	for i, n := range nodes {
		if n.GPUs != per {
			return "", nil, diag.Diagnostics{gdiag(d, CodeLayout, diag.Error, fmt.Sprintf("hardware.nodes[%d].gpus", i),
				"an engine spanning nodes needs the same GPU count on every node", "")}
		}
	}
	if d.Parallelism.Data != 1 {
		return "", nil, diag.Diagnostics{gdiag(d, CodeLayout, diag.Error, "parallelism.data",
			fmt.Sprintf("TP %d x PP %d spans nodes; vlaunch generates spanning engines only with DP = 1", d.Parallelism.Tensor, d.Parallelism.Pipeline),
			"use DP = 1, or make TP x PP fit one node")}
	}
	if perEngine%per != 0 || perEngine/per > len(nodes) {
		return "", nil, diag.Diagnostics{gdiag(d, CodeLayout, diag.Error, "parallelism",
			fmt.Sprintf("TP %d x PP %d = %d GPUs is not a whole number of %d-GPU nodes within the %d nodes given",
				d.Parallelism.Tensor, d.Parallelism.Pipeline, perEngine, per, len(nodes)), "")}
	}
	need := perEngine / per
	var ds diag.Diagnostics
	layout := LayoutRay
	if r.Defaults().MultiNodeEngine == "nnodes" {
		layout = LayoutNNodes
	}
	for i := range nodes {
		n := &nodes[i]
		switch {
		case i >= need:
			n.Role = RoleIdle
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", i),
				fmt.Sprintf("node %s is not needed by the layout and gets no script", n.Name), ""))
		case i == 0 && layout == LayoutRay:
			n.Role = RoleRayHead
		case i == 0:
			n.Role = RolePrimary
		case layout == LayoutRay:
			n.Role = RoleRayWorker
		default:
			n.Role = RoleHeadless
		}
	}
	return layout, nodes, ds
}

// activeNodes are the nodes that get a script.
func (p *Plan) activeNodes() []*NodePlan {
	var out []*NodePlan
	for i := range p.Nodes {
		if p.Nodes[i].Role != RoleIdle {
			out = append(out, &p.Nodes[i])
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
