package perf_test

import (
	"fmt"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/vllm"
)

// perfCalRow is one published measurement reproduced through the model.
type perfCalRow struct {
	ID, Source, What string
	Published        float64
	Unit             string
	// Excluded explains why a row is not reproduced (empty = reproduced).
	Excluded string
	// predict runs the model with the given constants.
	predict func(tb testing.TB, eff perf.Efficiency) float64
	// informational rows are shown with their error but not held to the
	// ±30% target (the reason is in Note).
	Informational bool
	Note          string
}

// calSetup is a DeepSeek-V3/R1 layout on a catalog GPU.
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
	redundant             int // EPLB replicas the source states
}

func (c calSetup) model(tb testing.TB, eff perf.Efficiency) *perf.StepModel {
	m := perf.CatalogModel(tb, "deepseek-v3")
	g := perf.CatalogGPU(tb, c.gpu)
	hw := perf.NewHardware(g, c.gpusPerNode, c.intraGBps, 2, c.interGbit, c.nics, c.interLatUs)
	if c.nodes <= 1 {
		hw.InterBytesPerSPerNode = 0
	}
	return perf.NewStepModel(perf.StepSetup{Model: m, HW: hw, TP: c.tp, PP: 1, DP: c.dp, EP: c.ep, WeightDType: "fp8",
		KVDType: c.kv, A2A: c.a2a, FP8Dispatch: c.a2a.PointToPoint(),
		CUDAGraphs: c.graphs, DBO: c.dbo, SpecTokens: c.specTokens, SpecAccepted: c.specAccepted, RedundantExperts: c.redundant, Eff: eff})
}

// decodePerGPU is steady decoding of seqs sequences per GPU at context ctx,
// in output tokens/s per GPU.
func (c calSetup) decodePerGPU(seqsPerGPU int, ctx float64) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, eff perf.Efficiency) float64 {
		sm := c.model(tb, eff)
		per := seqsPerGPU * c.tp
		pt, _ := sm.DecodeAt(per*c.dp, ctx)
		return pt.OutputTokPerS / float64(c.tp*c.dp)
	}
}

// prefillPerNode is steady prefill: every rank runs a full batch of
// requests of length n (batch tokens per step), in input tokens/s per node.
func (c calSetup) prefillPerNode(n, batch int) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, eff perf.Efficiency) float64 {
		sm := c.model(tb, eff)
		reqs := float64(max(1, batch/n))
		l := perf.RankLoad{PrefillTokens: reqs * float64(n), PrefillPairs: reqs * float64(n) * float64(n+1) / 2, PrefillSeqs: reqs}
		st := sm.StepUniform(l)
		return l.PrefillTokens * float64(c.dp) / st.TotalS / float64(c.nodes)
	}
}

// simMetric runs the closed-loop simulation (the benchmark's concurrency)
// and reads one metric.
func (c calSetup) simMetric(sessions, in, out, batch int, metric func(sim.Result) float64) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, eff perf.Efficiency) float64 {
		sm := c.model(tb, eff)
		dp, _ := sm.DecodeAt(sessions, float64(in+out/2))
		res := sim.Run(sim.Config{Step: sm.StepSeconds, DP: c.dp, MaxNumSeqs: 1024, MaxNumBatchedTokens: batch,
			InputTokens: in, OutputTokens: out, Sessions: sessions, Requests: 20 * sessions, Warmup: 2 * sessions,
			Seed: 1, StaggerS: float64(out) * dp.TPOTS})
		return metric(res)
	}
}

