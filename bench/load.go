package bench

// arrivals is what a client recorded about how it sent requests.
type arrivals struct {
	rate       float64 // requests/s; 0 with unlimited
	unlimited  bool
	rateKnown  bool
	burstiness float64 // gamma shape; 1 = Poisson (0 = not recorded)
	// burstKnown says the client recorded its burstiness (a value, or a
	// command line that leaves it at the default); without it a finite
	// rate's Poisson arrivals are an assumption (assumedNotes).
	burstKnown bool
	maxConc    int // 0 = no cap
	// concStated says the client recorded its concurrency cap, set or
	// not (a "Maximum request concurrency" line, even "None"; a
	// max_concurrency key, even null; a --max-concurrency flag): without
	// it, no cap is an inference (Result.concUnstated), checked against the
	// result's own figures (littlesLaw).
	concStated bool
	prompts    int
	rampUp     string
	trace      bool // requests sent at a trace's timestamps
	// unknown, when set, says why the load cannot be told (a command
	// line's $RATE): the run is not simulated.
	unknown string
}

// load maps the vLLM/SGLang client semantics to a load: with an unlimited
// rate every request is released at once and --max-concurrency, when it is
// below the number of prompts, turns that into a closed loop of that many
// sessions (a semaphore: the next prompt starts when one finishes); with a
// finite rate requests arrive as a Poisson process, or gamma with
// burstiness ≠ 1 (LoadGamma), and --max-concurrency below the number of
// prompts holds them to that many in flight (LoadCapped: a request drawn
// at its arrival time waits for a semaphore slot, and the client times it
// from the send). Patterns vlaunch's simulation has no counterpart for
// (trace timestamps, ramp-ups) are LoadOther.
func (a arrivals) load() Load {
	l := Load{Prompts: a.prompts}
	gamma := a.burstiness != 0 && a.burstiness != 1
	switch {
	case a.trace:
		return other(l, "requests sent at a trace's timestamps")
	case a.unknown != "":
		return other(l, a.unknown)
	case a.rampUp != "":
		return other(l, "the request rate ramps up ("+a.rampUp+")")
	case !a.rateKnown:
		return other(l, "the result does not record the request rate")
	case a.unlimited && (a.maxConc == 0 || a.maxConc >= a.prompts):
		l.Kind = LoadBurst
	case a.unlimited:
		l.Kind, l.Concurrency = LoadClosedLoop, a.maxConc
	case a.maxConc > 0 && a.maxConc < a.prompts:
		l.Kind, l.RatePerS, l.Concurrency = LoadCapped, a.rate, a.maxConc
		if gamma {
			l.Burstiness = a.burstiness
		}
	case gamma:
		l.Kind, l.RatePerS, l.Burstiness = LoadGamma, a.rate, a.burstiness
	default:
		l.Kind, l.RatePerS = LoadPoisson, a.rate
	}
	return l
}

// assumedNotes says what the mapping assumed of vLLM's client: with a
// finite rate and no burstiness recorded, the arrivals are taken as
// Poisson (--burstiness 1.0, the client's default: vllm-project/
// vllm@009e6d4a vllm/benchmarks/serve.py add_cli_args), which a run at
// another burstiness was not.
func (a arrivals) assumedNotes() []string {
	if a.unlimited || !a.rateKnown || a.trace || a.rampUp != "" || a.burstKnown {
		return nil
	}
	return []string{"the burstiness of the arrivals is not recorded (no 'Burstiness factor' line, no burstiness key, no client command line): " +
		"Poisson arrivals (burstiness 1.0, the client's default) are ASSUMED, not read"}
}

func other(l Load, why string) Load {
	l.Kind, l.Unsupported = LoadOther, why
	return l
}
