package slo

import (
	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// Judge gives v its band and verdict as check's own SLOs get them (pass
// when the whole band meets the target, fail when none of it does,
// uncertain otherwise), for a prediction made outside this package — the
// disaggregated composition (package pd) — with the band class of in.
func Judge(v *Verdict, in *input.Input, r band.Regime, higher, ok bool) { judge(v, in, r, higher, ok) }

// TTFTRegime is the band regime of a TTFT percentile ("p50", "p95", "p99").
func TTFTRegime(q string) band.Regime { return ttftRegime(q) }

// TPOTRegime is the band regime of the deployment's mean TPOT: a finite
// burst's (workload.burst_requests) is band.TPOTBurst, every other load's
// band.TPOT.
func TPOTRegime(in *input.Input) band.Regime {
	if in.Workload.BurstRequests > 0 {
		return band.TPOTBurst
	}
	return band.TPOT
}

// ThroughputRegime is the band regime of the deployment's throughput: a
// finite burst's (workload.burst_requests) is band.ThroughputBurst — a run
// bound by the API server's ingest, the burst's prefill and its tail —
// every other load's (a closed loop's sessions, an open loop's arrivals)
// band.Throughput, the steady decode's.
func ThroughputRegime(in *input.Input) band.Regime {
	if in.Workload.BurstRequests > 0 {
		return band.ThroughputBurst
	}
	return band.Throughput
}