var (
	// H800 nodes: 8 GPUs, NVLink 400 GB/s bidirectional; DeepSeek's paper
	// describes one 400 Gbit/s InfiniBand NIC per GPU (assumed here).
	calH800Decode = calSetup{gpu: "h800", gpusPerNode: 8, nodes: 18, interGbit: 400, nics: 8, tp: 1, dp: 144, ep: true,
		a2a: vllm.TrafficPerExpert, kv: "bf16", dbo: true, graphs: true, interLatUs: 2, redundant: 32}
	// H100 nodes with 8 × 400 Gbit/s InfiniBand (LMSYS: 12 nodes, InfiniBand).
	calH100Prefill = calSetup{gpu: "h100-sxm", gpusPerNode: 8, nodes: 4, interGbit: 400, nics: 8, tp: 1, dp: 32, ep: true,
		a2a: vllm.TrafficPerNode, kv: "bf16", dbo: true, graphs: false, interLatUs: 2, redundant: 32}
	calH100Decode = calSetup{gpu: "h100-sxm", gpusPerNode: 8, nodes: 9, interGbit: 400, nics: 8, tp: 1, dp: 72, ep: true,
		a2a: vllm.TrafficPerExpert, kv: "bf16", dbo: true, graphs: true, interLatUs: 2, redundant: 32}
	// H20 at Ant Group: RDMA 4 × 400 Gbit/s per node, FP8 FlashMLA (FP8 KV).
	calH20Prefill = calSetup{gpu: "h20-96g", gpusPerNode: 8, nodes: 1, tp: 8, dp: 1, a2a: vllm.TrafficNone, kv: "fp8", graphs: true}
	calH20Decode  = calSetup{gpu: "h20-96g", gpusPerNode: 8, nodes: 2, interGbit: 400, nics: 4, tp: 1, dp: 16, ep: true,
		a2a: vllm.TrafficPerExpert, kv: "fp8", graphs: true, specTokens: 1, specAccepted: 1.85, interLatUs: 2}
	calH200TP8 = calSetup{gpu: "h200", gpusPerNode: 8, nodes: 1, tp: 8, dp: 1, a2a: vllm.TrafficNone, kv: "bf16", graphs: true}
)

