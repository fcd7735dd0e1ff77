package perf

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// DefaultInterGbitPerGPU and DefaultInterLatencyUs describe the inter-node
// fabric assumed when a multi-node input names none: one 400 Gbit/s
// InfiniBand NIC per GPU, as in NVIDIA's HGX reference designs. The report
// states the assumption.
const (
	DefaultInterGbitPerGPU = 400
	DefaultInterLatencyUs  = 2
)

// SetupFromInput builds the step-time model's setup from a resolved Input,
// with the efficiencies in effect for it (EfficiencyFor).
func SetupFromInput(in *input.Input) StepSetup {
	l, n := in.Layout, in.Network
	inter, nics, lat := n.InterGbitPerSPerNIC, n.NICsPerNode, n.InterLatencyUs
	if l.Nodes > 1 && inter <= 0 { // the spec (or the quick form) names no fabric
		inter, nics, lat = DefaultInterGbitPerGPU, l.GPUsPerNode, DefaultInterLatencyUs
	}
	hw := NewHardware(in.GPU, l.GPUsPerNode, n.IntraGBytesPerS, n.IntraLatencyUs, inter, nics, lat)
	if l.Nodes <= 1 {
		hw.InterBytesPerSPerNode, hw.InterLatencyS = 0, 0
	}
	s := StepSetup{
		Model: in.Model, HW: hw, TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, Replicas: l.ReplicaCount(),
		WeightDType: in.WeightsDType, KVDType: in.KVCacheDType,
		A2A: Mechanism(in), CUDAGraphs: in.CUDAGraphs, EnforceEager: in.EnforceEager, DBO: in.DBO(), Eff: EfficiencyFor(in),
	}
	if in.EnableEPLB {
		s.RedundantExperts = in.NumRedundantExperts
	}
	s.FP8Dispatch = s.A2A.PointToPoint() && s.WeightDType == "fp8"
	setSpeculative(&s, in)
	s.A2AFixedS = vllm.A2AFixedLatency(s.A2A, l.Nodes > 1, s.EPSize()).FixedS
	s.IdleRanksSlow, _ = in.Release().IdleDPRanksSlow()
	if k, _ := in.Release().Scheduler(); k == vllm.SchedPrefillFirstWhole {
		s.PrefillEager = true // V0 captures decode only
	}
	return s
}

// setSpeculative carries the deployment's speculative decoding into the
// step model: the drafts verified per step, the tokens emitted per step
// and the proposer the draft passes run (none for n-gram).
func setSpeculative(s *StepSetup, in *input.Input) {
	sp := in.Speculative
	if sp == nil {
		return
	}
	s.SpecTokens, s.SpecAccepted = sp.NumTokens, sp.Acceptance.Value
	d := sp.Draft
	if d == nil {
		s.SpecDraft = &Drafter{CPU: true}
		return
	}
	s.SpecDraft = &Drafter{Layers: d.Layers, FuseParams: d.FuseParams, HeadVocab: d.HeadVocab, WeightDType: d.WeightsDType}
}

// Mechanism is the traffic pattern of the MoE layers' token exchange:
// none for a dense model or DP = 1, otherwise the backend's (vllm.TrafficOf:
// without the all2all kernels vLLM's MoE layers still gather the tokens of
// every DP rank).
func Mechanism(in *input.Input) vllm.Traffic {
	if !in.Model.IsMoE() || in.Layout.DP <= 1 {
		return vllm.TrafficNone
	}
	return vllm.TrafficOf(in.All2AllBackend)
}
