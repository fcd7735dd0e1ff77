package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkDisaggregation checks a spec with a disaggregation block: no
// top-level parallelism, the pools' and router's nodes, the connector, then
// each pool as a colocated deployment of its own (checkPools: the engine
// rules on its RoleView, reported at the pool's fields), the pairing of
// the two pools and the hosts' ports; it assembles the P/D deployment.
func checkDisaggregation(c *checker) {
	if c.d.Disaggregation == nil {
		return
	}
	checkPDParallelism(c)
	nodesOK := checkPDNodes(c)
	checkPDConnector(c)
	checkPDHybridKV(c)
	checkPDState(c)
	if !nodesOK {
		return
	}
	checkPools(c)
	if len(c.roles) != len(spec.Roles) {
		return
	}
	checkPDPairing(c)
	checkLLMDRouter(c)
	assemblePD(c)
}

// checkPDParallelism: each pool has its own layout; a top-level one is
// refused (SPEC125).
func checkPDParallelism(c *checker) {
	if _, ok := spec.NodeAt(c.d.Root, p("parallelism"), false); ok {
		c.errorf(CodePDLayout, p("parallelism"), "move the degrees into disaggregation.prefill.parallelism and disaggregation.decode.parallelism",
			"a disaggregated deployment has no top-level parallelism: each pool has its own")
	}
}

// checkPDNodes: pool and router nodes name hardware.nodes, each node at
// most once in a pool (a node may be in both pools: the pools then split
// its GPUs, resolve.NodeShare, which assemblePD checks); a node in neither
// pool is a warning (SPEC126). False when a pool's nodes cannot be trusted.
func checkPDNodes(c *checker) bool {
	g := c.d.Disaggregation
	known := map[string]bool{}
	var names []string
	for _, n := range c.d.Hardware.Nodes {
		known[n.Name] = true
		names = append(names, n.Name)
	}
	ok := true
	owner := map[string]string{}
	for _, role := range spec.Roles {
		seen := map[string]bool{}
		for i, name := range g.Pool(role).Nodes {
			path := p("disaggregation", role, "nodes", i)
			switch {
			case !known[name]:
				c.errorf(CodePDNodes, path, suggest(name, names), "%s node %q is not in hardware.nodes", role, name)
				ok = false
			case seen[name]:
				c.errorf(CodePDNodes, path, "name each node once in a pool: instances smaller than a node share it by themselves (disaggregation."+role+".instances)",
					"node %q is already a %s node", name, role)
				ok = false
			}
			seen[name] = true
			owner[name] = role
		}
	}
	if r := g.Router.Node; r != "" && !known[r] {
		c.errorf(CodePDNodes, p("disaggregation", "router", "node"), suggest(r, names), "router node %q is not in hardware.nodes", r)
	}
	for i, n := range c.d.Hardware.Nodes {
		if n.Name != "" && owner[n.Name] == "" && n.Name == g.Router.Node {
			// router.sh runs there, so the node is not idle; its GPUs are,
			// unless it has none (gpus: 0, a CPU-only host: QA left 39 #1).
			if n.GPUs > 0 {
				c.warnf(CodePDNodes, p("hardware", "nodes", i, "name"), "the router needs no GPU: add the node to a pool, run the router on a pool's node, or give a CPU-only host gpus: 0",
					"node %q is in neither pool: it runs only the P/D router (disaggregation.router.node), its GPUs idle", n.Name)
			}
			continue
		}
		if n.Name != "" && owner[n.Name] == "" {
			c.warnf(CodePDNodes, p("hardware", "nodes", i, "name"), "add it to disaggregation.prefill.nodes or disaggregation.decode.nodes, or remove it",
				"node %q is in neither pool: it runs nothing", n.Name)
		}
	}
	return ok && c.ok(p("disaggregation"), p("hardware", "nodes"))
}