// perfCalibrationRows lists every row of published-throughput.md.
func perfCalibrationRows() []perfCalRow {
	rows := []perfCalRow{
		{ID: "P1-prefill", Source: "DeepSeek Day 6", What: "prefill, EP32, in tok/s per node", Published: 73700, Unit: "tok/s/node",
			Excluded: "the input-length distribution is not published and 56.3% of the counted input tokens are prefix-cache hits; the computed share alone (≈32k tok/s per node) cannot be tied to a prompt length"},
		{ID: "P1-decode", Source: "DeepSeek Day 6", What: "decode EP144, 88 seq/GPU (14.8k/8 ÷ 21 tok/s per user), KV 4,989", Published: 14800, Unit: "out tok/s/node",
			predict: scale(calH800Decode.decodePerGPU(88, 4989), 8),
			Note:    "decode-only run of a PD-disaggregated system; 32 redundant experts held and read per the source (their load balancing is not modelled); MTP not modelled (not stated in the source)"},
	}
	for _, p := range []struct {
		n   int
		pub float64
	}{{1024, 57674}, {2048, 54543}, {4096, 50302}} {
		rows = append(rows, perfCalRow{ID: fmt.Sprintf("P2-prefill-%dK", p.n/1024), Source: "LMSYS PD + large EP",
			What: fmt.Sprintf("prefill EP32, %d-token prompts, 8192-token batches", p.n), Published: p.pub, Unit: "in tok/s/node",
			predict: calH100Prefill.prefillPerNode(p.n, 8192), Note: "prefill-only node of a PD-disaggregated system, DeepEP normal kernels, two-batch overlap"})
	}
	rows = append(rows,
		perfCalRow{ID: "P2-decode", Source: "LMSYS PD + large EP", What: "decode EP72, 256 seq/GPU, 2K context", Published: 22282, Unit: "out tok/s/node",
			predict: scale(calH100Decode.decodePerGPU(256, 2048), 8), Note: "decode-only node; context taken as the 2K input (output length not published)"},
		perfCalRow{ID: "P3-prefill", Source: "LMSYS SGLang on H20", What: "prefill TP8 one node, 4K prompts", Published: 16500, Unit: "in tok/s/node",
			predict: calH20Prefill.prefillPerNode(4096, 8192)},
		perfCalRow{ID: "P3-decode-48", Source: "LMSYS SGLang on H20", What: "decode DP16/EP16, 48 seq/GPU, MTP 1.85 accepted", Published: 714, Unit: "out tok/s/GPU",
			predict: calH20Decode.decodePerGPU(48, 4096+768), Note: "MTP: SGLang steps 1 / draft tokens 2 is one draft and 2 verified positions per sequence per step (calibration/README.md), 1.85 emitted; the draft pass runs the MTP layer (MoE, all-to-all), eh_proj and the LM head"},
		perfCalRow{ID: "P3-decode-32", Source: "LMSYS SGLang on H20", What: "decode DP16/EP16, 32 seq/GPU, MTP 1.85 accepted", Published: 675, Unit: "out tok/s/GPU",
			predict: calH20Decode.decodePerGPU(32, 4096+768), Note: "as above"},
	)
	p4 := []struct {
		c         int
		out, tpot float64
		ttft      float64
	}{{8, 74.6, 12.8, 331}, {16, 111.9, 17.2, 356}, {32, 151.1, 25.6, 427}, {64, 223.6, 34.6, 423}}
	for _, p := range p4 {
		rows = append(rows,
			perfCalRow{ID: fmt.Sprintf("P4-c%d-out", p.c), Source: "InferenceX #870 (SGLang)", What: fmt.Sprintf("TP8 H200, 1K/1K, concurrency %d", p.c),
				Published: p.out, Unit: "out tok/s/GPU", predict: scale(calH200TP8.simMetric(p.c, 1024, 1024, 8192, func(r sim.Result) float64 { return r.OutputTokPerS }), 1.0/8)},
			perfCalRow{ID: fmt.Sprintf("P4-c%d-tpot", p.c), Source: "InferenceX #870 (SGLang)", What: fmt.Sprintf("TP8 H200, 1K/1K, concurrency %d, mean TPOT", p.c),
				Published: p.tpot, Unit: "ms", predict: scale(calH200TP8.simMetric(p.c, 1024, 1024, 8192, func(r sim.Result) float64 { return r.TPOT.Mean }), 1e3)},
			perfCalRow{ID: fmt.Sprintf("P4-c%d-ttft", p.c), Source: "InferenceX #870 (SGLang)", What: fmt.Sprintf("TP8 H200, 1K/1K, concurrency %d, mean TTFT", p.c),
				Published: p.ttft, Unit: "ms", predict: scale(calH200TP8.simMetric(p.c, 1024, 1024, 8192, func(r sim.Result) float64 { return r.TTFT.Mean }), 1e3),
				Informational: true, Note: "a 1,024-token prefill is ≈75 TFLOP, ≈5 ms on 8 H200 at FP8 peak; the published means (331–427 ms, P99 2.0–2.7 s) are ~60× that and barely grow with concurrency, unlike engine queueing: client, tokenizer and server effects outside an engine step dominate"},
		)
	}
	for _, p := range []struct {
		c    int
		ttft float64
	}{{8, 545.6}, {16, 683.8}, {32, 816.4}} {
		rows = append(rows, perfCalRow{ID: fmt.Sprintf("P5-c%d-ttft", p.c), Source: "vLLM #28887", What: fmt.Sprintf("TP8 H200 (Triton MoE), 1600/600, concurrency %d, mean TTFT", p.c),
			Published: p.ttft, Unit: "ms", predict: scale(calH200TP8.simMetric(p.c, 1600, 600, 8192, func(r sim.Result) float64 { return r.TTFT.Mean }), 1e3),
			Informational: true, Note: "an issue reporting slow TTFT: a 1,600-token prefill is ≈8 ms at FP8 peak on 8 H200, the reported 546–816 ms is two orders above it; the engine-step model cannot and should not absorb it"})
	}
	return rows
}

func scale(f func(testing.TB, perf.Efficiency) float64, k float64) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, e perf.Efficiency) float64 { return f(tb, e) * k }
}

// analytic replaces a row's simulation by steady decode for the fit (the
// grid evaluates thousands of constant sets); the published table always
// uses the simulation.
func (c calSetup) decodeTPOT(sessions int, ctx float64) func(testing.TB, perf.Efficiency) float64 {
	return func(tb testing.TB, eff perf.Efficiency) float64 {
		pt, _ := c.model(tb, eff).DecodeAt(sessions, ctx)
		return pt.TPOTS * 1e3
	}
}
