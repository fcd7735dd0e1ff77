package preflight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// specNode keeps the signatures short.
type specNode = spec.Node

// maxFileBytes bounds any file a check reads (config.json, /proc files).
const maxFileBytes = 16 << 20

// env is what every check sees: the spec, this node, the host and a cache
// of command output shared between checks (one nvidia-smi call, not five).
type env struct {
	d    *spec.Deployment
	r    *resolve.Deployment
	node spec.Node
	idx  int
	host Host
	opts Options
	cmds *cmdCache
}

// cmdCache is the command output the checks of one run share (the envs of
// both pools on a shared node included).
type cmdCache struct {
	mu  sync.Mutex
	out map[string]cmdResult
}

type cmdResult struct {
	out []byte
	err error
}

func newEnv(opts Options) (*env, error) {
	if opts.Deployment == nil || opts.Deployment.Spec == nil {
		return nil, errors.New("no spec")
	}
	d := opts.Deployment.Spec
	if opts.Host.FS == nil || opts.Host.Cmd == nil || opts.Host.Net == nil || opts.Host.Disk == nil {
		return nil, errors.New("incomplete host (use NewSystemHost)")
	}
	if h, ok := colocatedRouterHost(opts); ok {
		return &env{d: d, r: opts.Deployment, node: h, idx: opts.SpecIndex, host: opts.Host,
			opts: opts, cmds: &cmdCache{out: map[string]cmdResult{}}}, nil
	}
	idx, err := findNode(d.Hardware.Nodes, opts.Node)
	if err != nil {
		return nil, err
	}
	return &env{d: d, r: opts.Deployment, node: d.Hardware.Nodes[idx], idx: idx, host: opts.Host,
		opts: opts, cmds: &cmdCache{out: map[string]cmdResult{}}}, nil
}

// colocatedRouterHost is the node of a colocated deployment's top-level
// router when it is a CPU-only host (gpus: 0) the engines' view of the
// spec leaves out (spec.Deployment.EngineView) and the run checks it as
// a router-only node (Options.RouterOnly): the node comes from
// resolve.Deployment.Router, its index from Options.SpecIndex (its place
// in hardware.nodes as written, where findings point).
func colocatedRouterHost(opts Options) (spec.Node, bool) {
	r := opts.Deployment
	if !opts.RouterOnly || r.PD != nil || r.Router == nil || r.Router.Node.Name != opts.Node {
		return spec.Node{}, false
	}
	for _, n := range r.Spec.Hardware.Nodes {
		if n.Name == opts.Node {
			return spec.Node{}, false // in the view: found as any node
		}
	}
	return r.Router.Node, true
}

// forRole is the env of one pool of the node (Options.Roles): the pool's
// deployment and view of the spec, this node in that view, the same host
// and command cache.
func (e *env) forRole(r *resolve.Role) (*env, error) {
	if r == nil || r.Deployment == nil || r.Deployment.Spec == nil {
		return nil, errors.New("a pool without a deployment")
	}
	o := e.opts
	o.Role, o.Deployment = r, r.Deployment
	d := r.Deployment.Spec
	idx, err := findNode(d.Hardware.Nodes, o.Node)
	if err != nil {
		return nil, fmt.Errorf("the %s pool: %w", r.Name, err)
	}
	return &env{d: d, r: r.Deployment, node: d.Hardware.Nodes[idx], idx: idx, host: e.host, opts: o, cmds: e.cmds}, nil
}

// roles are the pools whose checks run on this node: Options.Roles, else
// Role alone (nil for a colocated spec).
func (e *env) roles() []*resolve.Role {
	if len(e.opts.Roles) > 0 {
		return e.opts.Roles
	}
	if e.opts.Role != nil {
		return []*resolve.Role{e.opts.Role}
	}
	return nil
}

// share is this node's NodeShare in the pool the env checks: Shared when
// the node is one both pools name (resolve.NodeShare: the pool runs on
// GPUs FirstGPU .. FirstGPU+GPUs-1 of it, from slot FirstSlot).
func (e *env) share() resolve.NodeShare {
	if e.opts.Role == nil || e.r == nil || e.idx >= len(e.r.Shares) {
		return resolve.NodeShare{}
	}
	return e.r.Shares[e.idx]
}

// specIdx is the node's index in the spec the user wrote: a P/D pool's
// view numbers its nodes from 0 (Options.SpecIndex).
func (e *env) specIdx() int {
	if e.opts.Role != nil {
		return e.opts.SpecIndex
	}
	return e.idx
}

// run runs a command once per env and caches its output.
func (e *env) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	key := strings.Join(append([]string{name}, args...), " ")
	e.cmds.mu.Lock()
	defer e.cmds.mu.Unlock()
	if r, ok := e.cmds.out[key]; ok {
		return r.out, r.err
	}
	out, err := e.host.Cmd.Run(ctx, name, args...)
	e.cmds.out[key] = cmdResult{out, err}
	return out, err
}

// fsPath turns an absolute host path into an io/fs path.
func fsPath(abs string) string {
	p := strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(abs)), "/")
	if p == "" {
		return "."
	}
	return p
}

// readFile reads an absolute host path through the host FS, bounded.
func (e *env) readFile(abs string) ([]byte, error) {
	f, err := e.host.FS.Open(fsPath(abs))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB", abs, maxFileBytes>>20)
	}
	return data, nil
}

// readTrim reads a small sysfs/proc file and trims it.
func (e *env) readTrim(abs string) (string, error) {
	b, err := e.readFile(abs)
	return strings.TrimSpace(string(b)), err
}

// exists reports whether an absolute host path exists.
func (e *env) exists(abs string) bool {
	_, err := fs.Stat(e.host.FS, fsPath(abs))
	return err == nil
}

// multiNode reports whether the node's engines span more than one host
// (one replica's nodes: independent replicas never talk to each other).
func (e *env) multiNode() bool {
	per, _ := resolve.ReplicaNodes(e.d)
	return per > 1
}

// primary is the first node of this node's replica (the first node unless
// the spec runs independent replicas): it runs the API server and the DP
// RPC endpoint.
func (e *env) primary() spec.Node { return e.d.Hardware.Nodes[e.primaryIndex()] }

// primaryIndex is the index of this node's replica's first node.
func (e *env) primaryIndex() int {
	per, heads := resolve.ReplicaNodes(e.d)
	for _, h := range heads {
		if e.idx >= h && e.idx < h+per {
			return h
		}
	}
	return 0
}

// usesRDMA reports whether the fabric between nodes is RDMA.
func (e *env) usesRDMA() bool {
	k := e.d.Hardware.Network.InterNode.Kind
	return k == "infiniband" || k == "roce"
}

// backend is the all2all backend that runs (the resolved deployment's).
func (e *env) backend() string {
	if b := e.r.Engine.All2All.Value; b != "" {
		return b
	}
	return "none (no expert-parallel all-to-all in this layout)"
}

// deepEP reports whether the all2all backend is one of the DeepEP kernels.
func (e *env) deepEP() bool { return strings.HasPrefix(e.backend(), "deepep") }

// rdmaSkip returns a skip result when the layout needs no RDMA checks.
func (e *env) rdmaSkip() (Result, bool) {
	if e.usesRDMA() || e.deepEP() {
		return Result{}, false
	}
	kind := e.d.Hardware.Network.InterNode.Kind
	if kind == "" {
		kind = "not set"
	}
	return skip(fmt.Sprintf("layout uses no RDMA (inter_node kind %s, all2all backend %s)",
		kind, e.backend())), true
}
