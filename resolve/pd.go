package resolve

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Disaggregated is a prefill/decode deployment resolved: one Deployment
// per pool, each what Assemble makes of the pool's spec.RoleView (so the
// colocated rules — layout, placement, engine settings, all-to-all backend
// — apply to each pool unchanged), the connector and the router.
type Disaggregated struct {
	// Connector is the KV connector, from vLLM's registry table.
	Connector vllm.Connector
	// Transport is the NIXL backend ("ucx").
	Transport string
	Router    Router
	// Roles are the prefill pool then the decode pool.
	Roles []Role
}

// Router is where a router runs: the P/D router (Disaggregated.Router)
// or a colocated deployment's (Deployment.Router).
type Router struct {
	Kind string
	// Policy is vllm-router's --policy, with where it came from (a
	// colocated router only; zero for the P/D router, which runs the
	// router's default).
	Policy Setting[string]
	Node   spec.Node
	Port   int
	// Image is the router's container image for Kubernetes ("": none
	// given); llm-d's endpoint picker image with kind llm-d.
	Image string
	// SidecarImage and DecodePort are llm-d's routing sidecar image and the
	// decode engines' port behind it (kind llm-d only; spec.Router).
	SidecarImage string
	DecodePort   int
}

// LLMD reports whether the router is llm-d's (spec.RouterKindLLMD).
func (r Router) LLMD() bool { return r.Kind == spec.RouterKindLLMD }

// Role is one pool, resolved.
type Role struct {
	// Name is spec.RolePrefill or spec.RoleDecode.
	Name string
	// Deployment is the pool's own deployment: its nodes, layout (Instances
	// as replicas) and engine settings with the pool's overrides.
	Deployment *Deployment
	// KVRole is the connector's kv_role for the pool: kv_producer for
	// prefill, kv_consumer for decode, as vLLM's NIXL guide writes instances
	// on different machines (vllm@026c83f9:docs/features/nixl_connector_usage.md,
	// "Multi-Instance Setup") and the vLLM router's PD guide does
	// (vllm-project/router@a07dacb3:docs/model-routing/pd-disaggregation.md).
	// NIXL itself does not act on it ("effectively a placeholder", same
	// guide), but KVTransferConfig requires one when kv_connector is set.
	KVRole string
	// KVTransferConfig is --kv-transfer-config's JSON for the pool.
	KVTransferConfig string
	// SideChannels are the connector's listeners on each node the pool
	// uses: NIXL's side channel, or Mooncake's bootstrap server (nil when
	// the layout cannot be placed: the generator reports that).
	SideChannels []SideChannel
	// SidecarPort is the port llm-d's routing sidecar listens on in front
	// of each instance of the pool (vllm.port as the prefill pool has it:
	// the InferencePool's one target port), the instance's engine then
	// listening on the pool's own vllm.port (disaggregation.router.
	// decode_port); 0 without a sidecar (every pool but the decode pool
	// behind llm-d).
	SidecarPort int
}

// SideChannel is one node's (or, sharing a node, one instance's) KV
// connector listeners: NIXL's handshake ports (Ports, for a connector with
// a NIXL side channel) and the Mooncake bootstrap server (Bootstrap).
type SideChannel struct {
	// Node is the host; Host the address its engines advertise
	// (VLLM_NIXL_SIDE_CHANNEL_HOST: the node's address, routable from the
	// other pool, never vLLM's default "localhost").
	Node spec.Node
	Host string
	// BasePort is VLLM_NIXL_SIDE_CHANNEL_PORT; Ports every port the node's
	// engines listen on (vllm.NixlSidePorts).
	BasePort int
	Ports    []int
	// Bootstrap is the port of the bootstrap server the instance's first
	// node runs (a prefill pool whose connector has one, Primary only:
	// vllm.PDBundle.BootstrapPort, the port the generator writes); 0 none.
	Bootstrap int
	// Primary: the node runs its instance's API server and DP coordinator
	// (it binds vllm.port and vllm.rpc_port; the other nodes do not).
	Primary bool
	// Slot is the instance's place among the instances sharing the node
	// (instances smaller than a node, Placement.SubNode; 0 otherwise): its
	// API port is vllm.port + Slot, its DP RPC port (with DP > 1)
	// vllm.rpc_port + Slot. Such a node has one SideChannel per instance.
	Slot    int
	SubNode bool
}

