package spec

// Disaggregation splits the deployment into a prefill pool and a decode
// pool joined by a KV connector, behind a router (issue #24). When it is
// set, the top-level `parallelism` must be absent: each pool has its own
// layout. The top-level `vllm` settings apply to both pools; a pool's
// `vllm` block overrides some of them for that pool only.
type Disaggregation struct {
	// Connector is a KV connector vLLM registers (vllm.KVConnector), as the
	// registry spells it ("NixlConnector") or its short form ("nixl").
	Connector string `yaml:"connector" json:"connector"`
	// Transport is the NIXL backend ("ucx", the default, and the only one
	// vlaunch writes today).
	Transport string `yaml:"transport,omitempty" json:"transport,omitempty"`
	// Router is the request router in front of the pools.
	Router  Router `yaml:"router,omitempty" json:"router,omitempty"`
	Prefill Pool   `yaml:"prefill" json:"prefill"`
	Decode  Pool   `yaml:"decode" json:"decode"`
}

// Router is the PD-aware router clients talk to.
type Router struct {
	// Policy is vllm-router's --policy (RouterPolicies; "": the router's
	// default, cache_aware). Only in front of a colocated deployment
	// (Deployment.Router): the P/D bundle's router keeps its own policy.
	Policy string `yaml:"policy,omitempty" json:"policy,omitempty"`
	// Kind is vllm-router (github.com/vllm-project/router) or llm-d
	// (llm-d's endpoint picker behind a Gateway API InferencePool, with its
	// routing sidecar on the decode pods; Kubernetes only, spec/llmd.go).
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Node is the hardware.nodes name the router runs on (default: the
	// first prefill node). vllm-router only: llm-d's components are
	// Kubernetes workloads the scheduler places.
	Node string `yaml:"node,omitempty" json:"node,omitempty"`
	// Port is the router's listening port (vllm-router only: llm-d's
	// clients reach the Gateway's listener).
	Port int `yaml:"port,omitempty" json:"port,omitempty"`
	// Image is a container image of vllm-router for Kubernetes (the
	// project publishes none vlaunch could verify): with it the bundle
	// writes router.yaml; without, its README says how to run the router.
	// With llm-d it is the endpoint picker's image (default
	// DefaultLLMDEPPImage).
	Image string `yaml:"image,omitempty" json:"image,omitempty"`
	// SidecarImage is llm-d's routing sidecar image (llm-d only; default
	// DefaultLLMDSidecarImage).
	SidecarImage string `yaml:"sidecar_image,omitempty" json:"sidecar_image,omitempty"`
	// DecodePort is the port the decode engines listen on behind llm-d's
	// routing sidecar, which takes vllm.port (llm-d only; default
	// DefaultLLMDDecodePort).
	DecodePort int `yaml:"decode_port,omitempty" json:"decode_port,omitempty"`
}

// LLMD reports whether the router is llm-d's.
func (r Router) LLMD() bool { return r.Kind == RouterKindLLMD }

// Pool is one side of a disaggregated deployment: Instances independent
// vLLM instances of the Parallelism layout, on Nodes.
type Pool struct {
	// Instances is how many independent instances the pool runs (each a
	// `vllm serve` of its own on its own nodes, like parallelism.replicas).
	Instances int `yaml:"instances,omitempty" json:"instances,omitempty"`
	// Nodes are hardware.nodes names, in the order the instances take them.
	Nodes []string `yaml:"nodes" json:"nodes"`
	// Parallelism is one instance's layout (replicas and auto are not
	// accepted here: Instances counts the copies).
	Parallelism PoolParallelism `yaml:"parallelism,omitempty" json:"parallelism,omitempty"`
	// VLLM overrides top-level vllm settings for this pool.
	VLLM PoolVLLM `yaml:"vllm,omitempty" json:"vllm,omitempty"`
}

// PoolParallelism is one pool instance's layout: parallelism without
// replicas (Pool.Instances counts the copies) and without auto.
type PoolParallelism struct {
	Tensor   int  `yaml:"tensor,omitempty" json:"tensor,omitempty"`
	Pipeline int  `yaml:"pipeline,omitempty" json:"pipeline,omitempty"`
	Data     int  `yaml:"data,omitempty" json:"data,omitempty"`
	Expert   bool `yaml:"expert,omitempty" json:"expert,omitempty"`
}

// PoolVLLM are the engine settings a pool may override; nil (or empty)
// keeps the top-level value. Env is merged key by key over vllm.env;
// ExtraArgs are appended after vllm.extra_args.
type PoolVLLM struct {
	GPUMemoryUtilization *float64 `yaml:"gpu_memory_utilization,omitempty" json:"gpu_memory_utilization,omitempty"`
	KVCacheDType         *string  `yaml:"kv_cache_dtype,omitempty" json:"kv_cache_dtype,omitempty"`
	All2AllBackend       *string  `yaml:"all2all_backend,omitempty" json:"all2all_backend,omitempty"`
	MaxNumSeqs           *int     `yaml:"max_num_seqs,omitempty" json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens  *int     `yaml:"max_num_batched_tokens,omitempty" json:"max_num_batched_tokens,omitempty"`
	BlockSize            *int     `yaml:"block_size,omitempty" json:"block_size,omitempty"`
	APIServerCount       *int     `yaml:"api_server_count,omitempty" json:"api_server_count,omitempty"`
	// DecodeContextParallelSize is the pool's --decode-context-parallel-size
	// (DCP is a decode-side technique: a decode pool may run it while the
	// prefill pool does not; vllm.NixlDCPIn says what the connector
	// pairs).
	DecodeContextParallelSize *int              `yaml:"decode_context_parallel_size,omitempty" json:"decode_context_parallel_size,omitempty"`
	EnforceEager              *bool             `yaml:"enforce_eager,omitempty" json:"enforce_eager,omitempty"`
	EnableDBO                 *bool             `yaml:"enable_dbo,omitempty" json:"enable_dbo,omitempty"`
	EnableEPLB                *bool             `yaml:"enable_eplb,omitempty" json:"enable_eplb,omitempty"`
	NumRedundantExperts       *int              `yaml:"num_redundant_experts,omitempty" json:"num_redundant_experts,omitempty"`
	Speculative               *Speculative      `yaml:"speculative,omitempty" json:"speculative,omitempty"`
	ExtraArgs                 []string          `yaml:"extra_args,omitempty" json:"extra_args,omitempty"`
	Env                       map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
}

// Pool roles, in the order bundles and findings list them.
const (
	RolePrefill = "prefill"
	RoleDecode  = "decode"
)

// Roles are the two pool names.
var Roles = []string{RolePrefill, RoleDecode}

// Pool returns the pool of a role (nil for an unknown role).
func (g *Disaggregation) Pool(role string) *Pool {
	switch role {
	case RolePrefill:
		return &g.Prefill
	case RoleDecode:
		return &g.Decode
	}
	return nil
}

// InstanceCount is the number of instances (at least 1).
func (p Pool) InstanceCount() int { return max(1, p.Instances) }

// Merged returns v with the pool's overrides applied (a pool's engine
// settings; resolve.ColocatedVLLM applies the overrides both pools share).
func (o PoolVLLM) Merged(v VLLM) VLLM { return o.merged(v) }

// merged returns v with the pool's overrides applied.
func (o PoolVLLM) merged(v VLLM) VLLM {
	setP(&v.GPUMemoryUtilization, o.GPUMemoryUtilization)
	setV(&v.KVCacheDType, o.KVCacheDType)
	setV(&v.All2AllBackend, o.All2AllBackend)
	setP(&v.MaxNumSeqs, o.MaxNumSeqs)
	setP(&v.MaxNumBatchedTokens, o.MaxNumBatchedTokens)
	setP(&v.BlockSize, o.BlockSize)
	setP(&v.APIServerCount, o.APIServerCount)
	setP(&v.DecodeContextParallelSize, o.DecodeContextParallelSize)
	setV(&v.EnforceEager, o.EnforceEager)
	setV(&v.EnableDBO, o.EnableDBO)
	setV(&v.EnableEPLB, o.EnableEPLB)
	setV(&v.NumRedundantExperts, o.NumRedundantExperts)
	if o.Speculative != nil {
		v.Speculative = o.Speculative
	}
	v.ExtraArgs = append(append([]string(nil), v.ExtraArgs...), o.ExtraArgs...)
	if len(o.Env) > 0 {
		env := make(map[string]string, len(v.Env)+len(o.Env))
		for k, x := range v.Env {
			env[k] = x
		}
		for k, x := range o.Env {
			env[k] = x
		}
		v.Env = env
	}
	return v
}

func setP[T any](dst **T, src *T) {
	if src != nil {
		*dst = src
	}
}

func setV[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// RoleView is the deployment one pool runs, as a colocated spec of its
// own: its nodes (in the pool's order), its layout with Instances as
// replicas, and the top-level vllm settings with the pool's overrides. It
// shares Root and File with d, so positions still point into d's document
// (validate maps the paths back, RoleIndex). Unknown node names are left
// out (validate reports them). Nil when d has no disaggregation block.
func (d *Deployment) RoleView(role string) *Deployment {
	if d.Disaggregation == nil || d.Disaggregation.Pool(role) == nil {
		return nil
	}
	pool := d.Disaggregation.Pool(role)
	v := *d
	v.Disaggregation = nil
	v.Pool = role
	// A top-level router is a colocated deployment's (SPEC137 refuses it
	// on a P/D spec): no pool stands behind it, so a pool's checks do not
	// judge it (validate.BundleRefusals would refuse it on every pool).
	v.Router = nil
	v.Hardware.Nodes = nil
	for _, i := range d.PoolNodeIndexes(role) {
		v.Hardware.Nodes = append(v.Hardware.Nodes, d.Hardware.Nodes[i])
	}
	pp := pool.Parallelism
	v.Parallelism = Parallelism{Tensor: pp.Tensor, Pipeline: pp.Pipeline, Data: pp.Data, Expert: pp.Expert, Replicas: pool.InstanceCount()}
	v.VLLM = pool.VLLM.merged(d.VLLM)
	if role == RoleDecode && d.Disaggregation.Router.LLMD() && d.Disaggregation.Router.DecodePort > 0 {
		// llm-d's routing sidecar takes vllm.port on the decode pods (the
		// InferencePool's target port, the prefill engines' too) and
		// forwards to the engine behind it.
		v.VLLM.Port = d.Disaggregation.Router.DecodePort
	}
	v.Metadata.Name = d.Metadata.Name + "-" + role
	return &v
}

// PoolNodeIndexes are the hardware.nodes indexes of a pool's known node
// names, in the pool's order (an unknown name is skipped).
func (d *Deployment) PoolNodeIndexes(role string) []int {
	pool := d.Disaggregation.Pool(role)
	var out []int
	for _, name := range pool.Nodes {
		for i, n := range d.Hardware.Nodes {
			if n.Name == name {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// RouterKindVLLM is the vLLM project's router (github.com/vllm-project/router).
const RouterKindVLLM = "vllm-router"

// DefaultRouterPort is the port the router listens on when the spec gives
// none: the vLLM API's default port, since clients talk to the router.
// The pools' vllm.port must then differ on the router's node (validate):
// it defaults to DefaultPDEnginePort there.
const DefaultRouterPort = 8000

// DefaultPDEnginePort is the engines' vllm.port in a P/D spec with
// vllm-router when the spec gives none: the router keeps 8000, the port
// clients know, on the first prefill node, so the engines there must take
// another (qa45b F5: both defaulted to 8000 and the spec was refused,
// SPEC129). 8100 is the prefill port of vLLM's own P/D proxy example
// (tests/v1/kv_connector/nixl_integration/toy_proxy_server.py at v0.24.0:
// --port 8000, --prefiller-port 8100, --decoder-port 8200), and the port
// SPEC129's hint already proposed. llm-d keeps 8000: its clients reach
// the Gateway, and the decode engines move behind the sidecar
// (DefaultLLMDDecodePort).
const DefaultPDEnginePort = 8100

// applyPoolDefaults fills each pool's instances and layout (TP and PP 1,
// DP what the pool's GPUs allow per instance, a node both pools name
// counting half its GPUs to each) and the router (kind
// vllm-router on the first prefill node; llm-d's pinned images and decode
// port). The top-level parallelism keeps
// its zero value: no engine runs it.
func applyPoolDefaults(d *Deployment) {
	g := d.Disaggregation
	both := map[string]bool{}
	for _, a := range g.Prefill.Nodes {
		for _, b := range g.Decode.Nodes {
			both[a] = both[a] || a == b
		}
	}
	for _, role := range Roles {
		pool := g.Pool(role)
		setInt(&pool.Instances, 1)
		p := &pool.Parallelism
		setInt(&p.Tensor, 1)
		setInt(&p.Pipeline, 1)
		if p.Data == 0 {
			p.Data = 1
			gpus := 0
			for _, i := range d.PoolNodeIndexes(role) {
				n := d.Hardware.Nodes[i].GPUs
				if both[d.Hardware.Nodes[i].Name] {
					n /= len(Roles) // a node both pools name: half of it each, unless their data says otherwise
				}
				gpus += n
			}
			if per := p.Tensor * p.Pipeline * pool.Instances; per > 0 && gpus >= per {
				p.Data = gpus / per
			}
		}
	}
	setStr(&g.Router.Kind, RouterKindVLLM)
	if g.Router.LLMD() {
		applyLLMDDefaults(&g.Router)
		return
	}
	if g.Router.Node == "" && len(g.Prefill.Nodes) > 0 {
		g.Router.Node = g.Prefill.Nodes[0]
	}
	setInt(&g.Router.Port, DefaultRouterPort)
}

// RouterOnlyNode reports whether the node named name may run nothing but
// a router: disaggregation.router.node of the vLLM router (llm-d's runs in
// the cluster, not on a named node) in neither pool, or a colocated
// deployment's router.node (vllm-router). Only such a node may have no GPU
// (hardware.nodes[].gpus 0: a CPU-only host; QA left 39 #1). Call it on a
// spec with defaults applied.
func (d *Deployment) RouterOnlyNode(name string) bool {
	g := d.Disaggregation
	if g == nil {
		// A colocated deployment's top-level vllm-router (router.node,
		// default the first node): the node holds no engine when it has no
		// GPU, as the layout is placed on GPUNodes alone.
		r := d.Router
		return r != nil && name != "" && r.Kind == RouterKindVLLM && r.Node == name
	}
	if name == "" || g.Router.LLMD() || g.Router.Node != name {
		return false
	}
	for _, role := range Roles {
		for _, n := range g.Pool(role).Nodes {
			if n == name {
				return false
			}
		}
	}
	return true
}

// GPUNodes are the hardware nodes with GPUs: all but a router's CPU-only
// host (gpus: 0, which validate allows on RouterOnlyNode alone: the P/D
// router's or a colocated deployment's top-level router's).
// What runs engines — a pool, a colocated layout plan tries instead of the
// pools — is placed on these.
//
// Without such a host it is hardware.nodes itself, not a copy: plan sets it
// on every candidate's spec, and a copy of a 10,000-node list per
// candidate ran the hostile-input plan out of memory (2.5 GiB).
func (d *Deployment) GPUNodes() []Node {
	if !d.anyGPULess() {
		return d.Hardware.Nodes
	}
	out := make([]Node, 0, len(d.Hardware.Nodes))
	for _, n := range d.Hardware.Nodes {
		if n.GPUs > 0 {
			out = append(out, n)
		}
	}
	return out
}

// anyGPULess reports whether some node of hardware.nodes has no GPU.
func (d *Deployment) anyGPULess() bool {
	for _, n := range d.Hardware.Nodes {
		if n.GPUs == 0 {
			return true
		}
	}
	return false
}

// GPULess reports whether the node named name is in hardware.nodes with
// no GPU.
func (d *Deployment) GPULess(name string) bool {
	for _, n := range d.Hardware.Nodes {
		if n.Name == name {
			return n.GPUs == 0
		}
	}
	return false
}
