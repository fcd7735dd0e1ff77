package lint

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkNCCLTransports reports NCCL transports switched off where the server
// needs them (VL131): NCCL_P2P_DISABLE=1 when GPUs of one node talk to each
// other (TP, PP or local DP ranks with expert parallel), which sends
// tensor-parallel all-reduces and expert all-to-alls around NVLink through
// host shared memory — or, with NCCL_SHM_DISABLE=1 too, through the network
// stack; NCCL_IB_DISABLE=1 in a deployment over several nodes, which puts
// the inter-node collectives on TCP sockets. Both are workarounds for
// broken hardware paths (consumer PCIe boards, some VMs), copied into
// datacentre launch scripts from debugging sessions.
func checkNCCLTransports(p *pass) {
	var p2p, ib exportFindings
	for _, g := range p.Groups {
		// A lone server over a Ray cluster spans the workers' nodes.
		multi := multiNode(g) || (len(g) == 1 && p.onRayCluster(g[0]))
		for _, s := range g {
			if e, ok := envIsOne(s.Inv, "NCCL_P2P_DISABLE"); ok && intraNodeTraffic(s) {
				p2p.add(s, e)
			}
			if e, ok := envIsOne(s.Inv, "NCCL_IB_DISABLE"); ok && multi {
				ib.add(s, e)
			}
		}
	}
	// One finding per export: servers a script starts after one `export`
	// all inherit it (qa44a F13: four servers, four findings at 57:8).
	for _, x := range p2p {
		s, e := x.servers[0], x.env
		via := "host shared memory"
		if _, shm := envIsOne(s.Inv, "NCCL_SHM_DISABLE"); shm {
			via = "the network stack (NCCL_SHM_DISABLE=1 as well)"
		}
		p.ReportAtSeverity(s.Inv, e.Pos, p2pSeverity(p), "drop NCCL_P2P_DISABLE (and NCCL_SHM_DISABLE) unless peer-to-peer is known broken on these hosts (GeForce boards, some VMs); check with `nvidia-smi topo -m` and NCCL's all_reduce_perf",
			"NCCL_P2P_DISABLE=1 turns off NVLink/PCIe peer-to-peer for %s: its GPUs exchange %s through %s, several times slower on NVLink servers%s", s.Inv.Node, traffic(s), via, x.others())
	}
	for _, x := range ib {
		s, e := x.servers[0], x.env
		p.ReportAtSeverity(s.Inv, e.Pos, ibSeverity(p, s), "drop NCCL_IB_DISABLE on hosts with InfiniBand or RoCE NICs; set NCCL_IB_HCA to choose them instead",
			"NCCL_IB_DISABLE=1 on a deployment over several nodes: NCCL's collectives between nodes run over TCP sockets instead of RDMA%s", x.others())
	}
}

// exportFinding is one environment assignment and the servers that see it.
type exportFinding struct {
	env     launch.EnvVar
	file    string
	servers []*server
}

// exportFindings keeps one exportFinding per assignment, in order.
type exportFindings []*exportFinding

// add records that the server sees the assignment e.
func (xs *exportFindings) add(s *server, e launch.EnvVar) {
	file := e.Pos.File
	if file == "" {
		file = s.Inv.File
	}
	for _, x := range *xs {
		if x.file == file && x.env.Pos.Line == e.Pos.Line && x.env.Pos.Col == e.Pos.Col {
			x.servers = append(x.servers, s)
			return
		}
	}
	*xs = append(*xs, &exportFinding{env: e, file: file, servers: []*server{s}})
}

// others names the other servers that inherit the assignment, "" for none.
func (x *exportFinding) others() string {
	if len(x.servers) < 2 {
		return ""
	}
	var names []string
	for _, s := range x.servers[1:] {
		names = append(names, s.Inv.Node)
	}
	return " (the same export also reaches " + strings.Join(names, ", ") + ")"
}

// p2pSeverity is a warning when the spec (lint --spec) says the GPUs of a
// node share NVLink, which the variable then leaves unused; without it an
// info: on GPUs without working peer-to-peer (GeForce boards, some VMs) the
// variable is the standard fix, and a script does not say which GPUs run it.
func p2pSeverity(p *pass) diag.Severity {
	if p.Spec != nil && strings.EqualFold(p.Spec.Hardware.Network.IntraNode.Kind, "nvlink") {
		return diag.Warning
	}
	return diag.Info
}

// ibSeverity is a warning when RDMA NICs are known to be there — the spec
// says infiniband or roce, or the server itself names RDMA devices
// (NCCL_IB_HCA, NCCL_IB_GID_INDEX) or runs DeepEP, which needs them — and
// an info otherwise: on an Ethernet cluster without RDMA, sockets are all
// NCCL has anyway.
func ibSeverity(p *pass, s *server) diag.Severity {
	if p.Spec != nil {
		switch strings.ToLower(p.Spec.Hardware.Network.InterNode.Kind) {
		case "infiniband", "roce":
			return diag.Warning
		}
	}
	_, hca := s.Inv.LookupEnv("NCCL_IB_HCA")
	_, gid := s.Inv.LookupEnv("NCCL_IB_GID_INDEX")
	name, _, _ := s.Backend()
	if b, ok := vllm.KnownBackendEver(name); hca || gid || (ok && b.DeepEP) {
		return diag.Warning
	}
	return diag.Info
}

// envIsOne finds a variable set to 1 in the invocation's environment.
func envIsOne(inv *launch.Invocation, name string) (launch.EnvVar, bool) {
	e, ok := inv.LookupEnv(name)
	return e, ok && e.Value.Known && e.Value.Text == "1"
}

// intraNodeTraffic reports a server whose GPUs on one node exchange
// activations through NCCL: tensor or pipeline parallel, or several local
// DP ranks joined by expert parallel. Unknown sizes count as none.
func intraNodeTraffic(s *server) bool {
	return s.TP().N > 1 || s.PP().N > 1 || ncclExperts(s)
}

// ncclExperts reports expert all-to-alls through NCCL between local DP
// ranks: the gather backends' (vllm.TrafficGather); the point-to-point ones
// (DeepEP, pplx) move tokens with NVSHMEM instead.
func ncclExperts(s *server) bool {
	if !s.EP() || s.DPL().N <= 1 {
		return false
	}
	name, _, _ := s.Backend()
	return vllm.TrafficOf(name) == vllm.TrafficGather
}

// traffic names what the server's GPUs exchange inside the node.
func traffic(s *server) string {
	switch {
	case s.TP().N > 1:
		return fmt.Sprintf("the tensor-parallel all-reduces (TP=%d)", s.TP().N)
	case ncclExperts(s):
		return "the expert all-to-alls"
	}
	return "the pipeline activations"
}
