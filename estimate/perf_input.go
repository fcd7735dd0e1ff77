package estimate

// DefaultInterGbitPerGPU and DefaultInterLatencyUs describe the inter-node
// fabric assumed when a multi-node input names none: one 400 Gbit/s
// InfiniBand NIC per GPU, as in NVIDIA's HGX reference designs. The report
// states the assumption.
const (
	DefaultInterGbitPerGPU = 400
	DefaultInterLatencyUs  = 2
)

// SetupFromInput builds the step-time model's setup from a resolved Input,
// with the global calibrated efficiencies.
func SetupFromInput(in *Input) StepSetup {
	l, n := in.Layout, in.Network
	inter, nics, lat := n.InterGbitPerSPerNIC, n.NICsPerNode, n.InterLatencyUs
	if l.Nodes > 1 && inter <= 0 { // the spec (or the quick form) names no fabric
		inter, nics, lat = DefaultInterGbitPerGPU, l.GPUsPerNode, DefaultInterLatencyUs
	}
	hw := NewPerfHardware(in.GPU, l.GPUsPerNode, n.IntraGBytesPerS, n.IntraLatencyUs, inter, nics, lat)
	if l.Nodes <= 1 {
		hw.InterBytesPerSPerNode, hw.InterLatencyS = 0, 0
	}
	s := StepSetup{
		Model: in.Model, HW: hw, TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP,
		WeightDType: in.WeightsDType, KVDType: in.KVCacheDType,
		A2A: a2aMechanism(in), CUDAGraphs: in.CUDAGraphs, DBO: in.EnableDBO, Eff: DefaultEfficiency,
	}
	if in.EnableEPLB {
		s.RedundantExperts = in.NumRedundantExperts
	}
	s.FP8Dispatch = (s.A2A == A2ADeepEPHT || s.A2A == A2ADeepEPLL) && s.WeightDType == "fp8"
	return s
}

// a2aMechanism maps vLLM's all2all backend onto the three traffic patterns
// the model knows. Without the all2all kernels but with DP > 1, vLLM's MoE
// layers still gather the tokens of every DP rank (naive dispatch), which
// costs what all-gather + reduce-scatter costs.
func a2aMechanism(in *Input) string {
	if !in.Model.IsMoE() || in.Layout.DP <= 1 {
		return A2ANone
	}
	switch in.All2AllBackend {
	case "deepep_high_throughput", "deepep_v2", "mori_high_throughput":
		return A2ADeepEPHT
	case "deepep_low_latency", "pplx", "mori", "mori_low_latency", "flashinfer_all2allv",
		"flashinfer_nvlink_one_sided", "flashinfer_nvlink_two_sided", "nixl_ep":
		return A2ADeepEPLL
	}
	return A2AAllGather
}
