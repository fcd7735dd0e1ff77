package validate

import (
	"strconv"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkNVLinkDomain holds hardware.network.nvlink_domain to what the GPU
// ships in: a multi-node NVLink domain exists only on parts built into one
// (GB200/GB300 NVL72), is at most that large (NVLink ends at the rack;
// racks talk over their NICs), and takes whole nodes — a node's GPUs share
// one NVLink switch fabric, so a domain boundary inside a node describes
// hardware that does not exist.
func checkNVLinkDomain(c *checker) {
	n := c.d.Hardware.Network
	if n.NVLinkDomain == nil && c.gpu != nil {
		checkDomainUnset(c)
		return
	}
	if n.NVLinkDomain == nil || c.gpu == nil {
		return
	}
	at := p("hardware", "network", "nvlink_domain")
	if c.gpu.NVLinkDomainGPUs == 0 {
		c.errorf(CodeNVLinkDomain, at, "remove nvlink_domain (the nodes then talk over inter_node's NICs), or use a GPU built into an NVL72 rack (hardware.gpu: gb200 or gb300)",
			"GPU %q has no multi-node NVLink domain: its NVLink ends at the node", c.gpu.ID)
		return
	}
	size := resolve.NVLinkDomainGPUs(n, c.gpu)
	if size > c.gpu.NVLinkDomainGPUs {
		c.errorf(CodeNVLinkDomain, append(at, "gpus"), "one rack is one domain: give gpus: "+strconv.Itoa(c.gpu.NVLinkDomainGPUs)+"; traffic between racks crosses the inter-node NICs (describe them under inter_node)",
			"an NVLink domain of %d GPUs: a %s rack joins at most %d GPUs over NVLink", size, c.gpu.ID, c.gpu.NVLinkDomainGPUs)
		return
	}
	start := 0
	for _, node := range c.d.Hardware.Nodes {
		end := start + node.GPUs
		if node.GPUs > 0 && start/size != (end-1)/size {
			c.errorf(CodeNVLinkDomain, append(at, "gpus"), "give a whole number of nodes' GPUs (an NVL72 rack: 72 = 18 trays of 4)",
				"node %q (GPUs %d-%d in hardware.nodes' order) would straddle two NVLink domains of %d GPUs", node.Name, start, end-1, size)
			return
		}
		start = end
	}
	checkReplicaDomains(c, size)
	checkDomainRelease(c)
}

// checkDomainUnset notes several nodes of a GPU built into an NVL72 rack
// with no nvlink_domain: check then costs their traffic over inter_node's
// NICs, which is right for trays of different racks and an order of
// magnitude too slow for trays of one (qa41b: Kimi-K2.5 on two GB200
// trays, TPOT 44.3 ms without the domain, 37.5 ms with it). An info: the
// spec may be right.
func checkDomainUnset(c *checker) {
	if c.gpu.NVLinkDomainGPUs == 0 || len(c.d.Hardware.Nodes) < 2 {
		return
	}
	c.add(diag.Info, CodeNVLinkDomainUnset, p("hardware", "network"),
		"if the nodes are trays of one NVL72 rack, add `nvlink_domain: {}` under hardware.network; otherwise nothing to do",
		"%d %s nodes and no nvlink_domain: check costs the traffic between them over inter_node's NICs, not the rack's NVLink", len(c.d.Hardware.Nodes), c.gpu.ID)
}

// checkDomainRelease warns when the release sets NCCL_CUMEM_ENABLE=0
// itself, which turns NCCL's multi-node NVLink off whatever the bundle
// exports (vllm.Release.CuMemForcedOff): check then costs NCCL's traffic
// between nodes over the NICs (certain) or over NVLink (possible).
func checkDomainRelease(c *checker) {
	if !c.relOK || len(c.d.Hardware.Nodes) < 2 {
		return
	}
	forced, src := c.rel.CuMemForcedOff()
	at := p("vllm", "version")
	switch forced {
	case vllm.Present:
		c.warnf(CodeNVLinkCuMem, at, "use vLLM 0.9.0 or later (it keeps NCCL's cuMem buffers where IMEX channels exist)",
			"vLLM %s sets NCCL_CUMEM_ENABLE=0 itself, which turns NCCL's multi-node NVLink off: collectives between the trays of the NVLink domain go over the NICs, and check costs them there (%s)", c.rel.Version, src)
	case vllm.Maybe:
		c.warnf(CodeNVLinkCuMem, at, "use vLLM 0.9.0 or later, or check NCCL's log for MNNVL (NCCL_DEBUG=INFO)",
			"vLLM %s may set NCCL_CUMEM_ENABLE=0 itself, which would turn NCCL's multi-node NVLink off; check assumes it does not (%s)", c.rel.Version, src)
	}
}

// checkReplicaDomains warns when a replica spanning nodes has them in two
// NVLink domains: its traffic between the two parts crosses the NICs, but
// check costs a replica no larger than a domain as if it sat inside one
// (the step model sees one replica, with the domain's links). Replicas take
// whole nodes in hardware.nodes' order (resolve.Place), so replica i holds
// GPUs [i·R, (i+1)·R) of that order.
func checkReplicaDomains(c *checker, size int) {
	par := c.d.Parallelism
	if par.Auto || c.d.Disaggregation != nil || len(c.d.Hardware.Nodes) == 0 {
		return
	}
	r := max(1, par.Tensor) * max(1, par.Pipeline) * max(1, par.Data)
	if r <= c.d.Hardware.Nodes[0].GPUs || r >= size {
		return // inside a node, or at least a domain: the model's view holds
	}
	for i := 0; i < par.ReplicaCount(); i++ {
		if first, last := i*r, (i+1)*r-1; first/size != last/size {
			c.warnf(CodeNVLinkSplit, p("parallelism"), "make the replica's GPUs divide the domain's "+strconv.Itoa(size)+" (e.g. replicas of "+strconv.Itoa(largestDivisor(size, r))+" GPUs), or list the nodes so each replica's sit in one rack",
				"replica %d (GPUs %d-%d in hardware.nodes' order) straddles two NVLink domains of %d GPUs: between them its traffic crosses the NICs, which check does not model (it costs the replica as if inside one domain)", i, first, last, size)
			return
		}
	}
}

// largestDivisor is the largest divisor of n no larger than at.
func largestDivisor(n, at int) int {
	for d := min(n, at); d > 1; d-- {
		if n%d == 0 {
			return d
		}
	}
	return 1
}
