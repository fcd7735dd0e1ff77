package pd

import (
	"math"
	"slices"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// Bindings of a disaggregated scenario: the part of the system with the
// highest utilisation at the operating rate when it is near saturation
// (BindsAt); else what sets the rate with no part saturated: a closed
// loop's sessions (BindSessions) or an open loop's arrivals (BindArrivals).
const (
	BindPrefill  = "prefill pool"
	BindDecode   = "decode pool"
	BindTransfer = "KV transfer (NICs)"
	// BindSessions: a closed loop of N sessions that no part saturates
	// serves N ÷ (the time of one request: TTFT + output × TPOT) requests
	// per second (Little's law); more sessions would serve more.
	BindSessions = "sessions"
	// BindArrivals: an open loop below every part's saturation serves its
	// arrival rate.
	BindArrivals = "arrival rate"
)

// saturationGain is the decode curve's criterion of saturation
// (estimate/perf.saturationGain, perf.Saturation: doubling the concurrency
// adds less than 10% throughput).
const saturationGain = 0.10

// BindsAt is the utilisation (rate over capacity) from which a part binds
// the rate: at utilisation u no number of sessions can raise the rate by
// more than 1/u − 1 (the capacity being the part's most requests per
// second), so from u = 1/(1 + saturationGain) ≈ 0.91 the part is saturated
// by the decode curve's criterion; below it the part leaves more than 10%
// headroom and is not what holds the rate. (Checks of session 37: a closed
// loop at prefill 50%, decode 32% was reported "bound by the prefill pool".)
var BindsAt = 1 / (1 + saturationGain)

// Scenario is the disaggregated system under the workload's load at one
// input length.
type Scenario struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	Sessions     int     `json:"sessions,omitempty"`
	RatePerS     float64 `json:"arrival_rate_per_s,omitempty"`
	// Burst is the finite run's requests (workload.burst_requests: the
	// sessions, or the arrivals, start at t=0 and every request counts;
	// throughput is over the whole run); 0 for the steady state.
	Burst int `json:"burst_requests,omitempty"`
	// ClientCap is an open loop's client cap on requests in flight
	// (EvaluateCapped; 0: none). CapClosedLoop marks a capped loop whose
	// arrivals outpace what ClientCap sessions sustain: the scenario is
	// the closed loop of ClientCap sessions (cappedScenario).
	ClientCap     int  `json:"client_cap,omitempty"`
	CapClosedLoop bool `json:"cap_closed_loop,omitempty"`
	// RequestsPerS is the rate the system serves; OutputTokPerS and
	// TotalTokPerS its throughput (the decode pool's).
	RequestsPerS  float64 `json:"requests_per_s"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	TotalTokPerS  float64 `json:"total_tokens_per_s"`
	// Binding is what binds the request rate; the utilisations are the
	// rate over each part's capacity.
	Binding string `json:"binding"`
	// DecodeFlat marks a closed loop's decode pool that binds below
	// BindsAt: its throughput curve is flat at the requests decoding
	// (evaluator.decodeFlat).
	DecodeFlat bool `json:"decode_flat,omitempty"`
	// DecodeSlots is how many requests the decode pool runs at once at
	// these lengths (every rank's max_num_seqs, or what its KV cache
	// holds when fewer), given when it binds or LoopQueueS is; DecodeKVBound marks a scenario bound by the
	// decode pool whose KV cache, not max_num_seqs, sets those slots: the
	// sessions beyond them wait for its blocks (decode admission).
	DecodeSlots   int  `json:"decode_slots,omitempty"`
	DecodeKVBound bool `json:"decode_kv_bound,omitempty"`
	// LoopQueueS is the part of the decode admission that Little's law
	// adds to a closed loop whose decode pool's simulation could not hold
	// its sessions (loopQueue): the wait of the sessions neither in
	// prefill, the hand-off nor decoding for the decode pool's slots.
	LoopQueueS         float64 `json:"loop_queue_s,omitempty"`
	PrefillUtilization float64 `json:"prefill_utilization"`
	DecodeUtilization  float64 `json:"decode_utilization"`
	// TTFT is from the router's receipt to the first token out of the
	// decode pool; TTFTParts splits its mean.
	TTFT      sim.Percentiles `json:"ttft"`
	TTFTParts TTFTParts       `json:"ttft_parts"`
	// TPOT is the decode pool's (no prefill beside its decodes).
	TPOT     sim.Percentiles `json:"tpot"`
	Transfer Transfer        `json:"transfer"`
	Lease    Lease           `json:"kv_lease"`
	// Unbounded marks an open loop above the capacity of some part: the
	// queue grows for as long as arrivals go on; TTFT is then 0.
	Unbounded bool `json:"unbounded,omitempty"`
	// Truncated marks a pool's simulation cut short at its work ceiling.
	Truncated bool `json:"truncated,omitempty"`
	// DecodeSimulated is false when the decode pool was too large to
	// simulate rank by rank: its figures are the steady state's.
	DecodeSimulated bool `json:"decode_simulated"`
	// PrefillQueue is the prefill pool's time stepping and what its queue
	// waits for, read from its simulation (nil: a finite run, a blend of
	// runs, or a run RunModel reduced to its busy ranks).
	PrefillQueue *PrefillQueue `json:"prefill_queue,omitempty"`
}

// TTFTParts is the mean TTFT by where a request spends it; the parts add
// up to TTFT's mean.
type TTFTParts struct {
	// FrontendS is both pools' API servers (ingest, the first token out).
	FrontendS float64 `json:"frontend_s"`
	// PrefillQueueS is the wait in the prefill pool's queue.
	PrefillQueueS float64 `json:"prefill_queue_s"`
	// PrefillS is the prompt's steps on the prefill pool.
	PrefillS float64 `json:"prefill_s"`
	// RouterS is the router's hops: to prefill, back, to decode.
	RouterS float64 `json:"router_s"`
	// TransferS is the KV transfer (mean, NICs fairly shared).
	TransferS float64 `json:"transfer_s"`
	// DecodeAdmitS is the wait on the decode pool for a slot and a step
	// boundary, and for the step at whose end the engine notices that the
	// KV read finished (noticedRead).
	DecodeAdmitS float64 `json:"decode_admit_s"`
	// FirstDecodeS is the decode step that emits the first token (a decode
	// pool that computes every prompt itself, Report.DecodeRecomputes: the
	// prompt's own steps on it).
	FirstDecodeS float64 `json:"first_decode_step_s"`
	// DecodeAdmit is what DecodeAdmitS holds, nested so that the parts
	// above are exactly Sum's terms in the JSON as in the text (before, a
	// sibling read_notice_s made the JSON's parts add up to more than the
	// mean).
	DecodeAdmit AdmitParts `json:"decode_admit_of_which"`
}

// AdmitParts are named shares of TTFTParts.DecodeAdmitS (inside it, never
// added to Sum again).
type AdmitParts struct {
	// ReadNoticeS is the wait for the step at whose end the decode engine
	// notices the finished read.
	ReadNoticeS float64 `json:"read_notice_s"`
}

// Sum is the mean TTFT the parts make up.
func (p TTFTParts) Sum() float64 {
	return p.FrontendS + p.PrefillQueueS + p.PrefillS + p.RouterS + p.TransferS + p.DecodeAdmitS + p.FirstDecodeS
}

// Lease is the prefill pool's KV held for the decode pool: a prefill rank
// keeps a finished prompt's blocks until the decode rank has pulled them.
type Lease struct {
	// HeldRequests per prefill rank: its rate × (router hop + decode
	// admission + transfer); NeededTokens what they and a full prefill
	// step occupy, against KVTokensPerRank.
	HeldRequests    float64 `json:"held_requests_per_rank"`
	NeededTokens    float64 `json:"needed_tokens_per_rank"`
	KVTokensPerRank int64   `json:"kv_tokens_per_rank"`
	// Fits is false when the prefill pool's KV cannot hold them: prefills
	// stall, or the lease expires and a decoder reads freed blocks.
	Fits bool `json:"fits"`
}

// convolve is the distribution of a + b + c for independent a and b
// (their TTFTQuantiles; the mean alone where a run measured none) and a
// constant c: every pair of quantiles, sorted.
func convolve(a, b sim.Result, c float64) sim.Percentiles {
	qa, qb := quantiles(a), quantiles(b)
	sums := make([]float64, 0, len(qa)*len(qb))
	for _, x := range qa {
		for _, y := range qb {
			sums = append(sums, x+y+c)
		}
	}
	slices.Sort(sums)
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(sums)))) - 1
		return sums[min(max(i, 0), len(sums)-1)]
	}
	return sim.Percentiles{Mean: a.TTFT.Mean + b.TTFT.Mean + c, P50: at(0.5), P90: at(0.9), P95: at(0.95), P99: at(0.99)}
}

func quantiles(r sim.Result) []float64 {
	if r.TTFTQuantiles[sim.CDFPoints-1] > 0 {
		return r.TTFTQuantiles[:]
	}
	return []float64{r.TTFT.Mean}
}
