package replay

import (
	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
)

// Regime groups targets whose errors behave alike; the prediction bands
// (package band) are per regime.
type Regime = band.Regime

// The regimes of the targets.
const (
	RegimeThroughput      = band.Throughput
	RegimeThroughputBurst = band.ThroughputBurst
	RegimeTPOT            = band.TPOT
	RegimeTPOTBurst       = band.TPOTBurst
	RegimeTTFTMean        = band.TTFTMean
	RegimeTTFTP99         = band.TTFTP99
)

// Target is one published figure of a row and its prediction.
type Target struct {
	Row, Source, Split string
	// Engine is the row's serving engine (vllm, sglang, ...); Dataset and
	// Load its request dataset and load kind.
	Engine, Dataset, Load string
	// Class is the row's engine and hardware class (band.Class).
	Class band.Class
	// Metric names the figure (its key in the data file, e.g. ttft_ms.p99).
	Metric    string
	Regime    Regime
	Unit      string
	Published float64
	Predicted float64
	// TTFTAfterReasoning is true when the row's client stops TTFT at the
	// first non-empty content and the row's chat endpoint streams the
	// model's reasoning before it (ttftAfterReasoning): its TTFT figures
	// then hold the reasoning's decode steps.
	TTFTAfterReasoning bool
	// PromptsSeenBefore is the row's load.prompts_seen_before: an earlier
	// run of its source sent the same prompts to the same server, whose
	// prefix cache kept them (exclude.go crossRunCache).
	PromptsSeenBefore bool
	// OutputTokens is the row's output length per request (its mean where
	// it publishes one: lengths).
	OutputTokens int
	// FloorMs is the least value a TTFT figure can take under the row's
	// stated protocol with every prompt prefilled (FloorOf: its first
	// wave at the GPUs' dense peak; 0: no floor), Floor its terms.
	FloorMs float64
	Floor   string
	// StateLow and StateHigh are, for a TTFT figure of a fixed-length
	// closed loop (fixedLoop), and for its throughput figure with
	// sim.UseWaveCycle (its mean TPOT's with sim.UseWaveCycleTPOT), the
	// least and the greatest of its states' predictions (the wave, the
	// train, the all-at-once simulation): its band spans them (Inside).
	// 0: one state.
	StateLow, StateHigh float64
}

// medianTPOT scores a row's median TPOT where it publishes no mean (41 rows
// of four sources: InferenceX's sweeps, tant2tls, pegainfer): vLLM's and
// SGLang's benchmark clients take both over the same per-request TPOTs (each
// request's decode time over its output tokens after the first), which the
// simulation's per-request percentiles mirror, so the median is compared
// with the simulated P50, never with its mean. A row with both keeps the
// mean only: one TPOT figure a row, so no row weighs twice in its regime.
var medianTPOT = true

// figure is one published figure and how to read its prediction.
type figure struct {
	metric string
	regime Regime
	unit   string
	n      published.Num
	pred   func(o Outcome, r published.Row) float64
}

func perGPU(v float64, r published.Row) float64  { return v / r.Hardware.GPUs.V }
func perNode(v float64, r published.Row) float64 { return v / r.Hardware.Nodes.V }

// figures lists what the row publishes that a reproduction predicts:
// throughput (the first one published: per node, per GPU or whole), mean and
// P99 TTFT, mean TPOT — or, where a row publishes no mean TPOT, its median
// against the simulated per-request median (medianTPOT).
func figures(r published.Row) []figure {
	f := r.Figures
	thr := []figure{
		{"output_tok_per_s_per_node", RegimeThroughput, "tok/s/node", f.OutputTokPerSPerNode, func(o Outcome, r published.Row) float64 { return perNode(o.OutputTokPerS, r) }},
		{"input_tok_per_s_per_node", RegimeThroughput, "tok/s/node", f.InputTokPerSPerNode, func(o Outcome, r published.Row) float64 { return perNode(o.InputTokPerS, r) }},
		{"output_tok_per_s_per_gpu", RegimeThroughput, "tok/s/GPU", f.OutputTokPerSPerGPU, func(o Outcome, r published.Row) float64 { return perGPU(o.OutputTokPerS, r) }},
		{"output_tok_per_s", RegimeThroughput, "tok/s", f.OutputTokPerS, func(o Outcome, r published.Row) float64 { return o.OutputTokPerS }},
		{"total_tok_per_s", RegimeThroughput, "tok/s", f.TotalTokPerS, func(o Outcome, r published.Row) float64 { return o.TotalTokPerS }},
	}
	var out []figure
	for _, t := range thr {
		if t.n.Known {
			out = append(out, t)
			break
		}
	}
	lat := func(s published.Stat, q func(sim.Percentiles) float64, pick func(Outcome) sim.Percentiles) func(Outcome, published.Row) float64 {
		return func(o Outcome, _ published.Row) float64 { return 1e3 * q(pick(o)) }
	}
	ttft := func(o Outcome) sim.Percentiles { return o.TTFT }
	tpot := func(o Outcome) sim.Percentiles { return o.TPOT }
	mean := func(p sim.Percentiles) float64 { return p.Mean }
	p50 := func(p sim.Percentiles) float64 { return p.P50 }
	p99 := func(p sim.Percentiles) float64 { return p.P99 }
	out = append(out,
		figure{"ttft_ms.mean", RegimeTTFTMean, "ms", f.TTFTMs.Mean, lat(f.TTFTMs, mean, ttft)},
		figure{"ttft_ms.p99", RegimeTTFTP99, "ms", f.TTFTMs.P99, lat(f.TTFTMs, p99, ttft)},
		figure{"tpot_ms.mean", RegimeTPOT, "ms", f.TPOTMs.Mean, lat(f.TPOTMs, mean, tpot)},
	)
	if medianTPOT && !f.TPOTMs.Mean.Known {
		out = append(out, figure{"tpot_ms.median", RegimeTPOT, "ms", f.TPOTMs.Median, lat(f.TPOTMs, p50, tpot)})
	}
	kept := out[:0]
	for _, x := range out {
		if x.n.Positive() {
			kept = append(kept, x)
		}
	}
	return kept
}
