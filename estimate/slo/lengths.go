package slo

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/spec"
)

// lengthSpread is the simulator's spread for the workload's stated length
// distribution, and how the report names it ("" and no spread when the
// workload states none: every request at the configured lengths).
func lengthSpread(w spec.Workload, inputTokens, outputTokens int) (sim.Spread, string) {
	l := w.Lengths
	switch {
	case l == nil:
		return sim.Spread{}, ""
	case l.Dataset == "sharegpt":
		sp := sim.ConversationSpread
		if f := sp.Log.For(inputTokens, outputTokens); f.MaxInput <= 0 {
			return sp, fmt.Sprintf("ShareGPT lengths: log-normal σ %.1f around the means, not cut (the means are beyond the clients' %d-token prompt filter)", sp.Log.Sigma, sp.Log.MaxInput)
		}
		return sp, fmt.Sprintf("ShareGPT lengths: log-normal σ %.1f around the means, cut at %d prompt / %d total tokens", sp.Log.Sigma, sp.Log.MaxInput, sp.Log.MaxTotal)
	case l.Distribution == "lognormal" && l.CV > 0:
		sigma := math.Sqrt(math.Log(1 + l.CV*l.CV))
		return sim.Spread{Log: sim.LogNormal{Sigma: sigma, MinLen: 1}}, fmt.Sprintf("log-normal lengths, CV %.2f (σ %.2f) around the means", l.CV, sigma)
	case l.Distribution == "uniform" && l.CV > 0:
		return sim.UniformSpread(l.CV), fmt.Sprintf("uniform lengths, CV %.2f around the means", l.CV)
	}
	return sim.Spread{}, ""
}
