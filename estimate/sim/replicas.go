package sim

// Independent replicas (resolve.Layout.Replicas) share no step: each is
// an engine of its own behind a load balancer, so a scenario is simulated
// on one replica with its share of the load and read back as the
// deployment's.

// perReplica reduces cfg to the fullest of r replicas: the ceil of its
// share of the sessions, of a request pool and of a client cap, 1/r of
// the arrival rate.
// scale is how many times over the replica's throughput and queue lengths
// count for the deployment: r in an open loop (each replica serves 1/r of
// the arrivals), every session at the fullest replica's pace in a closed
// one (sessions / its sessions; r when they divide evenly).
func perReplica(cfg Config, r int) (out Config, scale float64) {
	if r <= 1 {
		return cfg, 1
	}
	scale = float64(r)
	if cfg.Sessions > 0 {
		share := (cfg.Sessions + r - 1) / r
		scale = float64(cfg.Sessions) / float64(share)
		cfg.Sessions = share
	}
	if cfg.Pool > 0 {
		cfg.Pool = (cfg.Pool + r - 1) / r
		cfg.Requests = min(cfg.Requests, cfg.Pool)
	}
	cfg.ArrivalRatePerS /= float64(r)
	if cfg.ClientCap > 0 {
		cfg.ClientCap = (cfg.ClientCap + r - 1) / r
	}
	return cfg, scale
}

// forReplicas reads one replica's result as the deployment's: latencies
// are each request's, throughput and queue lengths scale.
func forReplicas(res Result, scale float64) Result {
	res.OutputTokPerS *= scale
	res.TotalTokPerS *= scale
	res.MeanRunning *= scale
	res.MeanWaiting *= scale
	res.MeanKVWaiting *= scale
	return res
}
