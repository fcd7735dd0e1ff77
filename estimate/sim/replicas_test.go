package sim

import (
	"math"
	"testing"
)

// TestReplicasSimulateOne: a deployment of independent replicas is one
// replica with its share of the load, read back: the same latencies (same
// seed), throughput and queue lengths times the replicas (closed loop,
// even and uneven splits; open loop at 1/R of the rate).
func TestReplicasSimulateOne(t *testing.T) {
	one, four := moeModel(t, 8), moeModel(t, 8)
	four.S.Replicas = 4
	base := Config{DP: 8, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 300, OutputTokens: 200, Requests: 2000, Warmup: 200, Seed: 3}
	for _, tc := range []struct {
		name           string
		whole, replica func(Config) Config
		scale          float64
	}{
		{"closed loop, even", func(c Config) Config { c.Sessions = 64; return c }, func(c Config) Config { c.Sessions = 16; return c }, 4},
		{"closed loop, uneven", func(c Config) Config { c.Sessions = 62; return c }, func(c Config) Config { c.Sessions = 16; return c }, 62.0 / 16},
		{"open loop", func(c Config) Config { c.ArrivalRatePerS = 8; return c }, func(c Config) Config { c.ArrivalRatePerS = 2; return c }, 4},
	} {
		w, r := tc.whole(base), tc.replica(base)
		w.Step, r.Step = four.StepSeconds, one.StepSeconds
		got, want := RunModel(four, w), RunModel(one, r)
		if got.TTFT != want.TTFT || got.TPOT != want.TPOT {
			t.Errorf("%s: latencies %+v %+v, one replica's %+v %+v", tc.name, got.TTFT, got.TPOT, want.TTFT, want.TPOT)
		}
		for _, f := range []struct {
			what      string
			got, want float64
		}{{"output tokens/s", got.OutputTokPerS, want.OutputTokPerS}, {"running", got.MeanRunning, want.MeanRunning}} {
			if math.Abs(f.got-tc.scale*f.want) > 1e-9*f.got {
				t.Errorf("%s: %s %g, want %g × %g", tc.name, f.what, f.got, tc.scale, f.want)
			}
		}
	}
}
