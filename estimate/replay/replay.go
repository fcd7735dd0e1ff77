package replay

import (
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// Reproduce runs row r with the constants eff and returns one Target per
// published figure it predicts.
func Reproduce(r published.Row, eff perf.Efficiency, opt Options) ([]Target, error) {
	o, _, _, err := runRow(r, eff, opt)
	if err != nil {
		return nil, err
	}
	var out []Target
	_, outTok := lengths(r.Workload)
	floor, hasFloor := FloorOf(r)
	for _, f := range figures(r) {
		if o.Steady && (f.regime == RegimeTTFTMean || f.regime == RegimeTTFTP99) {
			continue
		}
		t := Target{Row: r.ID, Source: r.Source, Split: r.Split, Engine: r.Engine.Name,
			Dataset: r.Workload.Dataset, Load: r.Load.Kind, Class: ClassOf(r), Metric: f.metric, Regime: regimeOf(f.regime, r),
			Unit: f.unit, Published: f.n.V, Predicted: f.pred(o, r), TTFTAfterReasoning: ttftAfterReasoning(r), PromptsSeenBefore: r.Load.PromptsSeenBefore.V, OutputTokens: outTok}
		switch {
		case o.States.MeanHi > 0 && f.regime == RegimeTTFTMean:
			t.StateLow, t.StateHigh = 1e3*o.States.MeanLo, 1e3*o.States.MeanHi
		case o.States.P99Hi > 0 && f.regime == RegimeTTFTP99:
			t.StateLow, t.StateHigh = 1e3*o.States.P99Lo, 1e3*o.States.P99Hi
		case o.States.RateHi > 0 && f.regime == RegimeThroughput:
			t.StateLow, t.StateHigh = t.Predicted*o.States.RateLo, t.Predicted*o.States.RateHi
		case o.States.TPOTHi > 0 && f.regime == RegimeTPOT && f.metric == "tpot_ms.mean":
			t.StateLow, t.StateHigh = 1e3*o.States.TPOTLo, 1e3*o.States.TPOTHi
		}
		if hasFloor {
			t.FloorMs, t.Floor = floor.floorMs(t.Regime), floor.String()
		}
		out = append(out, t)
	}
	return out, nil
}

// regimeOf is the band regime of a figure of regime r of row row: a
// burst's TPOT (a finite burst, or an offline batch: every request sent at
// once) is band.TPOTBurst, and its throughput band.ThroughputBurst.
func regimeOf(r Regime, row published.Row) Regime {
	if row.Load.Kind != published.LoadBurst && row.Load.Kind != published.LoadOfflineBatch {
		return r
	}
	switch r {
	case RegimeTPOT:
		return RegimeTPOTBurst
	case RegimeThroughput:
		return RegimeThroughputBurst
	}
	return r
}

// runRow reproduces row r with the constants eff: what the run predicts,
// and the step model and engine it ran on (for the terms of a step).
func runRow(r published.Row, eff perf.Efficiency, opt Options) (Outcome, *perf.StepModel, engine, error) {
	s, e, err := Setup(r, eff)
	if err != nil {
		return Outcome{}, nil, e, err
	}
	sm := perf.NewStepModel(s)
	o, err := run(r, sm, e, opt)
	return o, sm, e, err
}