// kvRoles maps a pool to its kv_role (see Role.KVRole).
var kvRoles = map[string]string{spec.RolePrefill: vllm.KVRoleProducer, spec.RoleDecode: vllm.KVRoleConsumer}

// PoolKVRole is the kv_role a pool's engines are given (see Role.KVRole);
// "" for an unknown pool.
func PoolKVRole(role string) string { return kvRoles[role] }

// AssembleDisaggregated resolves a spec with a disaggregation block from
// the parts validate resolved and the pools' deployments (Assemble of each
// RoleView, in spec.Roles order). The result is a copy of the decode
// pool's deployment — so a stage that reads one engine sees a consistent
// one — with the whole spec, all nodes, and PD set; stages that handle
// P/D read PD.Roles.
func AssembleDisaggregated(d *spec.Deployment, roles []*Deployment) (*Deployment, error) {
	g := d.Disaggregation
	if g == nil || len(roles) != len(spec.Roles) {
		return nil, fieldErr("disaggregation", "a disaggregated deployment needs a prefill and a decode pool", "")
	}
	c, ok := vllm.KVConnectorNamed(g.Connector)
	if !ok {
		return nil, fieldErr("disaggregation.connector", fmt.Sprintf("unknown KV connector %q", g.Connector), "")
	}
	pd := &Disaggregated{Connector: c, Transport: g.Transport, Router: Router{Kind: g.Router.Kind, Port: g.Router.Port, Image: g.Router.Image,
		SidecarImage: g.Router.SidecarImage, DecodePort: g.Router.DecodePort}}
	if pd.Transport == "" {
		pd.Transport = "ucx"
	}
	for _, n := range d.Hardware.Nodes {
		if n.Name == g.Router.Node {
			pd.Router.Node = n
		}
	}
	roles, err := shareNodes(d, roles)
	if err != nil {
		return nil, err
	}
	// The connector's listeners (vllm.PDBundleOf, the generator's table):
	// a connector vlaunch writes no bundle for is counted as NIXL (validate
	// refuses it, SPEC127).
	b, bundled, _ := vllm.PDBundleOf(c.Name, vllm.Version{})
	nixl := !bundled || b.NIXLSideChannel
	for i, name := range spec.Roles {
		r := Role{Name: name, Deployment: roles[i], KVRole: kvRoles[name]}
		markPoolOverrides(name, g.Pool(name).VLLM, &roles[i].Engine)
		r.KVTransferConfig = kvTransferConfig(c.Name, r.KVRole)
		r.SideChannels = sideChannels(roles[i], nixl)
		if bundled && name == spec.RolePrefill {
			addBootstrap(r.SideChannels, b, roles[i].Engine.Env)
		}
		if pd.Router.LLMD() && name == spec.RoleDecode {
			// The InferencePool has one target port: the prefill engines'
			// vllm.port, which the sidecars take (generator/pd.go, makeLLMDPlan).
			r.SidecarPort = roles[0].Spec.VLLM.Port
		}
		pd.Roles = append(pd.Roles, r)
	}
	out := *roles[len(roles)-1]
	out.Spec, out.Nodes, out.PD = d, d.Hardware.Nodes, pd
	return &out, nil
}

// kvTransferConfig is the --kv-transfer-config JSON: the connector and the
// role, the two keys KVTransferConfig needs (vllm@9dc49464:vllm/config/kv_transfer.py).
func kvTransferConfig(connector, role string) string {
	b, _ := json.Marshal(struct {
		Connector string `json:"kv_connector"`
		Role      string `json:"kv_role"`
	}{connector, role})
	return string(b)
}

