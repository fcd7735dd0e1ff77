package preflight

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/generator"
)

// routerProgram is what router.sh runs on the router's node: the vLLM
// router (github.com/vllm-project/router), installed on the host on bare
// metal and docker alike (templates/pd/README.md.tmpl: "It runs on the
// host"; vlaunch knows no published image of it). Its CLI derives clap's
// --version (vllm-project/router@03e9af5c:src/main.rs, #[command(version)]),
// which prints the version and starts nothing.
const routerProgram = "vllm-router"

// routerChecks are the checks that concern a node that runs only the
// router (Options.RouterOnly: the P/D router's node in neither pool, or a
// colocated deployment's CPU-only router.node): where it listens (its
// port and metrics port), that its address and interface are this
// host's, that it has a route to every instance or DP rank it sends
// requests to, and the router's program. Nothing of an engine runs there
// (no GPU, model, vLLM, RDMA, NIXL), so the other checks skip.
var routerChecks = map[diag.Code]bool{
	codes.PFNetInterface: true, codes.PFNetAddress: true, codes.PFNetRoute: true,
	codes.PFPortsFree: true, codes.PFSWRouter: true,
}

// routerOnlySkip is the skip of a check that does not concern a node that
// runs only the router.
func routerOnlySkip(e *env) Result {
	if e.colocatedRouter() {
		return skip("the node runs only the router in front of the DP ranks (router.node, gpus: 0): no engine here")
	}
	return skip("the node runs only the P/D router (disaggregation.router.node): no engine here")
}

// colocatedRouter reports whether the run's router is a colocated
// deployment's top-level router (spec router:, generator/extlb.go), not
// the P/D router.
func (e *env) colocatedRouter() bool { return e.r != nil && e.r.PD == nil && e.r.Router != nil }

// runsRouter reports whether this node runs router.sh: the router's port
// is set only on disaggregation.router.node outside Kubernetes.
func (e *env) runsRouter() bool { return e.opts.RouterOnly || e.opts.RouterPort > 0 }

func checkRouterProgram(ctx context.Context, e *env) Result {
	if !e.runsRouter() {
		return skip("this node runs no P/D router (disaggregation.router.node is another node, the router is a pod, or the spec is colocated)")
	}
	want := routerProgram + " on PATH (router.sh runs it on the host)"
	out, err := e.run(ctx, routerProgram, "--version")
	switch {
	case errors.Is(err, ErrNotFound):
		return fail(routerProgram+" is not on PATH", want,
			"install the vLLM router from github.com/vllm-project/router (`cargo build --release`, or the Python package its docs/installation.md builds) and put vllm-router on PATH")
	case err != nil:
		return fail(fmt.Sprintf("%s --version failed: %v", routerProgram, err), want, "reinstall the vLLM router")
	}
	v := lastLine(string(out))
	if v == "" {
		v = routerProgram + " (no version printed)"
	}
	return pass(v, want)
}

// routerEndpoint is one instance the router sends requests to: its node
// and the API port router.sh names (--prefill/--decode URLs).
type routerEndpoint struct {
	pool string
	node specNode
	port int
}

// routerEndpoints are the API servers of both pools, as the generator
// writes them into router.sh: one per instance, on the instance's first
// node at vllm.port, or vllm.port + its slot when instances are smaller
// than a node (resolve.Site.Slot, which on a node both pools share counts
// on from the other pool's instances).
func (e *env) routerEndpoints() []routerEndpoint {
	if e.colocatedRouter() {
		return e.rankEndpoints()
	}
	if e.r == nil || e.r.PD == nil {
		return nil
	}
	var out []routerEndpoint
	for _, role := range e.r.PD.Roles {
		d := role.Deployment
		if d == nil || d.Spec == nil {
			continue
		}
		pl, err := d.Place()
		if err != nil {
			continue // validate refuses such a spec
		}
		nodes, port := d.Spec.Hardware.Nodes, d.Spec.VLLM.Port
		if pl.SubNode {
			for _, s := range pl.Sites {
				out = append(out, routerEndpoint{role.Name, nodes[s.Node], port + s.Slot})
			}
			continue
		}
		for _, h := range pl.ReplicaStart {
			out = append(out, routerEndpoint{role.Name, nodes[h], port})
		}
	}
	return out
}

