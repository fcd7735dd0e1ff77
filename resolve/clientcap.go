package resolve

// ClientMaxConcurrency is the benchmark client's cap on the open loop's
// requests in flight (spec.Workload.ClientMaxConcurrency, vllm bench
// serve's --max-concurrency beside --request-rate) with where it came
// from: the spec's; 0 (no cap) when the spec gives none, derived as such
// without an arrival rate (a closed loop's sessions are its cap), assumed
// with one (the client holds every arrival in flight: bench serve's
// default --max-concurrency None). The simulations read the spec's
// value.
func (d *Deployment) ClientMaxConcurrency() Setting[int] {
	w := d.Workload
	switch {
	case w.ClientMaxConcurrency > 0:
		return set(w.ClientMaxConcurrency, SourceSpec, "the client holds at most this many requests in flight, as vLLM bench serve --max-concurrency with --request-rate; its queue's wait is in no latency")
	case w.ArrivalRatePerS <= 0:
		return set(0, SourceDerived, "no arrival rate: a closed loop, capped by its sessions")
	}
	return set(0, SourceAssumed, "no client cap: every arrival is sent at once (vLLM bench serve's default --max-concurrency None)")
}
