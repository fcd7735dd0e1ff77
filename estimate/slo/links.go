package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// linkNote names the links a multi-node NVLink domain puts the engine's
// communication on, so a report says which link its network terms used:
// NVLink between the trays of one domain, the NICs for what leaves it (and
// for DeepEP's normal kernels, which do not cross trays over NVLink). ""
// without a multi-node NVLink domain.
func linkNote(in *input.Input, s *perf.StepSetup) string {
	if !s.HW.MNNVL() {
		return ""
	}
	host := in.Layout.GPUsPerNode
	txt := fmt.Sprintf("links: the nodes share a multi-node NVLink domain of %d GPUs (%d nodes of %d here): "+
		"TP all-reduces (NCCL; vLLM's custom all-reduce stays inside a node), PP hand-offs and the MoE all-to-all between nodes of the domain run over NVLink at %.0f GB/s per GPU and direction, %.1f µs; "+
		"only traffic leaving the domain takes the NICs (%.0f Gbit/s per node)",
		in.Network.NVLinkDomainGPUs, s.HW.GPUsPerNode/max(1, host), host, s.HW.IntraBytesPerS/1e9, s.HW.IntraLatencyS*1e6,
		s.HW.InterBytesPerSPerNode*8/1e9*float64(host)/float64(s.HW.GPUsPerNode))
	if s.A2AHostNodes && s.A2A != vllm.TrafficNone {
		_, why := vllm.A2AOverMNNVL(in.All2AllBackend)
		txt += fmt.Sprintf("; the all-to-all of %s still crosses nodes over the NICs (%s)", in.All2AllBackend, why)
	}
	return txt
}

// linkName is the link a multi-node engine's collectives take between
// nodes, for the network note: the NVLink domain or the NICs.
func linkName(in *input.Input) string {
	if s := perf.SetupFromInput(in); s.HW.MNNVL() && !s.A2AHostNodes {
		return "multi-node NVLink"
	}
	return "inter-node NICs"
}
