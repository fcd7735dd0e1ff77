package generator

import (
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// addPDEnv gives every node of a pool the NIXL side channel and UCX
// variables, before the spec's own (vllm.env, which may override them):
// the host is the node's address (the pod IP on Kubernetes), never vLLM's
// default "localhost", which a decoder on another node cannot reach (vLLM
// #27083); the base port is the release's default, written so the README
// and the hosts' firewalls can name it (instances sharing a node each
// start past the ports the ones before them take, vllm.NixlSidePorts); UCX uses the node's RDMA devices
// and, on RoCE, the spec's GID index (UCX does not read NCCL's variables:
// vllm@026c83f9:docs/features/nixl_connector_usage.md; ai-dynamo/dynamo#814).
func addPDEnv(p *Plan, r *resolve.Deployment, role resolve.Role) {
	base := vllm.NixlSideChannelDefaultPort(r.Release.Version)
	for i := range p.Nodes {
		n := &p.Nodes[i]
		n.Env = insertPDEnv(n.Env, pdEnv(p, r, n, EnvVar{Value: n.Address}, sideChannelBase(role, n, base)))
	}
	if p.Kube != nil {
		n0 := p.activeNodes()[0]
		p.Kube.Env = insertPDEnv(p.Kube.Env, pdEnv(p, r, n0, EnvVar{FieldRef: "status.podIP"}, base))
	}
}

// sideChannelBase is the side-channel base port resolve gave n's instance
// on its node (instances sharing a node each have their own), else base.
func sideChannelBase(role resolve.Role, n *NodePlan, base int) int {
	for _, sc := range role.SideChannels {
		if sc.Node.Name == n.Name && sc.Slot == n.Slot {
			return sc.BasePort
		}
	}
	return base
}

// pdEnv lists one node's P/D variables; host carries the address (Value or
// FieldRef).
func pdEnv(p *Plan, r *resolve.Deployment, n *NodePlan, host EnvVar, base int) []EnvVar {
	host.Name, host.Why = vllm.NixlSideChannelHostEnv, "the address this node's engines advertise to the other pool for the NIXL handshake"
	env := []EnvVar{host, {Name: vllm.NixlSideChannelPortEnv, Value: strconv.Itoa(base),
		Why: "NIXL handshake base port; vLLM " + p.Release.Version.String() + " listens on " + vllm.NixlSidePortRule(p.Release.Version)}}
	if len(n.RDMADevices) > 0 {
		devs := make([]string, len(n.RDMADevices))
		for i, d := range n.RDMADevices {
			devs[i] = d
			if !strings.Contains(d, ":") {
				devs[i] = d + ":1" // the HCA's port, as UCX names devices (port 1 assumed)
			}
		}
		env = append(env, EnvVar{Name: "UCX_NET_DEVICES", Value: strings.Join(devs, ","), Why: "the NICs NIXL's UCX transfers may use"})
	}
	if gid := r.Spec.Hardware.Network.InterNode.GIDIndex; p.Fabric == "roce" && gid != nil {
		env = append(env, EnvVar{Name: "UCX_IB_GID_INDEX", Value: strconv.Itoa(*gid), Why: "RoCE v2 GID index for UCX (it does not read NCCL_IB_GID_INDEX)"})
	}
	return append(env, stateEnv(r)...)
}

// stateEnv is what the connector needs in the release for a model with
// state layers (vllm.PDStateEnv: NixlConnector's DS conv state layout);
// nothing for other models.
func stateEnv(r *resolve.Deployment) []EnvVar {
	add, why := vllm.PDStateEnv(r.PD.Connector.Name, r.Release.Version, len(resolve.StateLayers(r.Model)) > 0)
	names := make([]string, 0, len(add))
	for k := range add {
		names = append(names, k)
	}
	sort.Strings(names)
	var env []EnvVar
	for _, k := range names {
		env = append(env, EnvVar{Name: k, Value: add[k], Why: why})
	}
	return env
}

// insertPDEnv puts add before the spec's own variables, leaving out a
// name the spec sets itself.
func insertPDEnv(env, add []EnvVar) []EnvVar {
	at := len(env)
	own := map[string]bool{}
	for i, e := range env {
		if e.Why == specEnvWhy {
			own[e.Name] = true
			if i < at {
				at = i
			}
		}
	}
	out := append([]EnvVar(nil), env[:at]...)
	for _, e := range add {
		if !own[e.Name] {
			out = append(out, e)
		}
	}
	return append(out, env[at:]...)
}
