package perf_test

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// calSetup is a DeepSeek-V3/R1 layout on a catalog GPU, for the
// speculative-decoding rows (the throughput rows replay through
// estimate/replay).
type calSetup struct {
	gpu                   string
	gpusPerNode, nodes    int
	interGbit             float64
	nics                  int
	tp, dp                int
	ep                    bool
	a2a                   vllm.Traffic
	kv                    string
	dbo, graphs           bool
	specTokens            int
	specAccepted          float64
	intraGBps, interLatUs float64
}

// calH20Decode is Ant Group's H20 decode deployment: RDMA 4 × 400 Gbit/s
// per node, FP8 FlashMLA (FP8 KV), DP16/EP16 over two nodes.
var calH20Decode = calSetup{gpu: "h20-96g", gpusPerNode: 8, nodes: 2, interGbit: 400, nics: 4, tp: 1, dp: 16, ep: true,
	a2a: vllm.TrafficPerExpert, kv: "fp8", graphs: true, specTokens: 1, specAccepted: 1.85, interLatUs: 2}

func (c calSetup) model(tb testing.TB, eff perf.Efficiency) *perf.StepModel {
	m := perf.CatalogModel(tb, "deepseek-v3")
	g := perf.CatalogGPU(tb, c.gpu)
	hw := perf.NewHardware(g, c.gpusPerNode, c.intraGBps, 2, c.interGbit, c.nics, c.interLatUs)
	if c.nodes <= 1 {
		hw.InterBytesPerSPerNode = 0
	}
	s := perf.StepSetup{Model: m, HW: hw, TP: c.tp, PP: 1, DP: c.dp, EP: c.ep, WeightDType: "fp8",
		KVDType: c.kv, A2A: c.a2a, FP8Dispatch: c.a2a.PointToPoint(),
		CUDAGraphs: c.graphs, DBO: c.dbo, SpecTokens: c.specTokens, SpecAccepted: c.specAccepted, Eff: eff}
	s.A2AFixedS = vllm.A2AFixedLatency(s.A2A, c.nodes > 1, s.EPSize()).FixedS
	return perf.NewStepModel(s)
}

// decodePerGPU is steady decoding of seqsPerGPU sequences per GPU at
// context ctx, in output tokens/s per GPU.
func (c calSetup) decodePerGPU(seqsPerGPU int, ctx float64) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, eff perf.Efficiency) float64 {
		sm := c.model(tb, eff)
		per := seqsPerGPU * c.tp
		pt, _ := sm.DecodeAt(per*c.dp, ctx)
		return pt.OutputTokPerS / float64(c.tp*c.dp)
	}
}