// checkPDConnector: a connector the release registers, for P/D, and one
// vlaunch writes bundles for in that release (vllm.PDBundleOf: the table
// the generator writes from), with a router and runtime the bundle pairs
// with (SPEC127).
func checkPDConnector(c *checker) {
	path := p("disaggregation", "connector")
	name := c.d.Disaggregation.Connector
	if !c.ok(path) || name == "" {
		return
	}
	written := "vlaunch writes " + strings.Join(vllm.PDBundleConnectors(), ", ")
	conn, ok := vllm.KVConnectorNamed(name)
	switch {
	case !ok:
		c.errorf(CodePDConnector, path, written+" (connector: nixl)", "unknown KV connector %q: vLLM registers no such name", name)
		return
	case conn.Offload:
		c.errorf(CodePDConnector, path, "use connector: nixl", "%s offloads one engine's KV cache (to host memory or storage): it makes no prefill/decode deployment", conn.Name)
		return
	}
	if _, ok, why := vllm.PDBundleOf(conn.Name, vllm.Version{}); !ok {
		c.errorf(CodePDConnector, path, written, "vlaunch writes no prefill/decode bundle for %s: %s", conn.Name, why)
		return
	}
	if !c.relOK {
		return
	}
	v := c.rel.Version
	switch conn.In(v) {
	case vllm.Absent:
		c.errorf(CodePDConnector, path, "use a vLLM release that registers it", "vLLM %s does not register %s (%s)", c.rel, conn.Name, conn.Citation())
		return
	case vllm.Maybe:
		c.add(diag.Info, CodePDConnector, path, "", "whether vLLM %s registers %s is inferred from a merge date, not confirmed (%s)", c.rel, conn.Name, conn.Citation())
	default:
		if conn.V0In(v) {
			c.errorf(CodePDConnector, path, "use a V1 connector such as NixlConnector", "%s is a V0-engine connector in vLLM %s", conn.Name, c.rel)
			return
		}
	}
	b, ok, why := vllm.PDBundleOf(conn.Name, v)
	if !ok {
		c.errorf(CodePDConnector, path, "use vLLM "+b.Since.String()+" or later, or connector: nixl", "vLLM %s: %s", c.rel, why)
		return
	}
	checkPDConnectorPairing(c, b)
}

// checkPDConnectorPairing: the router and runtime a connector's bundle
// pairs with. llm-d's sidecar speaks NIXL's protocol only; vllm-router's
// Mooncake mode queries each prefill URL's own bootstrap server (a Service
// in front of several instances would answer for any of them), and pins
// no prefill DP rank without --intra-node-data-parallel-size, which applies
// to every URL (vllm-project/router@03e9af5c:src/main.rs).
func checkPDConnectorPairing(c *checker, b vllm.PDBundle) {
	path := p("disaggregation", "connector")
	g := c.d.Disaggregation
	if g.Router.Kind == spec.RouterKindLLMD && !b.LLMD {
		why := fmt.Sprintf("llm-d's routing sidecar speaks NIXL's protocol (--kv-connector=nixlv2), not %s's", b.Connector)
		if b.NIXLSideChannel {
			why = fmt.Sprintf("vlaunch has not read whether llm-d's routing sidecar (NIXL's protocol, --kv-connector=nixlv2) hands %s's kv_transfer_params (transfer_mode push) to the decode leg unchanged", b.Connector)
		}
		c.errorf(CodePDConnector, path, "use disaggregation.router.kind: vllm-router, or connector: nixl", "%s", why)
	}
	if b.BootstrapPortEnv == "" {
		return
	}
	if c.d.Runtime.Kind == "kubernetes" {
		c.errorf(CodePDConnector, path, "use runtime.kind bare or docker, or connector: nixl",
			"vlaunch writes %s bundles for bare metal and Docker only: vllm-router queries each prefill URL's bootstrap server (%s) for its engine ids, and a pool's Service answers for any of its instances", b.Connector, b.BootstrapPortEnv)
	}
	if dp := g.Prefill.Parallelism.Data; dp > 1 {
		c.errorf(CodePDConnector, p("disaggregation", "prefill", "parallelism", "data"), "use data: 1 with more prefill instances, or connector: nixl",
			"a prefill instance of %d DP ranks with %s: vllm-router sends the decode leg the engine id of DP rank 0 unless --intra-node-data-parallel-size pins the rank, and that flag applies to the decode URLs too; vlaunch writes %s bundles for prefill DP 1", dp, b.Connector, b.Connector)
	}
}

// checkPools runs the engine rules on each pool's RoleView with a checker
// of its own whose findings point at the pool's fields (poolPaths) and
// name the pool; a finding the spec's own rules or the other pool already
// made (a shared vllm setting) is kept once.
func checkPools(c *checker) {
	shared := map[string]bool{}
	for _, n := range resolve.SharedNodes(c.d) {
		shared[n] = true
	}
	for _, role := range spec.Roles {
		view := c.d.RoleView(role)
		rc := &checker{d: view, tainted: c.tainted, schemaErrors: c.schemaErrors, model: c.model, gpu: c.gpu,
			rel: c.rel, ver: c.ver, notes: c.notes, relOK: c.relOK, cal: c.cal, mapPath: poolPaths(c.d, role), roleName: role}
		for _, n := range c.d.Disaggregation.Pool(role).Nodes {
			rc.sharesNode = rc.sharesNode || shared[n]
		}
		for _, r := range poolRules {
			r(rc)
		}
		for _, d := range rc.ds {
			c.addPoolFinding(d)
		}
		if rc.dep != nil {
			c.roles = append(c.roles, rc.dep)
		}
	}
}

