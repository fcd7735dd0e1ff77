package generator

import (
	"fmt"
	"strconv"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// argList accumulates flags, checking each against the release so the
// generator can never emit a flag the chosen vLLM does not have.
type argList struct {
	r    vllm.Release
	args []Arg
	err  error
}

func (a *argList) flag(name string, value ...string) {
	if _, ok := a.r.Flag(name); !ok && a.err == nil {
		a.err = fmt.Errorf("internal: vLLM %s has no --%s", a.r.Version, name)
	}
	a.args = append(a.args, Arg{Text: "--" + name})
	for _, v := range value {
		a.args = append(a.args, Arg{Text: v})
	}
}

func (a *argList) raw(name, expr string) {
	a.flag(name)
	a.args = append(a.args, Arg{Text: expr, Raw: true})
}

func itoa(i int) string { return strconv.Itoa(i) }

// commonArgs are the model, numerics and parallel flags every node gets
// identically (vLLM hashes them across DP ranks since PR #26218).
func commonArgs(p *Plan, d *spec.Deployment) ([]Arg, error) {
	a := &argList{r: p.Release}
	a.args = append(a.args, Arg{Text: "serve"}, Arg{Text: p.Model})
	if p.Served != "" {
		a.flag("served-model-name", p.Served)
	}
	a.flag("tensor-parallel-size", itoa(p.TP))
	a.flag("pipeline-parallel-size", itoa(p.PP))
	if dcp := p.Deployment.Engine.DCP.Value; dcp > 1 {
		// Decode context parallelism: the TP group's GPUs, no more
		// (vllm.Release.DCP; validate's SPEC135 held the release and
		// the tensor size to it).
		a.flag(vllm.DCPFlag, itoa(dcp))
	}
	if p.EP {
		a.flag("enable-expert-parallel")
	}
	weightArgs(a, p.Deployment)
	v := d.VLLM
	if d.Workload.MaxModelLen > 0 {
		a.flag("max-model-len", itoa(d.Workload.MaxModelLen))
	}
	if v.GPUMemoryUtilization != nil {
		a.flag("gpu-memory-utilization", strconv.FormatFloat(*v.GPUMemoryUtilization, 'f', -1, 64))
	}
	if v.KVCacheDType != "" && v.KVCacheDType != "auto" {
		a.flag("kv-cache-dtype", v.KVCacheDType)
	} else if f := p.Deployment.Engine.KVCacheDTypeFlag; f != "" {
		a.flag("kv-cache-dtype", f)
	}
	optInt(a, "max-num-seqs", v.MaxNumSeqs)
	optInt(a, "max-num-batched-tokens", v.MaxNumBatchedTokens)
	optInt(a, "block-size", v.BlockSize)
	if f := p.Deployment.Engine.BlockSizeFlag; v.BlockSize == nil && f > 0 {
		// The architecture's backends take one kernel block size that
		// vLLM does not pick itself (resolve: vllm.ArchitectureBlockSize).
		a.flag("block-size", itoa(f))
	}
	if v.EnforceEager {
		a.flag("enforce-eager")
	}
	if v.EnableDBO {
		a.flag("enable-dbo")
	}
	eplbArgs(a, v)
	specArgs(a, p.Deployment.Engine.Speculative)
	if trust(p) {
		a.flag("trust-remote-code")
	}
	if p.All2AllWritten != "" && p.Via == vllm.ViaFlag.String() {
		a.flag("all2all-backend", p.All2AllWritten)
	}
	return a.args, a.err
}

func optInt(a *argList, name string, v *int) {
	if v != nil {
		a.flag(name, itoa(*v))
	}
}

// eplbArgs uses --eplb-config where it exists and the old flags before.
func eplbArgs(a *argList, v spec.VLLM) {
	if v.EnableEPLB {
		a.flag("enable-eplb")
	}
	if v.NumRedundantExperts == 0 {
		return
	}
	if _, ok := a.r.Flag("eplb-config"); ok {
		a.flag("eplb-config", fmt.Sprintf(`{"num_redundant_experts":%d}`, v.NumRedundantExperts))
		return
	}
	a.flag("num-redundant-experts", itoa(v.NumRedundantExperts))
}

func trust(p *Plan) bool {
	if t := p.Spec.Model.TrustRemoteCode; t != nil {
		return *t
	}
	m := p.Deployment.Model
	return m != nil && m.TrustRemoteCode
}

// nodeArgs are the per-node flags for the DP and single layouts.
func nodeArgs(p *Plan, n *NodePlan, startRank, dpLocal *Arg) ([]Arg, error) {
	a := &argList{r: p.Release}
	if p.DP > 1 {
		a.flag("data-parallel-size", itoa(p.DP))
	}
	if p.Layout == LayoutDP {
		a.args = append(a.args, Arg{Text: "--data-parallel-size-local"}, *dpLocal)
		a.flag("data-parallel-address", p.primaryOf(n).Address)
		a.flag("data-parallel-rpc-port", itoa(p.RPCPort))
	}
	if _, ok := p.Release.Flag("data-parallel-rpc-port"); ok && p.SubNode && p.DP > 1 {
		// Replicas sharing a node: a single-host engine set handshakes
		// over IPC in the releases read (vllm.Release.SharedHost), but the
		// port is cheap to keep apart where one did not.
		a.flag("data-parallel-rpc-port", itoa(p.RPCPort+n.Slot))
	}
	if n.Role == RoleHeadless {
		a.flag("headless")
		a.args = append(a.args, Arg{Text: "--data-parallel-start-rank"}, *startRank)
		return a.args, a.err
	}
	a.flag("port", itoa(n.Port))
	if asc := apiServerCount(p); asc > 0 {
		a.flag("api-server-count", itoa(asc))
	}
	return a.args, a.err
}

// apiServerCount is the resolved API-server count (resolve decides it, so
// that check simulates what the bundle starts), 0 when the release has no
// --api-server-count. It is written explicitly because vLLM's default
// changed from 1 to "DP size" between releases.
func apiServerCount(p *Plan) int {
	if _, ok := p.Release.Flag("api-server-count"); !ok {
		return 0
	}
	return p.Deployment.Engine.APIServers.Value
}

// spanningArgs are the per-node flags for the nnodes and Ray layouts.
func spanningArgs(p *Plan, n *NodePlan, nodeRank, masterAddr Arg) ([]Arg, error) {
	a := &argList{r: p.Release}
	if p.Layout == LayoutRay {
		a.flag("distributed-executor-backend", "ray")
		a.flag("port", itoa(p.Port))
		spanningAPIServers(a, p)
		return a.args, a.err
	}
	a.flag("distributed-executor-backend", "mp")
	if p.DP > 1 {
		// Each DP rank's first node handshakes with node 0 at
		// --data-parallel-address, which defaults to --master-addr with
		// the mp backend (arg_utils.py, v0.11.1-v0.24.0), on the RPC
		// port: the spec's, as the DP layout writes it.
		a.flag("data-parallel-size", itoa(p.DP))
		a.flag("data-parallel-rpc-port", itoa(p.RPCPort))
	}
	a.flag("nnodes", itoa(p.ReplicaNodes))
	a.args = append(a.args, Arg{Text: "--node-rank"}, nodeRank, Arg{Text: "--master-addr"}, masterAddr)
	a.flag("master-port", itoa(MasterPort))
	if n.Role == RoleHeadless {
		a.flag("headless")
		return a.args, a.err
	}
	a.flag("port", itoa(p.Port))
	spanningAPIServers(a, p)
	return a.args, a.err
}

// spanningAPIServers writes the spec's api_server_count for an engine
// spanning nodes; unset, vLLM's default (one API server with DP = 1, in
// every release) is what resolve assumed, and nothing is written.
func spanningAPIServers(a *argList, p *Plan) {
	if e := p.Deployment.Engine; e.APIServers.From == resolve.SourceSpec {
		a.flag("api-server-count", itoa(e.APIServers.Value))
	}
}

// MasterPort is the torch.distributed port for --nnodes layouts (vLLM's
// default, written explicitly so firewalls can be opened for it).
const MasterPort = 29501

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
