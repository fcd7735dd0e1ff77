package generator

import (
	"fmt"
	"strconv"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// A colocated deployment behind its top-level router (spec router:,
// resolve.Deployment.Router): vllm-router spreads the requests over the DP
// ranks by its policy, which check simulates (estimate/sim/router.go). The
// router addresses each rank as a worker of its own, so every rank runs
// vLLM's external DP load balancing: one `vllm serve --data-parallel-rank R`
// per rank, with an API server of its own on a port of its own
// (vllm.ExtLBFlags: the flags, read at the v0.11.0 tag). A node of the
// layout gets one node plan per rank on it (NodePlan.ExtLB, rankUnitsAt):
// its GPUs (TP x PP of the node's), vllm.port plus its place on the node,
// and a script of its own, nodeI-rankR.sh; the router's node gets
// router.sh (Kubernetes: router.yaml, a Deployment and Service in front of
// a Service per pod).

// RoleRank is a DP rank serving on its own (external LB: its own API
// server), one of several node plans of a node.
const RoleRank = "dp-rank"

// RouterPlan is the top-level router's part of a colocated bundle.
type RouterPlan struct {
	// Node is where router.sh runs (router.node; bare and docker).
	Node spec.Node
	Port int
	// MetricsPort is vllm-router's Prometheus metrics listener
	// (--prometheus-port, vllm.RouterMetricsPort, on 127.0.0.1), which it
	// always binds next to Port.
	MetricsPort int
	// Policy is vllm-router's --policy, PolicyFrom where it came from.
	Policy, PolicyFrom string
	// Image is the router's image (router.image; Kubernetes only).
	Image string
	// Workers are the ranks' API URLs, in rank order (--worker-urls).
	Workers []string
	// Args is the router's command (vllm-router and its flags).
	Args []Arg
	// K8sName and Namespace name the router's Deployment and Service.
	K8sName, Namespace string
	// Pods are the LWS pods' Services the router reaches the ranks
	// through (Kubernetes only).
	Pods []RouterPod
}

// RouterPod is one LWS pod's Service: Worker is its LWS_WORKER_INDEX,
// Ranks its DP ranks and Ports their API ports.
type RouterPod struct {
	Service      string
	Worker       int
	Ranks, Ports []int
}

// extLBWanted: the deployment has a top-level router in front of DP ranks
// (a colocated spec with router: and DP > 1).
func extLBWanted(r *resolve.Deployment) bool { return r.ExternalLB() }

// extLBLayoutProblem: external LB runs whole engines on one node each;
// an engine spanning nodes (TP x PP above a node's GPUs: --nnodes or Ray)
// has no per-rank launch vlaunch writes.
func extLBLayoutProblem(r *resolve.Deployment, pl resolve.Placement) diag.Diagnostics {
	if !extLBWanted(r) || pl.Kind == LayoutDP || pl.Kind == LayoutSingle {
		return nil
	}
	return diag.Diagnostics{gdiag(r.Spec, CodeRouter, diag.Error, "router",
		fmt.Sprintf("each DP rank spans nodes here (layout %s): vlaunch writes external load balancing (one vllm serve per rank, behind the router) only for ranks inside a node", pl.Kind),
		"use a layout whose engines fit on one node (tensor x pipeline <= a node's GPUs), or remove router:")}
}

// rankUnitsAt are node i's node plans under external LB: one per DP rank
// on it, each on its own GPUs (the node's used GPUs split evenly, rank
// order) and API port (vllm.port + its place on the node, Slot).
func (p *Plan) rankUnitsAt(i int) []NodePlan {
	slot := p.placement.Nodes[i]
	per := (p.Spec.Hardware.Nodes[i].GPUs - slot.IdleGPUs) / max(1, slot.DPLocal)
	out := make([]NodePlan, slot.DPLocal)
	for k := range out {
		n := p.nodeAt(i)
		n.Role, n.ExtLB, n.Slot = RoleRank, true, k
		n.DPStart, n.DPLocal = slot.DPStart+k, 1
		n.GPUs, n.Devices = per, make([]int, per)
		for g := range n.Devices {
			n.Devices[g] = k*per + g
		}
		n.Port += k
		n.ScriptName = fmt.Sprintf("node%d-rank%d.sh", i, n.DPStart)
		out[k] = n
	}
	return out
}

// extLBSteps is one rank's command: the common flags, then the rank's own
// (vllm.ExtLBFlags, the ones it writes): --data-parallel-size, the rank,
// DP rank 0's node address and RPC port (identical on every rank: rank 0
// runs the DP coordinator, the others dial it), and the rank's --port.
func (p *Plan) extLBSteps(n *NodePlan, bin, common, extra []Arg) ([]Step, error) {
	a := &argList{r: p.Release}
	a.flag("data-parallel-size", itoa(p.DP))
	a.flag("data-parallel-rank", itoa(n.DPStart))
	a.flag("data-parallel-address", p.Primary.Address)
	a.flag("data-parallel-rpc-port", itoa(p.RPCPort))
	a.flag("port", itoa(n.Port))
	extLBAPIServers(a, p)
	what := fmt.Sprintf("DP rank %d of %d on GPUs %s: its own API server on port %d (external load balancing, behind the router)", n.DPStart, p.DP, n.DeviceList(), n.Port)
	if n.DPStart == 0 {
		what += "; it also runs the DP coordinator the other ranks dial"
	}
	return []Step{{Args: join(bin, common, a.args, extra), Comment: what}}, a.err
}

// extLBAPIServers writes the spec's api_server_count on a rank's command:
// under external LB every rank is a `vllm serve` of its own, and the
// count is its own API-server processes, all on the rank's --port. vLLM
// 0.11.0 (vllm/entrypoints/cli/serve.py at the tag b8b302cde434:
// ServeSubcommand.cmd runs run_multi_api_server for a count above 1,
// whose `assert external_dp_lb or hybrid_dp_lb or dp_rank == 0` holds for
// every rank, and starts a rank > 0's servers after its engine's
// handshake) and 0.16.0-0.22.1 (serve.py detects external LB from
// --data-parallel-rank and only defaults an unset count to 1) start that
// many. Unset, nothing is written: the rank runs one API server in both
// (0.11.0's argparse default 1; the detection's default 1 later). The
// count is resolve's per-rank one (resolve.Deployment.RankAPIServers).
func extLBAPIServers(a *argList, p *Plan) {
	if p.Deployment.Engine.APIServers.From == resolve.SourceSpec && apiServerCount(p) > 0 {
		a.flag("api-server-count", itoa(p.RankAPIServers()))
	}
}

// RankAPIServers is how many API-server processes each DP rank runs
// behind the router (extLBAPIServers): resolve.Deployment.RankAPIServers,
// the count the simulation gives each rank's front end too.
func (p *Plan) RankAPIServers() int { return p.Deployment.RankAPIServers() }

// Unit of a rank's node plan: the node and the rank (container names).
func (n *NodePlan) rankUnit() string { return fmt.Sprintf("%s-rank%d", n.Name, n.DPStart) }

// makeRouterPlan is the router in front of the ranks: the workers are the
// ranks' API URLs (bare and docker: the node's address and the rank's
// port; Kubernetes: the pod's Service, kubeRankService, and the port), the
// command vllm-router's as vllm-project/router@03e9af5c:src/main.rs
// defines it: --worker-urls URL... (num_args 0..), --policy, cache_aware's
// --cache-threshold, --balance-abs-threshold and --balance-rel-threshold
// (the values check simulates, estimate/sim.VLLMRouter*, which are the
// CLI's defaults: written so the bundle states what it runs), and --host
// 0.0.0.0 (its default 127.0.0.1 is unreachable from clients) --port.
func makeRouterPlan(p *Plan) *RouterPlan {
	r := p.Deployment.Router
	rp := &RouterPlan{Node: r.Node, Port: r.Port, Policy: r.Policy.Value, PolicyFrom: r.Policy.Why, Image: r.Image,
		K8sName: k8sName(p.Spec.Metadata.Name + "-router"), Namespace: p.K8s.Namespace}
	if rp.PolicyFrom == "" {
		rp.PolicyFrom = "router.policy"
	}
	worker := map[int]int{} // node index -> LWS worker index (the used nodes in order)
	for _, n := range p.rankPlans() {
		host := urlHost(n.Address)
		if p.Runtime == "kubernetes" {
			w, ok := worker[n.Index]
			if !ok {
				w = len(worker)
				worker[n.Index] = w
				rp.Pods = append(rp.Pods, RouterPod{Service: kubeRankService(p, w), Worker: w})
			}
			pod := &rp.Pods[w]
			pod.Ranks, pod.Ports = append(pod.Ranks, n.DPStart), append(pod.Ports, n.Port)
			host = fmt.Sprintf("%s.%s.svc", pod.Service, p.K8s.Namespace)
		}
		rp.Workers = append(rp.Workers, fmt.Sprintf("http://%s:%d", host, n.Port))
	}
	args := []Arg{{Text: "vllm-router"}, {Text: "--worker-urls"}}
	args = append(args, words(rp.Workers...)...)
	args = append(args, Arg{Text: "--policy"}, Arg{Text: rp.Policy})
	if rp.Policy == spec.RouterPolicyCacheAware {
		args = append(args,
			Arg{Text: "--cache-threshold"}, Arg{Text: strconv.FormatFloat(sim.VLLMRouterCacheThreshold, 'f', -1, 64)},
			Arg{Text: "--balance-abs-threshold"}, Arg{Text: itoa(sim.VLLMRouterBalanceAbs)},
			Arg{Text: "--balance-rel-threshold"}, Arg{Text: strconv.FormatFloat(sim.VLLMRouterBalanceRel, 'f', -1, 64)})
	}
	rp.MetricsPort = vllm.RouterMetricsPort
	rp.Args = append(args, routerListenArgs(rp.Port, rp.MetricsPort)...)
	return rp
}

// rankPlans are the ranks' node plans in rank order.
func (p *Plan) rankPlans() []*NodePlan {
	var out []*NodePlan
	for i := range p.Nodes {
		if p.Nodes[i].ExtLB {
			out = append(out, &p.Nodes[i])
		}
	}
	return out
}

// routerPortProblem: on the router's node the router's port must not be
// one a rank there serves on (vllm.port + its place) or the DP RPC port
// (validate compares it with vllm.port alone).
func routerPortProblem(p *Plan) diag.Diagnostics {
	if p.Router == nil || p.Runtime == "kubernetes" {
		return nil
	}
	for _, n := range p.rankPlans() {
		if n.Name != p.Router.Node.Name {
			continue
		}
		if n.Port == p.Router.Port || (n.DPStart == 0 && p.RPCPort == p.Router.Port) {
			return diag.Diagnostics{gdiag(p.Spec, CodeRouter, diag.Error, "router.port",
				fmt.Sprintf("router.port %d on %s is a port DP rank %d binds there (its API server on vllm.port + %d, or the DP RPC port)", p.Router.Port, n.Name, n.DPStart, n.Slot),
				"pick a router port outside the ranks' ports")}
		}
	}
	return nil
}

// kubeRankService is the Service of LWS pod (worker index) i, which the
// router addresses the pod's ranks through (router.yaml.tmpl).
func kubeRankService(p *Plan, i int) string { return k8sName(fmt.Sprintf("%s-w%d", p.K8sName, i)) }
