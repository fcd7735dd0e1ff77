package generator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Layout kinds: how the nodes cooperate (resolve.Place decides, for the
// release).
const (
	// LayoutSingle is one node running one `vllm serve` (any DP/TP/PP inside it).
	LayoutSingle = resolve.KindSingle
	// LayoutDP is one `vllm serve` per node joined by vLLM's DP coordinator
	// (engines fit on one node; node 0 primary, the others --headless).
	LayoutDP = resolve.KindDP
	// LayoutNNodes is one engine spanning nodes through --nnodes/--node-rank.
	LayoutNNodes = resolve.KindNNodes
	// LayoutRay is one engine spanning nodes through a Ray cluster.
	LayoutRay = resolve.KindRay
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
	// ResolveLeader, for LWS workers, resolves LWS_LEADER_ADDRESS into
	// $leader_ip before the step runs.
	ResolveLeader bool
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
	// Replica is the independent replica the node serves; Rank its place
	// among that replica's nodes (0: the replica's primary or Ray head).
	Replica, Rank int
	DPLocal       int
	DPStart       int
	Env           []EnvVar
	Steps         []Step
	ScriptName    string
	// ContainerScript, for docker nodes with several steps (the Ray head),
	// is a bundle file mounted into the container and run there.
	ContainerScript string
}

// Plan is the complete, runtime-independent description of the bundle.
type Plan struct {
	Name string
	// K8sName is Name made a valid Kubernetes resource name.
	K8sName  string
	Runtime  string
	Release  vllm.Release
	Version  string
	Defaults vllm.Defaults
	Layout   string
	Model    string // positional model argument
	Served   string
	Port     int
	RPCPort  int
	TP, PP   int
	DP       int
	EP       bool
	All2All  string // the backend that runs, "" = none
	// All2AllWritten is the backend the bundle selects with a flag or
	// variable ("" = none: no all-to-all, the release's default, or the
	// spec's own VLLM_ALL2ALL_BACKEND decides).
	All2AllWritten string
	Via            string // how the backend is selected
	All2AllWhy     string
	// All2AllFromEnv: the spec's vllm.env sets VLLM_ALL2ALL_BACKEND and
	// decides the backend; the bundle adds no flag or variable of its own.
	All2AllFromEnv bool
	Nodes          []NodePlan
	// Primary is the node clients talk to (replica 0's).
	Primary *NodePlan
	// Replicas is the number of independent replicas, each its own `vllm
	// serve` on ReplicaNodes nodes; Primaries are their first nodes, the
	// endpoints a load balancer spreads requests over.
	Replicas     int
	ReplicaNodes int
	Primaries    []*NodePlan
	Fabric       string
	RDMA         bool
	DeepEP       bool
	Image        string
	Binary       string
	Docker       spec.Docker
	K8s          spec.Kubernetes
	Summary      string
	// Startup words what the release does while its nodes find each
	// other, for the README.
	Startup StartupFacts
	// WeightsNote warns that model.path must hold a wider copy than the
	// model ships ("" when the checkpoint's dtype is served or converted).
	WeightsNote string
	// Kube is set for the kubernetes runtime.
	Kube *KubePlan
	// Spec is the spec the plan was made from; SpecFile its base name
	// ("SPEC" when it has none), for commands in the README.
	Spec     *spec.Deployment
	SpecFile string
	// Deployment is the resolved deployment (model, release, layout,
	// engine settings with their provenance).
	Deployment *resolve.Deployment

	apiServers int
}

// layoutFor places the layout on the nodes (resolve.Place, the rule the
// `parallelism: auto` search and `vlaunch plan` share: a layout the release
// cannot express is GEN011, one the nodes cannot hold GEN002) and gives
// each node its role.
func layoutFor(r *resolve.Deployment) (string, []NodePlan, diag.Diagnostics) {
	d := r.Spec
	nodes := make([]NodePlan, len(d.Hardware.Nodes))
	for i, n := range d.Hardware.Nodes {
		nodes[i] = NodePlan{Index: i, Name: n.Name, Address: n.Address, GPUs: n.GPUs, Interface: n.Interface,
			RDMADevices: n.RDMADevices, ScriptName: fmt.Sprintf("node%d.sh", i)}
	}
	pl, err := resolve.Place(r.Layout, r.NodeGPUs(), r.Release)
	if err != nil {
		code, path, msg, hint := CodeLayout, "parallelism", err.Error(), ""
		if fe, ok := err.(*resolve.FieldError); ok {
			path, msg, hint = fe.Path, fe.Msg, fe.Hint
			if fe.Unsupported {
				code = CodeUnsupported
			}
		}
		return "", nil, diag.Diagnostics{gdiag(d, code, diag.Error, path, msg, hint)}
	}
	if pl.Spanning {
		return spanningLayout(r, pl, nodes)
	}
	return dpLayout(r, pl, nodes)
}

// dpLayout: whole engines per node, node 0 primary, the others headless.
func dpLayout(r *resolve.Deployment, pl resolve.Placement, nodes []NodePlan) (string, []NodePlan, diag.Diagnostics) {
	var ds diag.Diagnostics
	d, l := r.Spec, r.Layout
	for i, slot := range pl.Nodes {
		n := &nodes[i]
		n.DPLocal, n.DPStart, n.Role, n.Replica, n.Rank = slot.DPLocal, slot.DPStart, RoleHeadless, slot.Replica, slot.Rank
		if !slot.Used {
			n.Role = RoleIdle
			continue
		}
		if slot.Rank == 0 {
			n.Role = RolePrimary
		}
		if slot.IdleGPUs > 0 {
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d].gpus", i),
				fmt.Sprintf("node %s leaves %d of %d GPUs unused (%d engines x TP %d x PP %d)", n.Name, slot.IdleGPUs, n.GPUs,
					n.DPLocal, l.TP, l.PP), ""))
		}
	}
	ds = append(ds, idleNodeWarnings(d, nodes)...)
	return pl.Kind, nodes, ds
}

