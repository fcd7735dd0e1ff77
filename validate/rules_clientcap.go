package validate

// checkClientCap: workload.client_max_concurrency is the benchmark
// client's cap on an open loop (spec.Workload.ClientMaxConcurrency, vllm
// bench serve's --max-concurrency beside --request-rate), so it needs an
// arrival rate: without one the load is concurrency's closed loop, which
// concurrency itself caps. Its range (1 to 1,000,000) is the schema's.
func (c *checker) checkClientCap() {
	w := c.d.Workload
	if w.ClientMaxConcurrency == 0 || w.ArrivalRatePerS > 0 || !c.ok(p("workload", "client_max_concurrency")) {
		return
	}
	c.errorf(CodeValue, p("workload", "client_max_concurrency"),
		"give workload.arrival_rate_per_s (vllm bench serve's --request-rate, the open loop it caps), or drop client_max_concurrency and give concurrency (a closed loop of that many sessions)",
		"client_max_concurrency %d without arrival_rate_per_s: it caps an open loop's requests in flight, and this workload has none", w.ClientMaxConcurrency)
}