// sideChannels places the pool's layout (Place, the generator's rule) and
// lists each used node's side-channel ports from the release's default
// base, or the pool's own VLLM_NIXL_SIDE_CHANNEL_PORT. An instance larger
// than a node takes whole nodes of its pool alone, so one base gives
// disjoint ranges on every host; instances sharing a node (of one pool, or
// of both pools: the prefill pool's first, NodeShare) each start past the
// ports of the ones before them (the generator writes that base),
// unless the pool's vllm.env sets one base for all, which PortProblems
// then reports with the other ports a host would serve twice.
//
// A connector without a NIXL side channel (nixl false: MooncakeConnector)
// opens none of those ports: the sites are listed without Ports.
func sideChannels(r *Deployment, nixl bool) []SideChannel {
	pl, err := r.Place()
	if err != nil {
		return nil
	}
	base, fixed := vllm.NixlSideChannelDefaultPort(r.Release.Version), false
	if v, err := strconv.Atoi(strings.TrimSpace(r.Engine.Env[vllm.NixlSideChannelPortEnv])); err == nil && v > 0 && v < 65536 {
		base, fixed = v, true // the pool's own vllm.env sets it
	}
	var out []SideChannel
	per := len(vllm.NixlSidePorts(r.Release.Version, 0, 0, r.Layout.DP, r.Layout.TP))
	for i, s := range pl.Nodes {
		if !s.Used || i >= len(r.Nodes) {
			continue
		}
		n := r.Nodes[i]
		if pl.SubNode {
			var off int
			if i < len(r.Shares) && r.Shares[i].Shared {
				off = r.Shares[i].SidePortOffset // past the other pool's instances on the node
			}
			for k := range s.Replicas {
				b := base
				if !fixed {
					b += off + k*per
				}
				out = append(out, SideChannel{Node: n, Host: n.Address, BasePort: b, Primary: true, Slot: pl.Sites[s.Replica+k].Slot, SubNode: true,
					Ports: vllm.NixlSidePorts(r.Release.Version, b, 0, r.Layout.DP, r.Layout.TP)})
			}
			continue
		}
		local, start := s.DPLocal, s.DPStart
		if pl.Spanning {
			// One engine over several nodes: counted as if all its
			// workers listened on every node it spans (an over-count).
			local, start = 1, 0
		}
		ports := vllm.NixlSidePorts(r.Release.Version, base, start, local, r.Layout.TP)
		out = append(out, SideChannel{Node: n, Host: n.Address, BasePort: base, Ports: ports, Primary: s.Rank == 0})
	}
	if !nixl {
		for i := range out {
			out[i].Ports = nil
		}
	}
	return out
}

// addBootstrap gives each prefill instance's first node its bootstrap
// server port (vllm.PDBundle.BootstrapPort of its slot; none for a
// connector without one).
func addBootstrap(scs []SideChannel, b vllm.PDBundle, env map[string]string) {
	for i := range scs {
		if scs[i].Primary {
			scs[i].Bootstrap = b.BootstrapPort(env, scs[i].Slot)
		}
	}
}

// PortProblem is a port a host would serve twice.
type PortProblem struct {
	Node string
	Port int
	// What and Other name the two uses ("the router", "the vLLM API port", "the NIXL side channel of prefill",
	// "prefill's Mooncake bootstrap server").
	What, Other string
	// SideChannelOf names the pool when both uses are NIXL side channels
	// (two of its instances on one node given one base in its vllm.env, or
	// its and the other pool's on a node they share: the pool whose ports
	// meet the ones claimed before), "" otherwise.
	SideChannelOf string
	// Pod marks a clash inside each pod of a pool's instances smaller than
	// a node on Kubernetes (their own port space, reported once per node).
	Pod bool
}

