package bench

import (
	"fmt"
	"strconv"
)

// arrivals is what a client recorded about how it sent requests.
type arrivals struct {
	rate       float64 // requests/s; 0 with unlimited
	unlimited  bool
	rateKnown  bool
	burstiness float64 // gamma shape; 1 = Poisson (0 = not recorded)
	maxConc    int     // 0 = no cap
	prompts    int
	rampUp     string
	trace      bool // requests sent at a trace's timestamps
}

// load maps the vLLM/SGLang client semantics to a load: with an unlimited
// rate every request is released at once and --max-concurrency, when it is
// below the number of prompts, turns that into a closed loop of that many
// sessions (a semaphore: the next prompt starts when one finishes); with a
// finite rate requests arrive as a Poisson process (gamma with burstiness
// ≠ 1). Patterns vlaunch's simulation has no counterpart for are LoadOther.
func (a arrivals) load() Load {
	l := Load{Prompts: a.prompts}
	switch {
	case a.trace:
		return other(l, "requests sent at a trace's timestamps")
	case a.rampUp != "":
		return other(l, "the request rate ramps up ("+a.rampUp+")")
	case !a.rateKnown:
		return other(l, "the result does not record the request rate")
	case a.unlimited && (a.maxConc == 0 || a.maxConc >= a.prompts):
		l.Kind = LoadBurst
	case a.unlimited:
		l.Kind, l.Concurrency = LoadClosedLoop, a.maxConc
	case a.burstiness != 0 && a.burstiness != 1:
		return other(l, "gamma-distributed arrivals (burstiness "+strconv.FormatFloat(a.burstiness, 'g', 4, 64)+"), not Poisson")
	case a.maxConc > 0 && a.maxConc < a.prompts:
		return other(l, fmt.Sprintf("Poisson arrivals held to at most %d requests in flight by the client", a.maxConc))
	default:
		l.Kind, l.RatePerS = LoadPoisson, a.rate
	}
	return l
}

func other(l Load, why string) Load {
	l.Kind, l.Unsupported = LoadOther, why
	return l
}
