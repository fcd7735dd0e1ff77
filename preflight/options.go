package preflight

import (
	"time"

	"github.com/vlaunch/vlaunch/resolve"
)

// DefaultTimeout bounds each check. vllm --version imports torch, which
// takes several seconds on a cold cache; everything else is far faster.
const DefaultTimeout = 30 * time.Second

// Options configure one run.
type Options struct {
	// Deployment is the spec resolved (validate.File), with `parallelism:
	// auto` settled: the model, the GPU, the weights and the all2all backend
	// come from it; its Spec (defaults applied) gives the nodes, ports,
	// runtime and paths as written.
	Deployment *resolve.Deployment
	// Node is the name of the node this host plays (hardware.nodes[].name).
	Node string
	// Role is the prefill or decode pool the node belongs to when the
	// spec is disaggregated (nil: a colocated spec); Deployment is then
	// that pool's own deployment (its nodes, layout and engine settings),
	// so every colocated check applies to the pool, and the NIXL checks
	// run too.
	Role *resolve.Role
	// SpecIndex is the node's index in the whole spec's hardware.nodes when
	// Deployment is a P/D pool's view (whose own index differs); messages
	// name that one. Ignored without Role, except for a colocated router's
	// CPU-only node (RouterOnly), which the view leaves out.
	SpecIndex int
	// Roles are the pools that run on the node when it is a node both
	// pools of the P/D spec name (resolve.SharedNodes; in spec.Roles
	// order, Role being the first): the checks of what each pool runs
	// there (poolCheck: its GPUs, its API and DP RPC ports, its NIXL side
	// channel) run once per pool, each result naming its pool
	// (Result.Pool); the host-wide checks run once, as Role's. Nil or one
	// pool otherwise.
	Roles []*resolve.Role
	// Pool, on a node both pools share (len(Roles) > 1), names the one pool
	// to check (`--pool`): its pool checks run, the host-wide ones run as
	// its, and the other pool is taken as possibly running already (its
	// GPUs, ports and host memory are its own business). Empty: both pools.
	Pool string
	// RouterPort is the P/D router's port when this node runs it
	// (disaggregation.router.node; router.sh binds it on the host): ports.free
	// checks it with the first pool's ports. 0: the node runs no router (a
	// colocated spec, another node, or Kubernetes, where the router is a pod
	// on the pod network).
	RouterPort int
	// RouterOnly marks disaggregation.router.node when it is in neither
	// pool, or a colocated deployment's router.node when it has no GPU
	// (gpus: 0, left out of the engines' view of the spec): it runs
	// router.sh and no engine. Deployment is then the whole spec (for a
	// colocated one, as resolved: its Router names the CPU-only node, and
	// SpecIndex is that node's index in hardware.nodes as written); the
	// router's checks run (routerChecks: its port and metrics port,
	// address, interface, routes to every instance or DP rank it names,
	// its program) and the others skip. Set with RouterPort.
	RouterOnly bool
	// Only and Skip select checks by id or group ("gpu" = every gpu.* check).
	Only, Skip []string
	// Timeout bounds each check; 0 means DefaultTimeout.
	Timeout time.Duration
	// Host is how checks reach the machine; the zero value is unusable, use
	// NewSystemHost for the real one.
	Host Host
	// WorkDir resolves a relative model.path, as vLLM would from its cwd.
	WorkDir string
	// HFCacheDir is where Hugging Face downloads land (HF_HOME/hub); used
	// when model.path is a repo id.
	HFCacheDir string
	// Expect supplies figures computed elsewhere (the estimator).
	Expect Expectations
}

// Expectations are hooks for figures other packages compute. A nil hook, or
// one returning ok=false, makes the checks fall back to catalog parameter
// counts (see fallbackCheckpointBytes).
type Expectations struct {
	// CheckpointBytes is the total size of the checkpoint's weight files.
	CheckpointBytes func() (bytes float64, ok bool)
	// NodeWeightBytes is what the GPUs of the named node load from disk.
	NodeWeightBytes func(node string) (bytes float64, ok bool)
}