// PortProblems lists every port the deployment's hosts would open twice
// when run by runtime (spec.Runtime.Kind): the router's, each instance's
// API and DP RPC ports on its first node, and the side-channel ports of
// every node, and the bootstrap server port of each prefill instance
// (a connector with one: MooncakeConnector).
//
// Bare metal and docker (host networking) share one port space per node:
// instances sharing a node each take vllm.port, vllm.rpc_port and the
// side-channel base plus their slot. Kubernetes runs what the generator's
// manifests say: an instance smaller than a node is a pod of its own on the
// pod network (templates/kubernetes/lws.yaml.tmpl: hostNetwork only for
// instances of whole nodes), with its own IP, binding the ports of the
// node's first instance (slot 0: the LeaderWorkerSet's pods are alike), so
// ports of two such pods never clash, only ports inside one pod can; an
// instance of whole nodes binds the node's ports (host networking), as on
// bare metal; the vLLM router is a Deployment on the pod network
// (templates/pd/router.yaml.tmpl), which claims no node's port.
//
// vllm-router binds a second port, its Prometheus metrics
// (vllm.RouterMetricsPort), claimed with its own.
func (pd *Disaggregated) PortProblems(runtime string) []PortProblem {
	kube := runtime == "kubernetes"
	hosts := map[string]map[int]string{}
	var out []PortProblem
	claim := func(space, node string, port int, what string) {
		if hosts[space] == nil {
			hosts[space] = map[int]string{}
		}
		if prev, ok := hosts[space][port]; ok {
			q := PortProblem{Node: node, Port: port, What: what, Other: prev, Pod: space != node}
			for _, r := range pd.Roles {
				// Both side channels: of one pool's instances, or of the two
				// pools sharing the node (named after the later one).
				if side := r.Name + "'s NIXL side channel"; strings.HasPrefix(what, side) && strings.Contains(prev, "'s NIXL side channel") {
					q.SideChannelOf = r.Name
				}
			}
			if !slices.Contains(out, q) { // the pods on a node are alike: once
				out = append(out, q)
			}
			return
		}
		hosts[space][port] = what
	}
	if pd.Router.Node.Name != "" && !kube {
		claim(pd.Router.Node.Name, pd.Router.Node.Name, pd.Router.Port, "the router's port")
	}
	if !pd.Router.LLMD() {
		// vllm-router also binds its Prometheus metrics listener
		// (vllm.RouterMetricsPort, on 127.0.0.1; router.sh and router.yaml
		// name it): on its node on bare metal and Docker, inside its own pod
		// on Kubernetes, where only the router's port can meet it.
		switch {
		case kube:
			claim(routerPod, routerPod, pd.Router.Port, "the router's port")
			claim(routerPod, routerPod, vllm.RouterMetricsPort, routerMetricsWhat)
		case pd.Router.Node.Name != "":
			claim(pd.Router.Node.Name, pd.Router.Node.Name, vllm.RouterMetricsPort, routerMetricsWhat)
		}
	}
	for _, r := range pd.Roles {
		v := r.Deployment.Spec.VLLM
		for _, sc := range r.SideChannels {
			space, slot, ports := sc.Node.Name, sc.Slot, sc.Ports
			if kube && sc.SubNode {
				// A pod of its own: its own port space, the slot-0 instance's ports.
				space, slot, ports = fmt.Sprintf("%s/%s pod %d", sc.Node.Name, r.Name, sc.Slot), 0, firstSlotPorts(r.SideChannels, sc)
			}
			if sc.Primary {
				api := r.Name + "'s API port (vllm.port)"
				if r.SidecarPort > 0 {
					// The routing sidecar takes vllm.port in front of the engine.
					claim(space, sc.Node.Name, r.SidecarPort+slot, "llm-d's routing sidecar (vllm.port)")
					api = r.Name + "'s API port (disaggregation.router.decode_port)"
				}
				claim(space, sc.Node.Name, v.Port+slot, api)
				if r.Deployment.Layout.DP > 1 {
					claim(space, sc.Node.Name, v.RPCPort+slot, r.Name+"'s DP RPC port (vllm.rpc_port)")
				}
			}
			if sc.Bootstrap > 0 {
				bs := sc.Bootstrap
				if kube && sc.SubNode {
					bs = firstSlotBootstrap(r.SideChannels, sc)
				}
				claim(space, sc.Node.Name, bs, r.Name+"'s Mooncake bootstrap server ("+vllm.MooncakeBootstrapPortEnv+")")
			}
			for _, q := range ports {
				claim(space, sc.Node.Name, q, r.Name+"'s NIXL side channel ("+vllm.NixlSideChannelPortEnv+" + rank)")
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Node < out[j].Node })
	return out
}

// routerMetricsWhat names vllm-router's metrics port in port problems;
// routerPod is the router's own port space on Kubernetes.
const (
	routerMetricsWhat = "the router's Prometheus metrics port (vllm-router --prometheus-port)"
	routerPod         = "the router's pod"
)

// firstSlotPorts are the side-channel ports of the instance in slot 0 of
// sc's node: what every pod of a pool smaller than a node binds on
// Kubernetes (the generator writes the release's base, not one past the
// instances before it, into the pods' template).
func firstSlotPorts(all []SideChannel, sc SideChannel) []int {
	for _, o := range all {
		if o.Node.Name == sc.Node.Name && o.Slot == 0 {
			return o.Ports
		}
	}
	return sc.Ports
}

// firstSlotBootstrap is the bootstrap port of the slot-0 instance on sc's
// node: what each pod binds on Kubernetes, as firstSlotPorts (the
// generator refuses Mooncake bundles for Kubernetes, GEN009; validate
// SPEC127).
func firstSlotBootstrap(all []SideChannel, sc SideChannel) int {
	for _, o := range all {
		if o.Node.Name == sc.Node.Name && o.Slot == 0 {
			return o.Bootstrap
		}
	}
	return sc.Bootstrap
}
