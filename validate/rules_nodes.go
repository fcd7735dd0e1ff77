package validate

import (
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/spec"
)

// maxGPUsPerNode is what common GPU servers carry: HGX/DGX baseboards and
// AMD's OAM platforms hold 8. More in one node usually means a typo (e.g.
// the cluster total written as the node's count); it is only a warning.
const maxGPUsPerNode = 8

// checkNodes: unique names and addresses, valid addresses, interface and
// RDMA device names, file-safe node names, plausible GPU counts.
func checkNodes(c *checker) {
	names, addrs := map[string]int{}, map[string]int{}
	for i, n := range c.d.Hardware.Nodes {
		if j, dup := names[n.Name]; dup && n.Name != "" {
			c.errorf(CodeDuplicate, p("hardware", "nodes", i, "name"), "give every node its own name",
				"node name %q is also used by hardware.nodes[%d]", n.Name, j)
		}
		names[n.Name] = i
		key := strings.ToLower(n.Address)
		if j, dup := addrs[key]; dup && n.Address != "" {
			c.errorf(CodeDuplicate, p("hardware", "nodes", i, "address"), "each node needs its own address",
				"address %q is also used by hardware.nodes[%d]", n.Address, j)
		}
		addrs[key] = i
		checkNode(c, i)
	}
}

func checkNode(c *checker, i int) {
	n := c.d.Hardware.Nodes[i]
	if n.Name != "" && !fileSafe(n.Name) {
		c.errorf(CodeUnsafeName, p("hardware", "nodes", i, "name"), "use letters, digits, '.', '_' and '-' (node names become file names)",
			"node name %q is not safe as a file name", n.Name)
	}
	if n.Address != "" && !hostOK(n.Address) {
		c.errorf(CodeAddress, p("hardware", "nodes", i, "address"), "give an IPv4/IPv6 address or an RFC 1123 host name",
			"address %q is neither an IP address nor a host name", n.Address)
	}
	if n.Interface != "" && !ifnameOK(n.Interface) {
		c.errorf(CodeInterface, p("hardware", "nodes", i, "interface"), "as `ip link` shows it, e.g. eth0 or ens10f0 (at most 15 characters)",
			"interface %q is not a valid Linux interface name", n.Interface)
	}
	for j, dev := range n.RDMADevices {
		if !rdmaRE.MatchString(dev) {
			c.errorf(CodeInterface, p("hardware", "nodes", i, "rdma_devices", j), "as `ibv_devices` shows it, e.g. mlx5_0 (optionally mlx5_0:1)",
				"RDMA device %q is not a valid device name", dev)
		}
	}
	if n.GPUs == 0 && !c.d.RouterOnlyNode(n.Name) {
		// The schema allows 0 for a CPU-only host of a router alone (the
		// P/D router's, QA left 39 #1, or a colocated deployment's
		// router.node); anything else on the node needs GPUs.
		hint := "give the node's GPU count; only a node that runs nothing but a router (disaggregation.router.node in neither pool, or a colocated deployment's router.node) may have none"
		what := "it runs vLLM's engines (a colocated deployment runs on every node)"
		if g := c.d.Disaggregation; g != nil {
			what = "it is in neither pool and is not disaggregation.router.node (" + g.Router.Node + "): it runs nothing"
			for _, role := range spec.Roles {
				if slices.Contains(g.Pool(role).Nodes, n.Name) {
					what = "it runs the " + role + " pool's engines"
				}
			}
			if g.Router.Node == n.Name && !g.Router.LLMD() {
				hint = "the node also runs a pool's engines: give its GPU count, or take it out of the pools and keep it for the router alone"
			}
		}
		c.errorf(CodeValue, p("hardware", "nodes", i, "gpus"), hint,
			"node %q has 0 GPUs, but %s", n.Name, what)
		// As the schema's minimum did, the bad count keeps the rules that
		// read GPU counts (the layout's, SPEC102) from reporting its echoes.
		c.tainted = append(c.tainted, spec.PathString(c.docPath(p("hardware", "nodes", i, "gpus"))))
	}
	if n.GPUs > maxGPUsPerNode {
		c.warnf(CodeNodeSize, p("hardware", "nodes", i, "gpus"), "`gpus` counts the GPUs of this node, not of the cluster",
			"node %q has %d GPUs; common GPU servers carry at most %d", n.Name, n.GPUs, maxGPUsPerNode)
	}
}

// checkNodeNetwork: with several nodes, every node needs the interface for
// socket traffic, and no node may be addressed as loopback.
func checkNodeNetwork(c *checker) {
	nodes := c.d.Hardware.Nodes
	if len(nodes) < 2 {
		return
	}
	for i, n := range nodes {
		if n.Interface == "" {
			c.warnf(CodeNoInterface, p("hardware", "nodes", i), "add `interface: <name>` (the NIC that reaches the other nodes)",
				"node %q has no `interface`: without GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME, multi-node startup can pick the wrong NIC and hang", n.Name)
		}
		if isLoopback(n.Address) {
			what := "node"
			if i == 0 {
				what = "primary node (the data-parallel address every node connects to)"
			}
			c.errorf(CodeLoopback, p("hardware", "nodes", i, "address"), "use an address the other nodes can reach",
				"%s %q has the loopback address %q in a %d-node deployment", what, n.Name, n.Address, len(nodes))
		}
	}
}