// bothPools prefixes a finding both pools make of a field they share:
// keeping the first pool's prefix said "prefill pool: …" of what is just as
// true of the decode pool (newuser40 finding 11).
const bothPools = "both pools: "

// addPoolFinding adds a pool checker's finding, once: when the other pool
// already made it (same code, path and message, the pool's prefix aside),
// the finding made is re-prefixed "both pools: " instead of added again.
func (c *checker) addPoolFinding(d diag.Diagnostic) {
	i := c.find(d)
	if i < 0 {
		c.ds = append(c.ds, d)
		return
	}
	e := &c.ds[i]
	if e.Message != d.Message && unprefixed(e.Message) != e.Message {
		e.Message = bothPools + unprefixed(e.Message)
	}
}

// find is the index of a finding already made (same code, path and
// message, a pool's prefix aside), or -1.
func (c *checker) find(d diag.Diagnostic) int {
	for i, e := range c.ds {
		if e.Code == d.Code && e.Path == d.Path && unprefixed(e.Message) == unprefixed(d.Message) {
			return i
		}
	}
	return -1
}

func unprefixed(msg string) string {
	msg = strings.TrimPrefix(msg, bothPools)
	for _, role := range spec.Roles {
		msg = strings.TrimPrefix(msg, role+" pool: ")
	}
	return msg
}

// blockingErrors reports an error that keeps the deployment from being
// assembled: any but the pools' bundle refusals (GEN codes, checkBundle),
// which are about the bundle of an assembled pool, so the split's own
// errors (SPEC126) still come beside them.
func (c *checker) blockingErrors() bool {
	for _, d := range c.ds {
		if d.Severity == diag.Error && !strings.HasPrefix(string(d.Code), "GEN") {
			return true
		}
	}
	return false
}

// assemblePD puts the pools together (resolve.AssembleDisaggregated) and
// checks the hosts' ports (SPEC129); the deployment is kept only when
// nothing is an error.
func assemblePD(c *checker) {
	if c.schemaErrors || c.blockingErrors() || c.model == nil || c.gpu == nil || !c.relOK {
		return
	}
	dep, err := resolve.AssembleDisaggregated(c.d, c.roles)
	var fe *resolve.FieldError
	switch {
	case errors.As(err, &fe) && strings.HasPrefix(fe.Path, "disaggregation."):
		// A node both pools name that they cannot split (resolve.NodeShare).
		code := CodePDNodes
		if fe.Unsupported {
			code = CodeLayout
		}
		c.errorf(code, fieldPath(fe.Path), fe.Hint, "%s", fe.Msg)
		return
	case err != nil:
		c.errorf(CodeValue, p("disaggregation"), "", "%v", err)
		return
	}
	for _, q := range dep.PD.PortProblems(c.d.Runtime.Kind) {
		path, hint := p("vllm", "port"), "move vllm.port or vllm.rpc_port off the other use"
		if strings.Contains(q.What+q.Other, "router") {
			path, hint = routerClashPath(c)
		}
		if both := q.What + q.Other; strings.Contains(both, "Prometheus metrics") {
			// vllm-router's --prometheus-port (vllm.RouterMetricsPort), which
			// router.sh writes: the other use moves.
			hint = fmt.Sprintf("vllm-router binds %d for its Prometheus metrics (--prometheus-port, as router.sh writes it): move the other use off %d", vllm.RouterMetricsPort, vllm.RouterMetricsPort)
			if !strings.Contains(both, "the router's port") {
				path = p("vllm", "port")
			}
		}
		switch both := q.What + q.Other; {
		case strings.Count(both, "bootstrap server") == 2: // instances sharing a node, one port for all in vllm.env
			path, hint = poolEnvPath(c, spec.RolePrefill, vllm.MooncakeBootstrapPortEnv), "leave "+vllm.MooncakeBootstrapPortEnv+" unset: vlaunch gives each prefill instance on a node its own"
		case strings.Contains(both, "bootstrap server") && !strings.Contains(both, "router"):
			hint = "move vllm.port or vllm.rpc_port off the prefill instances' Mooncake bootstrap ports (" + vllm.MooncakeBootstrapPortEnv + ": its default plus the instance's slot on its node)"
		}
		if strings.Contains(q.What+q.Other, "decode_port") {
			path, hint = p("disaggregation", "router", "decode_port"), "give the decode engines a port of their own behind llm-d's sidecar (the default is 8200)"
		}
		if q.SideChannelOf != "" { // instances sharing a node, one base for all in vllm.env
			path, hint = sideChannelPath(c, q.SideChannelOf), "leave "+vllm.NixlSideChannelPortEnv+" unset: vlaunch gives each instance on a node its own base"
		}
		if q.Pod {
			c.errorf(CodePDPorts, path, hint, "port %d in each pod on node %q (on Kubernetes an instance smaller than a node is a pod of its own) is both %s and %s", q.Port, q.Node, q.Other, q.What)
			continue
		}
		c.errorf(CodePDPorts, path, hint, "port %d on node %q is both %s and %s", q.Port, q.Node, q.Other, q.What)
	}
	warnSharedIdle(c, dep)
	if !c.ds.HasErrors() {
		c.dep = dep
	}
}

