package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/published"
)

// A burst's or an offline batch's TPOT and throughput figures are in the
// burst regimes; every other figure keeps its own.
func TestRegimeOfBurstTPOT(t *testing.T) {
	for _, c := range []struct {
		load string
		in   Regime
		want Regime
	}{
		{published.LoadBurst, RegimeTPOT, RegimeTPOTBurst},
		{published.LoadOfflineBatch, RegimeTPOT, RegimeTPOTBurst},
		{published.LoadClosedLoop, RegimeTPOT, RegimeTPOT},
		{published.LoadPoisson, RegimeTPOT, RegimeTPOT},
		{published.LoadBurst, RegimeTTFTMean, RegimeTTFTMean},
		{published.LoadBurst, RegimeThroughput, RegimeThroughputBurst},
		{published.LoadOfflineBatch, RegimeThroughput, RegimeThroughputBurst},
		{published.LoadClosedLoop, RegimeThroughput, RegimeThroughput},
		{published.LoadPoisson, RegimeThroughput, RegimeThroughput},
	} {
		var r published.Row
		r.Load.Kind = c.load
		if got := regimeOf(c.in, r); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.load, c.in, got, c.want)
		}
	}
}