// spanningLayout: one engine (per replica) over whole nodes, through
// --nnodes or Ray as the release does it.
func spanningLayout(r *resolve.Deployment, pl resolve.Placement, nodes []NodePlan) (string, []NodePlan, diag.Diagnostics) {
	layout := pl.Kind
	for i := range nodes {
		n := &nodes[i]
		slot := pl.Nodes[i]
		n.Replica, n.Rank = slot.Replica, slot.Rank
		switch {
		case !slot.Used:
			n.Role = RoleIdle
		case slot.Rank == 0 && layout == LayoutRay:
			n.Role = RoleRayHead
		case slot.Rank == 0:
			n.Role = RolePrimary
		case layout == LayoutRay:
			n.Role = RoleRayWorker
		default:
			n.Role = RoleHeadless
		}
	}
	return layout, nodes, idleNodeWarnings(r.Spec, nodes)
}

// idleNodeWarnings names the nodes the layout does not need.
func idleNodeWarnings(d *spec.Deployment, nodes []NodePlan) diag.Diagnostics {
	var ds diag.Diagnostics
	for i := range nodes {
		if nodes[i].Role == RoleIdle {
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", i),
				fmt.Sprintf("node %s is not needed by the layout and gets no script", nodes[i].Name), ""))
		}
	}
	return ds
}

// ActiveNodes are the nodes that get a script (on Kubernetes, one pod each
// in LWS_WORKER_INDEX order); the bundle README lists them.
func (p *Plan) ActiveNodes() []*NodePlan { return p.activeNodes() }

// primaryOf is the first node of n's replica: its API server, DP
// coordinator, --nnodes master or Ray head.
func (p *Plan) primaryOf(n *NodePlan) *NodePlan {
	if n.Replica < len(p.Primaries) {
		return p.Primaries[n.Replica]
	}
	return p.Primary
}

// PrimaryNames names the replicas' first nodes ("node0", or "node0, node2"
// with several replicas), for the README.
func (p *Plan) PrimaryNames() string {
	if len(p.Primaries) <= 1 {
		return p.Primary.Name
	}
	names := make([]string, len(p.Primaries))
	for i, n := range p.Primaries {
		names[i] = n.Name
	}
	return strings.Join(names, ", ")
}

// FirstScripts names the script that starts each replica's first node:
// "`node0.sh` on node0", or "each replica's first script (`node0.sh` on
// node0, `node2.sh` on node2)", for the README.
func (p *Plan) FirstScripts() string {
	one := func(n *NodePlan) string { return fmt.Sprintf("`%s` on %s", n.ScriptName, n.Name) }
	if len(p.Primaries) <= 1 {
		return one(p.Primary)
	}
	parts := make([]string, len(p.Primaries))
	for i, n := range p.Primaries {
		parts[i] = one(n)
	}
	which := "each replica's first script"
	if p.ReplicaNodes == 1 {
		which = "each replica's script"
	}
	return which + " (" + strings.Join(parts, ", ") + ")"
}

// setReplicas records the replicas the placement made: their count, the
// nodes each spans and their first nodes.
func (p *Plan) setReplicas() {
	p.Replicas, p.ReplicaNodes, p.Primaries = 0, 0, nil
	for _, n := range p.activeNodes() {
		if n.Rank == 0 {
			p.Replicas++
			p.Primaries = append(p.Primaries, n)
		}
		if n.Replica == 0 {
			p.ReplicaNodes++
		}
	}
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

// roleLeaders is the first active node of each role.
func (p *Plan) roleLeaders() []*NodePlan {
	seen := map[string]bool{}
	var out []*NodePlan
	for _, n := range p.activeNodes() {
		if !seen[n.Role] {
			seen[n.Role] = true
			out = append(out, n)
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