// routerClashPath is where a clash of the router's port with an engine's
// is reported, and its hint: at the key the user wrote (router.port, else
// vllm.port), at the router's when neither is written (defaults that
// clash would be vlaunch's to fix: spec.DefaultPDEnginePort).
func routerClashPath(c *checker) ([]string, string) {
	if rp := p("disaggregation", "router", "port"); !c.written(rp) && c.written(p("vllm", "port")) {
		return p("vllm", "port"), fmt.Sprintf("remove vllm.port (the engines of a P/D spec default to %d) or give them a port the router (%d) does not use",
			spec.DefaultPDEnginePort, c.d.Disaggregation.Router.Port)
	}
	return p("disaggregation", "router", "port"), fmt.Sprintf("give the router a port no engine on its node uses (the engines' vllm.port is %d)", c.d.VLLM.Port)
}

// warnSharedIdle warns about GPUs of a node both pools name that neither
// pool's instances take (SPEC126): the layout rule (SPEC102) does not hold
// a pool sharing a node to all of its GPUs.
func warnSharedIdle(c *checker, dep *resolve.Deployment) {
	used := map[string]int{}
	for _, r := range dep.PD.Roles {
		for i, sh := range r.Deployment.Shares {
			if sh.Shared {
				used[r.Deployment.Nodes[i].Name] += sh.GPUs
			}
		}
	}
	for i, n := range c.d.Hardware.Nodes {
		if u, ok := used[n.Name]; ok && u < n.GPUs {
			c.warnf(CodePDNodes, p("hardware", "nodes", i, "gpus"), "give a pool more instances or a larger layout, or list fewer GPUs",
				"node %q is in both pools, whose instances take %d of its %d GPUs: %d stay idle", n.Name, u, n.GPUs, n.GPUs-u)
		}
	}
}

// sideChannelPath is where the pool's VLLM_NIXL_SIDE_CHANNEL_PORT is
// written: its own vllm.env, else the top-level one.
func sideChannelPath(c *checker, role string) []string {
	return poolEnvPath(c, role, vllm.NixlSideChannelPortEnv)
}

// poolEnvPath is where the pool's variable name is written: its own
// vllm.env, else the top-level one.
func poolEnvPath(c *checker, role, name string) []string {
	own := p("disaggregation", role, "vllm", "env", name)
	if _, ok := spec.NodeAt(c.d.Root, own, false); ok {
		return own
	}
	return p("vllm", "env", name)
}

// poolPaths maps a path of role's RoleView to where the field is written:
// the pool's parallelism and instances, its own vllm overrides (extra_args
// after the top-level ones), and its nodes' indexes in hardware.nodes.
func poolPaths(d *spec.Deployment, role string) func([]string) []string {
	idx := d.PoolNodeIndexes(role)
	topArgs := len(d.VLLM.ExtraArgs)
	base := p("disaggregation", role)
	join := func(rest ...string) []string { return append(append([]string{}, base...), rest...) }
	written := func(rest ...string) bool {
		_, ok := spec.NodeAt(d.Root, join(rest...), false)
		return ok
	}
	return func(path []string) []string {
		if len(path) == 0 {
			return path
		}
		switch path[0] {
		case "parallelism":
			if len(path) > 1 && path[1] == "replicas" {
				return join("instances")
			}
			return join(path...)
		case "hardware":
			if len(path) >= 3 && path[1] == "nodes" {
				if i, ok := atoi(path[2]); ok && i < len(idx) {
					out := append([]string{}, path...)
					out[2] = itoa(idx[i])
					return out
				}
			}
		case "vllm":
			return poolVLLMPath(path, topArgs, join, written)
		}
		return path
	}
}

// poolVLLMPath maps vllm.KEY... to the pool's override when the pool
// writes it.
func poolVLLMPath(path []string, topArgs int, join func(...string) []string, written func(...string) bool) []string {
	if len(path) < 2 {
		return path
	}
	switch path[1] {
	case "extra_args":
		if len(path) >= 3 {
			if i, ok := atoi(path[2]); ok && i >= topArgs {
				return join(append([]string{"vllm", "extra_args", itoa(i - topArgs)}, path[3:]...)...)
			}
		}
		return path
	case "env":
		if len(path) >= 3 && written("vllm", "env", path[2]) {
			return join(path...)
		}
		return path
	}
	if written("vllm", path[1]) {
		return join(path...)
	}
	return path
}
