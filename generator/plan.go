package generator

import (
	"fmt"
	"slices"
	"sort"
	"strings"

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
	// Slot is the replica's place among the replicas sharing its node
	// (replicas smaller than a node; 0 otherwise), Devices the node's GPUs
	// it runs on (nil: all of them; GPUs is then their count), Port its
	// API port (the spec's, plus Slot: replicas on one host need their own).
	Slot       int
	Devices    []int
	Port       int
	DPLocal    int
	DPStart    int
	Env        []EnvVar
	Steps      []Step
	ScriptName string
	// ContainerScript, for docker nodes with several steps (the Ray head),
	// is a bundle file mounted into the container and run there.
	ContainerScript string
	// ExtLB: the node plan is one DP rank of the node, serving on its own
	// behind the top-level router (extlb.go: vLLM's external LB).
	ExtLB bool
	// HostPID: this node is one the pool shares with the other P/D pool
	// and its containers run with --pid host and every GPU visible
	// (Plan.HostPID); the pool's other nodes (a boundary node's pool
	// spans whole nodes too) keep their own PID namespace and GPUs.
	HostPID bool
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
	// SubNode: the replicas are smaller than a node and share nodes, each
	// node plan one replica on its own GPUs (NodePlan.Devices).
	SubNode bool
	// HostPID: a P/D pool sharing a node with the other pool on docker
	// (resolve.Deployment.HostPID): its containers on that node
	// (NodePlan.HostPID) run with --pid host and
	// see every GPU of the node (--gpus all), their own picked by
	// CUDA_VISIBLE_DEVICES, so UCX opens the other pool's CUDA IPC handles:
	// "a shared PID namespace and mutual GPU visibility"
	// (vllm-project/vllm#55906); with --gpus device= a container cannot
	// map another GPU's memory (NVIDIA/nccl#324).
	HostPID bool
	Fabric  string
	RDMA    bool
	DeepEP  bool
	// AMD: the GPUs are AMD's (catalog vendor "amd"). ROCm containers reach
	// them through /dev/kfd and /dev/dri, not NVIDIA's --gpus (which needs
	// NVIDIA's container toolkit and fails on an AMD host), and AMD's device
	// plugin offers amd.com/gpu, not nvidia.com/gpu (pods asking for that
	// stay Pending on an AMD cluster).
	AMD     bool
	Image   string
	Binary  string
	Docker  spec.Docker
	K8s     spec.Kubernetes
	Summary string
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

	// Router is the top-level router in front of the DP ranks (extlb.go;
	// nil: none).
	Router *RouterPlan
	// extLB: every DP rank its own node plan (Router set).
	extLB bool

	// placement is where the layout's engines sit: every node's role and
	// share, whether or not Nodes holds that node (nodeAt).
	placement resolve.Placement
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
	var names []string
	for _, n := range p.Primaries {
		if !slices.Contains(names, n.Name) { // replicas sharing a node
			names = append(names, n.Name)
		}
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

// DeviceList is the node plan's GPUs as CUDA_VISIBLE_DEVICES and docker's
// device= list name them ("0,1,2,3"), "" when it runs on every GPU.
func (n *NodePlan) DeviceList() string {
	parts := make([]string, len(n.Devices))
	for i, d := range n.Devices {
		parts[i] = itoa(d)
	}
	return strings.Join(parts, ",")
}

// Unit names what the node plan runs, for container names and the README:
// the node's name, with the replica's number when several share the node.
func (n *NodePlan) Unit() string {
	if n.ExtLB {
		return n.rankUnit()
	}
	if n.Devices == nil {
		return n.Name
	}
	return fmt.Sprintf("%s-replica%d", n.Name, n.Replica+1)
}

// NodeCount is the number of nodes the spec lists (node plans are one per
// replica on a node when replicas share nodes).
func (p *Plan) NodeCount() int { return len(p.Spec.Hardware.Nodes) }

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
