package slo

import (
	"fmt"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// phaseLockSpec is QA42's 5b: a steady closed loop of identical requests
// (no think time) on one dense TP8 engine over PCIe, whose prefill steps
// stretch a session's cycle to 2.7 × its decode steps.
const phaseLockSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: llama33-70b-fp8-rtxpro}
model: {name: llama-3.3-70b, weights: fp8, path: nvidia/Llama-3.3-70B-Instruct-FP8}
hardware:
  gpu: rtx-pro-6000
  nodes:
    - {name: ws0, address: 10.3.0.1, gpus: 8, interface: eth0}
  network:
    intra_node: {kind: pcie, bandwidth_gbytes_per_s: 64}
workload: {concurrency: %d, max_model_len: 32768, input_tokens: 2000, output_tokens: 500}
parallelism: {tensor: 8, pipeline: 1, data: 1}
vllm: {version: "0.31.0"}
runtime: {kind: bare}
`

// A steady closed loop of identical requests keeps the phases its sessions
// start with, so check spreads their first requests over a whole cycle
// (sim.SessionCycle). Spread over the decode steps alone (15.6 s of a
// 41.6-s cycle at 128 sessions) every run froze the start-up clump into
// four-prompt cohorts each waiting three 0.85-s prefill steps: TTFT 2.54 s
// at p50, p90 and p99 alike at 100–160 sessions, on every seed (QA42).
func TestSteadyLoopNotPhaseLocked(t *testing.T) {
	for _, n := range []int{100, 128, 160} {
		in := testinput.FromYAML(t, "phaselock.yaml", fmt.Sprintf(phaseLockSpec, n))
		sm := perf.NewStepModel(perf.SetupFromInput(&in))
		m := memory.Estimate(&in)
		cfg := scenarioConfig(&in, sm, kvOf(&m), in.Workload.InputTokens, Options{Seed: 1, kv: seqCostOf(&m)})
		if cycle := sim.SessionCycle(sm, cfg); !(cfg.StaggerS >= cycle) || cycle < 30 {
			t.Errorf("%d sessions: stagger %.1f s, a session's cycle %.1f s (the simulation's is ≈ 41 s at 128)", n, cfg.StaggerS, cycle)
		}
		r := Evaluate(&in, &m, Options{Seed: 1, NoAdvice: true})
		if r.Performance == nil || len(r.Performance.Simulations) == 0 {
			t.Fatalf("%d sessions: no simulation", n)
		}
		ttft := r.Performance.Simulations[0].Result.TTFT
		if !(ttft.P90 > 1.3*ttft.P50) || !(ttft.P50 < 2) {
			t.Errorf("%d sessions: TTFT p50 %.3f s, p90 %.3f s, p99 %.3f s: a phase-locked loop (p50 ≈ p99 ≈ 2.54 s)", n, ttft.P50, ttft.P90, ttft.P99)
		}
	}
}
