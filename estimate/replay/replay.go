package replay

import (
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// Reproduce runs row r with the constants eff and returns one Target per
// published figure it predicts.
func Reproduce(r published.Row, eff perf.Efficiency, opt Options) ([]Target, error) {
	s, e, err := Setup(r, eff)
	if err != nil {
		return nil, err
	}
	o, err := run(r, perf.NewStepModel(s), e, opt)
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, f := range figures(r) {
		if o.Steady && (f.regime == RegimeTTFTMean || f.regime == RegimeTTFTP99) {
			continue
		}
		out = append(out, Target{Row: r.ID, Source: r.Source, Split: r.Split, Engine: r.Engine.Name,
			Dataset: r.Workload.Dataset, Load: r.Load.Kind, Class: ClassOf(r), Metric: f.metric, Regime: f.regime,
			Unit: f.unit, Published: f.n.V, Predicted: f.pred(o, r)})
	}
	return out, nil
}
