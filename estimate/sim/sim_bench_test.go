package sim

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// refSimConfig is the reference scenario's decode-heavy load on the real
// step model (DeepSeek-V3, 32 × H20, EP32), without KV limits.
func refSimConfig(b testing.TB, requests int) Config {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		b.Fatal(err, gerr)
	}
	sm := perf.NewStepModel(perf.StepSetup{Model: m, HW: perf.NewHardware(g, 8, 450, 2, 25, 1, 10), TP: 1, PP: 1, DP: 32, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, Eff: perf.DefaultEfficiency})
	return Config{Step: sm.StepSeconds, DP: 32, MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192,
		InputTokens: 512, OutputTokens: 256, Sessions: 200, Requests: requests, Warmup: 200, Seed: 1, StaggerS: 30}
}

// BenchmarkSim100k simulates 100,000 requests (512 in / 256 out, 200
// closed-loop sessions over 32 DP ranks) with the full step model.
func BenchmarkSim100k(b *testing.B) {
	cfg := refSimConfig(b, 100000)
	for b.Loop() {
		Run(cfg)
	}
}