// rankEndpoints are the DP ranks' API servers a colocated deployment's
// router names as --worker-urls, read from the generated bundle's plan
// (generator.MakePlan: one node plan per rank, NodePlan.ExtLB, on its
// node at vllm.port + its place there), as bundlePorts reads the ports;
// nil when the generator refuses the spec.
func (e *env) rankEndpoints() []routerEndpoint {
	plan, ds := generator.MakePlan(e.r, e.d.Runtime.Kind)
	if plan == nil || ds.HasErrors() {
		return nil
	}
	var out []routerEndpoint
	for _, n := range plan.Nodes {
		if n.ExtLB && n.Index >= 0 && n.Index < len(e.d.Hardware.Nodes) {
			out = append(out, routerEndpoint{"DP ranks", e.d.Hardware.Nodes[n.Index], n.Port})
		}
	}
	return out
}

// describeEndpoints lists the endpoints by node: "node0 192.168.2.10
// (prefill: 8100, 8101)".
func describeEndpoints(eps []routerEndpoint) string {
	type key struct{ node, addr, pool string }
	ports := map[key][]string{}
	var order []key
	for _, ep := range eps {
		k := key{ep.node.Name, ep.node.Address, ep.pool}
		if _, ok := ports[k]; !ok {
			order = append(order, k)
		}
		ports[k] = append(ports[k], fmt.Sprint(ep.port))
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s %s (%s: %s)", k.node, k.addr, k.pool, strings.Join(ports[k], ", ")))
	}
	return strings.Join(parts, "; ")
}

// checkRouterRoute is net.route on a node that runs only the router: the
// kernel has a route to every pool node whose instances router.sh names.
// It asks for routes only and sends nothing (preflight is read-only, and
// the engines do not listen before the bundle starts): that the ports
// answer is `GET /v1/models` on each, after the pools start (the P/D
// README's step 1). A route through another interface than the declared
// one is a warning: the router speaks plain HTTP, which any route carries.
func checkRouterRoute(ctx context.Context, e *env) Result {
	eps := e.routerEndpoints()
	if len(eps) == 0 {
		if e.colocatedRouter() {
			return skip("the generator refuses this spec (see `vlaunch generate`): there is no router.sh whose worker URLs name the ranks to reach")
		}
		return skip("no instance of either pool could be placed: nothing to reach")
	}
	ifs, err := e.host.Net.Interfaces()
	if err != nil {
		return fail("cannot list interfaces: "+err.Error(), "", "")
	}
	want := "a route to every instance router.sh names: " + describeEndpoints(eps)
	seen := map[string]bool{}
	var none, other, good []string
	for _, ep := range eps {
		if seen[ep.node.Name] {
			continue
		}
		seen[ep.node.Name] = true
		addr, ok := parseIP(ep.node.Address)
		if !ok {
			none = append(none, fmt.Sprintf("%s: %q is not an IP literal (not resolved)", ep.node.Name, ep.node.Address))
			continue
		}
		src, err := e.host.Net.RouteSource(ctx, addr)
		if err != nil {
			none = append(none, fmt.Sprintf("%s (%s): no route: %v", ep.node.Name, addr, err))
			continue
		}
		via, _ := ifaceWithAddr(ifs, src)
		if e.node.Interface != "" && via != e.node.Interface {
			other = append(other, fmt.Sprintf("%s (%s) via %s, not %s", ep.node.Name, addr, orUnknown(via), e.node.Interface))
			continue
		}
		good = append(good, fmt.Sprintf("%s via %s", ep.node.Name, orUnknown(via)))
	}
	sort.Strings(good)
	switch {
	case len(none) > 0:
		return fail(strings.Join(none, "; "), want, "add the route (`ip route get <node address>`): the router cannot send requests to these instances")
	case len(other) > 0:
		return warn(strings.Join(other, "; "), want, "the router's HTTP works over any route; declare the interface the kernel uses, or fix the route if the declared one is meant to carry it")
	}
	return pass(strings.Join(good, ", "), want)
}
