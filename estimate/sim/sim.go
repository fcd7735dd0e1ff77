// Package sim is a discrete-event simulation of vLLM's continuous batching
// over DP ranks stepping in lock-step (a MoE model's; a dense model's ranks
// step independently, Config.Independent): per-rank scheduling under
// max_num_seqs, max_num_batched_tokens and the KV capacity, chunked
// prefill, recompute preemption, closed-loop sessions or Poisson arrivals.
// The step time comes from a function (perf.StepModel.StepSeconds).
package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Config drives the discrete-event simulation of vLLM's continuous
// batching over DP ranks stepping in lock-step.
type Config struct {
	// Step returns the duration of one lock-step engine step for the
	// per-rank loads (len = DP). Use perf.StepModel.StepSeconds, or a stub in
	// tests. The step model is closed-form (a few dozen operations per
	// rank), so it is evaluated every step rather than cached by load
	// buckets: exact, and BenchmarkSim100k still runs 100,000 requests in
	// about 0.4 s on one core.
	Step func(loads []perf.RankLoad) float64
	DP   int
	// MaxNumSeqs and MaxNumBatchedTokens are vLLM's per-rank limits.
	MaxNumSeqs          int
	MaxNumBatchedTokens int
	// KVTokensPerRank is the KV capacity of one rank in tokens (0 = no limit);
	// BlockSize rounds every request's allocation up (0 = 1).
	KVTokensPerRank int
	BlockSize       int
	// KV, when set (sim.KVCost(memory.Report.SeqCost())), is what a
	// sequence costs of the pool of KVTokensPerRank × KV.TokenBytes bytes
	// at each length, as vLLM's KV cache manager allocates it: whole pages
	// of every group, a hybrid's state pages, a sliding window's bounded
	// blocks. Without it every token of a sequence costs one token of
	// KVTokensPerRank, in whole blocks (every layer full attention).
	KV           KVCost
	InputTokens  int
	OutputTokens int
	// Sessions > 0 runs closed-loop: each session sends its next request as
	// soon as the previous one finishes. Otherwise ArrivalRatePerS (over the
	// whole deployment) drives open-loop Poisson arrivals.
	Sessions        int
	ArrivalRatePerS float64
	// Burstiness, in an open loop, draws the inter-arrival times from a
	// gamma distribution of shape Burstiness and mean 1/ArrivalRatePerS
	// (scale 1/(rate × Burstiness)), as vLLM's bench serve --burstiness
	// does (vllm-project/vllm@def9ce85 and @009e6d4a
	// vllm/benchmarks/serve.py get_request: theta = 1.0 /
	// (current_request_rate * burstiness), np.random.gamma(shape=
	// burstiness, scale=theta)): below 1 burstier than Poisson, above 1
	// more regular. 0 and 1 are Poisson, drawn exactly as without it
	// (exponential, bit for bit the same run). (get_request at both
	// commits also rescales the cumulative delays so that the last
	// request is sent at num_prompts / rate, Poisson or gamma:
	// ClientPacing.)
	Burstiness float64
	// ClientPacing paces a finite open loop (Pool > 0, ArrivalRatePerS >
	// 0, no Sessions) as `vllm bench serve` does from v0.10.0 (PR #21108,
	// commit 1bf65138f, "[benchmark] Sending request strictly follows the
	// random intervals"; vllm/benchmarks/serve.py get_request at the
	// v0.10.0 tag 6d8d0a24c and the v0.11.0 tag b8b302cde, the same at
	// v0.12.0; at the v0.9.2 tag it sent the first request at once and
	// slept each drawn gap after it, unscaled): it draws the Pool gaps up
	// front, sums them, and rescales the sums by num_prompts / rate over
	// the last one, so request k (1-based) is sent at its drawn share of
	// the run and the last exactly at Pool / rate; the first waits its own
	// gap. benchmark_start_time is taken before the first request is sent
	// (serve.py benchmark: time.perf_counter() ahead of `async for ... in
	// get_request`), so the measured run, and the throughput over it,
	// start at t = 0, not at the first step. The gaps come from an RNG of
	// their own (Seed's), so pacing moves no other draw of the run.
	// Ignored unless the loop is finite and open.
	ClientPacing bool
	// ClientCap, when positive, holds an open loop to at most ClientCap
	// requests in flight, as a benchmark client's --max-concurrency with a
	// finite --request-rate does: a request drawn at its arrival time waits
	// in a FIFO client queue until fewer than ClientCap are in flight, and
	// it is sent (its TTFT and end-to-end timers start) when it takes the
	// freed slot, at the delivery of the last token of the request that
	// freed it. The clients measure from that send, not from the arrival:
	// vLLM's bench serve wraps each request in limited_request_func, which
	// awaits an asyncio.Semaphore(max_concurrency) before calling
	// request_func, and request_func starts its timer (st =
	// time.perf_counter(); ttft = timestamp - st, latency =
	// most_recent_timestamp - st) inside (vllm-project/vllm@def9ce85
	// vllm/benchmarks/serve.py benchmark; @009e6d4a the same, and it
	// records the semaphore wait apart as client_queue_time; vllm/
	// benchmarks/lib/endpoint_request_func.py @02cfb534); SGLang's
	// bench_serving copies it (sgl-project/sglang@0033168f python/sglang/
	// bench_serving.py benchmark's limited_request_func, st =
	// time.perf_counter() in each request function). So the client
	// queue's wait is in no measured latency. Ignored in a closed loop.
	ClientCap int
	// Requests is the number of completed requests measured after Warmup
	// completions are discarded (steady state; ignored when Pool is set).
	Requests int
	Warmup   int
	// Pool > 0 makes the run finite, as a benchmark run of --num-prompts
	// Pool requests is: the sessions (at most Pool of them; Pool sessions
	// for a burst of Pool requests at t=0) or the Poisson arrivals stop
	// once Pool requests were sent, the run ends when the last completes,
	// and every request is measured from an idle start (a benchmark's
	// warm-up requests run before it and are not counted). Throughput is
	// over the whole run, ramp-down included, as the clients report it.
	Pool int
	Seed uint64
	// StaggerS spreads the closed-loop sessions' first requests uniformly
	// over [0, StaggerS) so they do not move in lock-step (0 = all at once).
	StaggerS float64
	// EvenStagger spaces the closed-loop sessions' first requests evenly
	// over [0, StaggerS) instead (session i at i/Sessions × StaggerS): a
	// train, every prompt of a fixed-length loop a cycle/Sessions after the
	// one before, the other steady state of such a loop beside the wave an
	// all-at-once start (StaggerS 0) makes (FixedLoopStates).
	EvenStagger bool
	// ThinkS is the mean time a closed-loop session waits after a
	// request's last token before it sends the next one (0: at once),
	// drawn exponentially (a finite-source Poisson stream): a client's
	// think time, or the rest of a pipeline the simulated engine is one
	// stage of (a P/D deployment's prefill pool: the hand-off and the
	// decode pool). With it, a few sessions never queue behind themselves
	// as Poisson arrivals at their rate would.
	ThinkS float64
	// ThinkFixed makes every think time exactly ThinkS instead of
	// exponential: sessions a lock-step engine finished together come back
	// together, wave after wave, as the cohorts of a benchmark's finite run
	// of fixed lengths do (a P/D pool's finite run: estimate/pd's finite.go,
	// the other pool's time standing for the think time).
	ThinkFixed bool
	// Spec is speculative decoding (zero: off); RunModel takes it from the
	// step model when it is not set.
	Spec Speculation
	// MaxWaiting, when positive, stops the run as soon as more requests
	// wait than this (Result.Overloaded): an open loop above capacity
	// grows its queue for as long as it runs. The client's queue under a
	// ClientCap does not count: its wait is in no measured latency, so a
	// capped loop above capacity measures what a closed loop of ClientCap
	// sessions would, however long that queue grows.
	MaxWaiting int
	// WorkBudget, when positive, bounds Replicate: each of the first
	// ReplicationsMin replications stops measuring once it has spent its
	// share (WorkBudget / ReplicationsMin rank-steps, warm-up included)
	// and measured MinMeasured requests, and no further replication starts
	// once WorkBudget rank-steps were simulated; any run ends at
	// WorkCeiling shares (see Replicate). It applies to a single run too.
	WorkBudget int64
	// StepPasses is how many step-model evaluations one Step call makes
	// (perf.StepModel.Passes; 0: one): the work budget counts each.
	StepPasses int
	// Policy is the engine's scheduling policy (zero: DecodeFirst, vLLM V1).
	Policy Policy
	// ScheduleAhead is vLLM's async scheduling: the engine schedules step
	// k+1 while the GPU runs step k, so a request handed over while a step
	// runs misses the step already scheduled behind it and starts one step
	// later than it would synchronously; an engine with nothing running
	// schedules it at once (vllm.Release.AsyncSchedulingFor, which cites
	// vLLM's batch queue).
	ScheduleAhead bool
	// QueueWindow says the engine is vLLM's V1 engine core, whose busy loop
	// takes new requests only between steps (FixedLoopStates: a wave whose
	// sessions finish within its first new prompt's prefill re-forms;
	// UseQueueWindow). Set by the callers from the release's engine era.
	QueueWindow bool
	// Frontend is the serving front end's work per request and token
	// (zero: none, the engine's own timing).
	Frontend Frontend
	// DPLB, when DPLB.Clients > 0, hands requests to DP ranks as vLLM's
	// DP load balancer does (dplb.go) instead of to the rank with the
	// fewest requests at that instant.
	DPLB DPLB
	// Router, when active, is an external router in front of the DP ranks
	// (router.go): it routes every request and vLLM's balancer (DPLB) none,
	// the ranks running external LB.
	Router Router
	// Spread draws each request's input and output lengths uniformly from
	// [Lo × length, Hi × length] (zero: every request at the given lengths).
	// A benchmark's random dataset with range ratio r is {r, 1} (SGLang's
	// bench_serving: randint(length × r, length)), or {1 − r, 1 + r} for
	// vLLM's bench serve (published.Client.RangeAround).
	Spread Spread
	// FirstTokenLag, when set, is the time from the end of a step of loads
	// to the engine's output of the first tokens it sampled (SGLang's
	// overlap loop schedules and launches the next batch first:
	// perf.StepModel.SGLangFirstTokenLag); nil: none.
	FirstTokenLag func(loads []perf.RankLoad) float64
	// RecvInterval is SGLang's --scheduler-recv-interval (0 or 1: the
	// engine takes new requests at every schedule). Above 1 the scheduler
	// polls its request socket only when a counter reaches it: each decode
	// step adds 1, a step with prefill work adds 1,000 (SGLang's
	// SchedulerRecvSkipper, python/sglang/srt/managers/
	// scheduler_recv_skipper.py, and the weights' defaults in
	// python/sglang/srt/environ.py), so after a decode step requests
	// handed over since the last poll wait up to RecvInterval decode
	// steps, and arrive together. With nothing running the loop spins and
	// polls at once.
	RecvInterval int
	// ReserveDecodes is SGLang's admission rule (PrefillAdder, decodeReserve):
	// a waiting prompt starts only if the KV pool, less what the running
	// requests are expected to decode yet, holds its prompt and its output.
	// Only with the PrefillFirst policy, and only while UseDecodeReserve.
	ReserveDecodes bool
	// DPWave makes the ranks vLLM's data-parallel MoE engines
	// (DPEngineCoreProc), which step in waves (dpwave.go): once the group
	// has gone idle they keep running dummy steps until their step count
	// reaches a multiple of 32, and a request handed over meanwhile is
	// taken at the end of the dummy step in flight. Set it through
	// DPWaveFor.
	DPWave bool
	// DummyStep returns the duration of one wave dummy step for the
	// per-rank loads (one token each; nil: Step). RunModel sets it to the
	// step model's DummyStepRuns when UseEagerDummyStep is on.
	DummyStep func(loads []perf.RankLoad) float64
	// Trace, when set, sees every applied step (StepTrace; analysis).
	Trace StepTrace
	// WaveRunAhead is how many dummy steps more than the one in flight a
	// request reaching a DP wave's idle group waits for: the dummy passes
	// the engines' hosts launch ahead of their GPUs before they read the
	// request (vllm.Release.DPDummyRunAhead; set through WaveRunAheadFor).
	WaveRunAhead int
	// SessionTokens, above InputTokens + OutputTokens, makes each
	// closed-loop session a multi-turn conversation that keeps its history
	// (workload.session_tokens; input.Conversation's rule, as perf.Conversation, history.go): a
	// turn's prompt is the history plus its new input, its answer joins
	// the history, and the session starts over once the next turn would
	// exceed SessionTokens. A running turn holds KV for, and its decode
	// reads, its whole context. 0 (or at most one turn): every request
	// stands alone, as before. Open-loop requests never carry history.
	SessionTokens int
	// PrefixCaching is vLLM's automatic prefix caching (on by default with
	// the V1 engine): a turn's history is served from the blocks its
	// session's previous turn left cached, where they survive (history.go);
	// off, every turn prefills its whole history; and a request's
	// PrefixHitRate share of its prompt is served from the cache (prefix.go).
	PrefixCaching bool
	// PrefixHitRate is workload.prefix_cache_hit_rate: the share of every
	// prompt a cached prefix serves (prefix.go), read only with
	// PrefixCaching. 0: none (every prompt token is computed, as before).
	PrefixHitRate float64
	// CachedShare is the share of requests whose whole prompt the engine
	// holds in its prefix cache, each request drawn cached or not on its
	// own (a client that sends again prompts it sent before: estimate/pd's
	// PromptReuse, used by the P/D replay only): a cached request computes
	// its prompt's tokens after its last full block below the last token
	// (PromptHit at rate 1), the others their whole prompt, so the new
	// prompts' long steps and the cached ones' short ones interleave in one
	// queue as they did in the client's run. Read only with PrefixCaching.
	// 0: none.
	CachedShare float64
	// Independent makes the DP ranks independent engines, each stepping on
	// its own clock (a dense model's DP ranks: IndependentRanks): a rank
	// schedules its next step when its own step ends, whatever the others
	// run, and Step is called with that rank's load alone (a step model of
	// one rank, DP 1). Requests still reach the ranks through the one
	// front end and DPLB. Without it every rank steps in lock-step.
	Independent bool
}

// MaxSessions bounds Config.Sessions: the simulator keeps every session's
// request in memory, and callers simulate representative ranks with their
// share of the sessions (estimate.Simulate), far fewer than this.
const MaxSessions = 1 << 16

// Percentiles summarises one latency distribution in seconds.
type Percentiles struct {
	Mean float64 `json:"mean_s"`
	P50  float64 `json:"p50_s"`
	P90  float64 `json:"p90_s"`
	P95  float64 `json:"p95_s"`
	P99  float64 `json:"p99_s"`
}

// Result is what one simulation measured.
type Result struct {
	Requests      int         `json:"requests"`
	TTFT          Percentiles `json:"ttft"`
	TPOT          Percentiles `json:"tpot"`
	E2E           Percentiles `json:"e2e"`
	OutputTokPerS float64     `json:"output_tokens_per_s"`
	TotalTokPerS  float64     `json:"total_tokens_per_s"`
	Preemptions   int         `json:"preemptions"`
	Steps         int         `json:"steps"`
	MeanStepS     float64     `json:"mean_step_s"`
	// MeanRunning is the time-averaged number of running sequences over all
	// ranks; MeanWaiting the same for queued ones.
	MeanRunning float64 `json:"mean_running"`
	MeanWaiting float64 `json:"mean_waiting"`
	// MeanKVWaiting is the part of MeanWaiting queued at ranks whose
	// KV pool could not take the next request (not max_num_seqs or the
	// token budget): the load the KV capacity holds back.
	MeanKVWaiting float64 `json:"-"`
	// HistoryReused is the share of the measured turns' history tokens
	// (Config.SessionTokens) their rank found in its prefix cache; the
	// rest was prefilled again. 0 without history.
	HistoryReused float64 `json:"history_reused,omitempty"`
	// PromptCached is the share of the measured requests' prompt tokens
	// served from a cached prefix (Config.PrefixHitRate's whole blocks,
	// and history hits); 0 without Config.PrefixHitRate.
	PromptCached float64 `json:"prompt_cached,omitempty"`
	SimulatedS   float64 `json:"simulated_s"`
	// Stalled is true when the run stopped early because it could not go
	// on: the step model returned a non-positive or infinite duration, or
	// the requests can never be scheduled (larger than the KV cache).
	Stalled bool `json:"stalled,omitempty"`
	// Overloaded is true when the queue outgrew Config.MaxWaiting and the
	// run stopped early: arrivals outpace service.
	Overloaded bool `json:"overloaded,omitempty"`
	// Truncated is true when a run reached its work ceiling (WorkCeiling
	// shares of its budget) before it measured MinMeasured requests: its
	// figures are of fewer requests (Requests, possibly none) and of a run
	// that may not have reached its steady state.
	Truncated bool `json:"truncated,omitempty"`
	// Work is what Replicate spent, in its work budget's units: rank-steps
	// or the simulator's sequence updates (seqUpdatesPerRankStep to a
	// rank-step), whichever is more, as the budget binds. Callers that run
	// many simulations (a load search) budget them by it. Zero for Run.
	Work int64 `json:"-"`
	// Replications is the number of independent runs pooled (Replicate);
	// TTFTCI and TPOTCI are then the 95% confidence intervals of their
	// percentiles.
	Replications int           `json:"replications,omitempty"`
	TTFTCI       PercentileCIs `json:"ttft_ci95,omitzero"`
	TPOTCI       PercentileCIs `json:"tpot_ci95,omitzero"`
	// TTFTQuantiles is the TTFT distribution: element k-1 is the
	// nearest-rank k/CDFPoints quantile (k = 1 … CDFPoints), the last one
	// the slowest request; all zero without measured requests. The HTML
	// report draws it; JSON leaves it out. (An array keeps Result
	// comparable.)
	TTFTQuantiles [CDFPoints]float64 `json:"-"`
	// TTFTParts splits the mean TTFT by where a request spent it.
	TTFTParts TTFTParts `json:"ttft_parts"`
	// TTFTSteps counts, on average, the engine steps the TTFT parts span
	// (an analysis of TTFT under load: estimate/pd's -ttftload).
	TTFTSteps TTFTSteps `json:"-"`
}

// TTFTSteps is the mean, over the measured requests, of the engine steps
// their time to first token spans: QueueS over QueueSteps and PrefillS
// over PrefillSteps are the mean durations of the steps a request waited
// through and rode.
type TTFTSteps struct {
	// QueueSteps are the steps that ran while the request waited in the
	// engine's queue (handed over, not yet scheduled), the one running
	// when it was handed over included.
	QueueSteps float64
	// PrefillSteps are the steps from the one that scheduled its first
	// chunk to the one that sampled its first token, both included.
	PrefillSteps float64
	// ChunkSteps are those of PrefillSteps that ran a chunk of its prompt
	// (the others left it without budget), and ChunkDecodes the mean
	// number of decodes batched with each of them.
	ChunkSteps, ChunkDecodes float64
}

// TTFTParts is the mean TTFT split by where the requests spent it; the
// parts add up to TTFT's mean.
type TTFTParts struct {
	// FrontendS is the API server's share: ingesting the request behind
	// those before it, and streaming the first token out.
	FrontendS float64 `json:"frontend_s"`
	// PromptS is the part of FrontendS spent tokenizing the request's own
	// prompt (Frontend.PromptTokenS per prompt token); the wait behind
	// other requests' prompts is in the rest of FrontendS. Not a part of its
	// own: FrontendS, QueueS and PrefillS add up to the mean TTFT.
	PromptS float64 `json:"prompt_s"`
	// QueueS is the wait in the engine's queue before its first tokens
	// were scheduled (KV space, max_num_seqs, the token budget, the
	// scheduling policy). In a closed loop with more sessions than RunModel
	// simulates, it includes the analytic FIFO wait of the sessions left
	// out (scaleBack), so the parts still add up to the mean.
	QueueS float64 `json:"queue_s"`
	// PrefillS is from the first scheduled chunk to the end of the step
	// that sampled the first token: the prompt's steps, shared with other
	// requests' decodes and chunks (and recomputation after preemption).
	PrefillS float64 `json:"prefill_s"`
}

// CDFPoints is how many quantiles Result.TTFTQuantiles holds.
const CDFPoints = 100

// simReq is one request's state. The fields every step reads of every
// running request come first, together: the loops over the running
// requests then touch fewer cache lines per request.
type simReq struct {
	prompt   int // tokens to prefill (input, or input + output after a preemption)
	done     int // prompt tokens computed so far
	sched    int // tokens scheduled in the current step
	out      int // output tokens produced
	output   int // this request's output length
	ctxExtra int // output tokens in the KV cache since the last (re)prefill
	blocks   int // KV held, in the pool's units (kvModel)
	upto     int // tokens the KV held covers (kvModel.upto)

	arrival, firstTok float64
	ready             float64 // when the front end has handed it to the engine
	// loopStart is when the event loop began its handler, where a
	// tokenizer thread encodes the prompt (Frontend.offLoop; parseAhead).
	loopStart float64
	// front is the rank whose API server ingests it (Frontend.PerRank:
	// the router chose it on arrival, routeToFront).
	front int32
	// pseq breaks ties in the pending heap (pendBefore): the initial
	// requests' sorted positions, then ever lower numbers for pend, so a
	// later-pended request goes ahead of earlier ones due at the same time
	// (the order the sorted-slice insert this heap replaced gave). It sits
	// in the padding after front.
	pseq int32
	// started is when the engine first scheduled the request's tokens,
	// engineTok when the step that sampled its first token ended (both
	// valid once begun / out > 0): TTFT's queue and prefill parts.
	started, engineTok float64
	begun              bool
	// cached is drawn at the request's creation (Config.CachedShare): its
	// whole prompt is in the engine's prefix cache.
	cached  bool
	session int
	input   int // this request's input length
	// hist is the conversation's history the request's prompt starts
	// with (Config.SessionTokens; 0: none).
	hist int
	// readyStep, startStep and tokStep are the engine's step count
	// (simulator.stepN) when the request was handed over, first scheduled
	// and given its first token; chunks counts the steps that ran a chunk
	// of its prompt and rideDecodes the decodes batched with them
	// (Result.TTFTSteps).
	readyStep, startStep, tokStep int
	chunks, rideDecodes           int32
}

// simRank is one DP rank's scheduler state.
type simRank struct {
	running []simReq
	waiting []simReq // FIFO; preempted requests re-enter at the front
	// waitBase is the start of waiting's backing array (pushBack).
	waitBase []simReq
	kvUsed   int // in the pool's units (kvModel)
	// popped counts the pool's units ever allocated from vLLM's free
	// queue (hold; a prefix-cache hit takes none): the clock cached
	// histories are evicted by (history.go).
	popped int
	// kvHeld says the last admission stopped at a request the KV pool
	// could not take (Result.MeanKVWaiting).
	kvHeld bool
	// tokenRatio is SGLang's new_token_ratio on this rank's scheduler
	// (Config.ReserveDecodes; 0 until first used: the initial ratio).
	tokenRatio float64
}

// simulator is the whole run's state.
type simulator struct {
	cfg     Config
	pending []simReq // closed-loop requests not yet arrived: a min-heap by (arrival, pseq)
	// pended counts pend's insertions (their pseq is -pended).
	pended int32
	rng    *rand.Rand
	// pcg is rng's source: emitted draws from it directly (uniform,
	// rng.Float64's arithmetic without the call through rand.Source), the
	// same stream.
	pcg      *pcg
	ranks    []simRank
	loads    []perf.RankLoad
	now      float64
	nextArr  float64
	kv       kvModel
	measured []simRecord
	done     int
	res      Result
	areaRun  float64
	areaWait float64
	busy     float64 // time spent in steps (excludes idle gaps)
	startT   float64
	// paced holds a paced open loop's send times (Config.ClientPacing;
	// nil: drawn as the run goes), fromZero that the run is measured
	// from t = 0.
	paced    []float64
	fromZero bool
	outTok   int
	inTok    int
	sent     int // requests sent so far (for Pool)
	// inFlight counts the open loop's requests sent and not yet finished,
	// and clientQ (backing array clientBase) holds those that arrived
	// while ClientCap were in flight, in order (Config.ClientCap).
	inFlight            int
	peakInFlight        int // the most inFlight reached (tests)
	clientQ, clientBase []simReq
	lengths             *lengthDraw // the log-normal spread's sampler (nil: none)
	// frontEnd is the API servers' state: of the one front end, or, with
	// a front end per DP rank (Frontend.PerRank, frontends.go), of the
	// front end feCur (fronts holds every rank's; useFront).
	frontEnd
	fronts []frontEnd
	feCur  int
	feWork []float64 // deliverSegment's scratch: each front end's work a step
	// lb is the DP load balancer's state (dplb.go; nil: exact balance).
	lb *dplbState
	// router is the external router's state (router.go; nil: none).
	router *routerState
	// deltas (per rank, how a steady step's load grows per step) and
	// scratch (the loads of one step of a segment) serve steady segments.
	deltas  []perf.RankLoad
	scratch []perf.RankLoad
	prefix  []float64 // prefix sums of a segment's first step durations
	// engineClock is the engine's own stepping: of the lock-step group,
	// or, with independent ranks (Config.Independent), of the rank being
	// scheduled or advanced (clocks holds every rank's; enterRank).
	engineClock
	// clocks is every independent rank's engineClock (nil: lock-step),
	// cur the rank whose clock engineClock holds (-1: none).
	clocks []engineClock
	cur    int
	// finished holds an independent rank's finished requests while its
	// step is applied (advanceRank).
	finished []simReq
	// enough, when set, says the run has spent the given fraction of its
	// work share (Replicate): at half of it a warm-up still running ends
	// (measuring starts), at all of it the run ends once MinMeasured
	// requests were measured.
	enough func(frac float64) bool
	// widen, when set, is called once by a run that reached its work
	// ceiling without measuring a request: true when it gave the run a
	// larger share (Replicate's whole budget, which the replications after
	// it would have spent, measuring nothing either), so it goes on; widened
	// records that it did.
	widen   func() bool
	widened bool
	// seqWork counts the simulator's own work: running sequences updated,
	// per step or steady segment.
	seqWork int64
	// emitMean and emitVar are cfg.Spec.emittedMoments(), worked out once:
	// the speculation does not change during a run, and steady segments
	// read them for every decoding request.
	emitMean, emitVar float64
	// keepTTFT asks result to keep the run's TTFTs, sorted, in ttftSorted
	// (Replicate, whose pooled result merges them).
	keepTTFT   bool
	ttftSorted []float64
	// pendingBase is the array pending was made with (simBuffers).
	pendingBase []simReq
	// wave is vLLM's DP wave state (Config.DPWave, dpwave.go).
	wave dpWave
	// sess is every closed-loop session's conversation (nil: requests
	// carry no history; Config.SessionTokens), conv its rule.
	sess []sessState
	conv perf.Conversation
	// areaKVWait integrates the requests waiting at ranks whose last
	// admission stopped for KV (Result.MeanKVWaiting).
	areaKVWait float64
	// histTok and histHit count the history tokens of the turns admitted
	// while measuring, and those found in the prefix cache.
	histTok, histHit int64
	// promptTok and promptHit count the prompt tokens of the requests
	// admitted after the warm-up and those served from the prefix cache
	// (Result.PromptCached), with Config.PrefixHitRate only.
	promptTok, promptHit int64
}

// engineClock is what an engine keeps of its own stepping.
type engineClock struct {
	// stepStart and stepEnd bound the last step run (the last one of a
	// steady segment); lagged says the last schedule left a request waiting
	// only because the step was scheduled before it arrived
	// (Config.ScheduleAhead).
	stepStart, stepEnd float64
	// prevStart is when the step before the last began (stepStart when
	// the last one followed a pause): the cut-off for a request handed to
	// a rank that runs dummy batches beside busy ones (runAheadBy).
	prevStart float64
	lagged    bool
	// outputs counts the requests the step being scheduled gives an output
	// token (its decodes, and the prefills it completes): schedule sets
	// it, deliveryTime reads it (a pass over every request less).
	outputs int
	// stepN counts the engine steps run (a steady segment's m included).
	stepN int
	// lagVal is Config.FirstTokenLag of step lagStep (its stepN + 1; 0:
	// none computed yet), computed once a step.
	lagVal  float64
	lagStep int
	// recvCount is the recv skipper's counter (Config.RecvInterval),
	// recvAt the time of its last poll (requests ready after it stay
	// unseen), lastPrefill whether the last step ran prefill work.
	recvCount   int
	recvAt      float64
	lastPrefill bool
	// inStep says an independent rank's step is running (until stepEnd).
	inStep bool
}

// MinMeasured is the fewest requests a run measures after its warm-up
// when a work budget ends it early: below it a tail percentile says little
// (the replications' interval shows how little).
const MinMeasured = 100

// WorkCeiling is how many work shares a budgeted run may spend reaching
// MinMeasured (or finishing a finite run): past it the run ends with what
// it measured (Result.Truncated). Completions are what a run measures, and
// some deployments complete almost none in a share — a million-token
// output under recompute preemption took 24 shares to measure its floor
// (2.3 s), a burst of 3,000 such requests 20 s — so the floor alone left a
// check's cost unbounded. Two shares keep a check's worst case (three
// scenarios' replications and open-loop capacity runs at the ceiling, the
// load searches' budget) near 2 s of CPU on two cores; 4 doubled it. Runs
// that reach the floor in time (every golden and calibration scenario)
// are not affected.
const WorkCeiling = 2

// maxRecordsUpFront bounds the records a simulator makes room for before
// it runs (48 bytes each); beyond it the slice grows as it fills.
const maxRecordsUpFront = 4096

type simRecord struct {
	ttft, tpot, e2e float64
	// parts splits ttft: the front end (ingest, then the first token's
	// delivery), the engine's queue, and the prefill steps; prompt is the
	// front end's work on the request's own prompt tokens (in frontend).
	frontend, queue, prefill, prompt float64
	// steps are the engine steps the queue and prefill parts span
	// (TTFTSteps).
	queueSteps, prefillSteps, chunks, rideDecodes int32
}

// Run runs the simulation; it is deterministic for a given Seed.
func Run(cfg Config) Result {
	s := newSimulator(cfg)
	s.run()
	return s.result()
}

func newSimulator(cfg Config) *simulator { return newSimulatorIn(cfg, nil) }

// simBuffers are a finished run's queues (its ranks' running and waiting
// requests, its pending and ingest queues), which the next replication
// (Replicate) fills again instead of growing new ones: they held most of
// a check's allocations. Their old contents are never read.
type simBuffers struct {
	ranks           []simRank
	pending, ingest []simReq
}

// buffers hands over s's queues; s must not run again.
func (s *simulator) buffers() *simBuffers {
	return &simBuffers{ranks: s.ranks, pending: s.pendingBase, ingest: s.ingestBase}
}

// newSimulatorIn is newSimulator reusing b's queues (nil: none).
func newSimulatorIn(cfg Config, b *simBuffers) *simulator {
	cfg.Sessions = min(cfg.Sessions, MaxSessions)
	cfg.DP = max(1, cfg.DP)
	cfg.MaxNumSeqs = max(1, cfg.MaxNumSeqs)
	cfg.MaxNumBatchedTokens = max(1, cfg.MaxNumBatchedTokens)
	cfg.OutputTokens = max(1, cfg.OutputTokens)
	cfg.InputTokens = max(1, cfg.InputTokens)
	if cfg.Pool > 0 {
		cfg.Warmup, cfg.Requests = 0, cfg.Pool
		cfg.Sessions = min(cfg.Sessions, cfg.Pool)
	}
	src := newPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)
	s := &simulator{cfg: cfg, rng: rand.New(src), pcg: src,
		loads: make([]perf.RankLoad, cfg.DP), frontEnd: frontEnd{roundStart: math.Inf(-1)}, cur: -1}
	if b != nil && cap(b.ranks) >= cfg.DP {
		s.ranks = b.ranks[:cfg.DP]
		for i := range s.ranks {
			rk := &s.ranks[i]
			*rk = simRank{running: rk.running[:0], waiting: rk.waitBase[:0], waitBase: rk.waitBase[:0]}
		}
		s.ingest, s.ingestBase = b.ingest[:0], b.ingest[:0]
	} else {
		s.ranks = make([]simRank, cfg.DP)
	}
	if cfg.Independent && cfg.DP > 1 {
		s.clocks = make([]engineClock, cfg.DP)
	}
	s.emitMean, s.emitVar = cfg.Spec.emittedMoments()
	if cfg.Router.Active() && cfg.DP > 1 {
		s.router = newRouterState(cfg.Router, cfg.Sessions, cfg.Seed)
	} else if cfg.DPLB.Clients > 0 && cfg.DP > 1 {
		s.lb = newDPLB(cfg.DPLB, cfg.DP, cfg.Seed)
	}
	s.startFronts()
	if cfg.Spread.Log.active() {
		d := newLengthDraw(cfg.Spread.Log, cfg.InputTokens, max(1, cfg.OutputTokens))
		s.lengths = &d
	}
	// Room for the measured records up front (growing the slice was a
	// tenth of a check's allocations); a run cut short leaves some unused.
	s.measured = make([]simRecord, 0, min(max(1, cfg.Requests), maxRecordsUpFront))
	s.kv = newKVModel(cfg)
	s.startConversations()
	if b != nil && cap(b.pending) >= cfg.Sessions {
		s.pending = b.pending[:0]
	} else {
		s.pending = make([]simReq, 0, max(0, cfg.Sessions))
	}
	s.pendingBase = s.pending
	for i := 0; i < cfg.Sessions; i++ {
		at := s.rng.Float64() * cfg.StaggerS
		if cfg.EvenStagger {
			at = float64(i) / float64(cfg.Sessions) * cfg.StaggerS
		}
		s.pending = append(s.pending, s.newReq(at, i))
		s.sent++
	}
	slices.SortFunc(s.pending, func(a, b simReq) int { return cmp.Compare(a.arrival, b.arrival) })
	for i := range s.pending { // a sorted slice is already a heap
		s.pending[i].pseq = int32(i)
	}
	s.nextArr = math.Inf(1)
	if cfg.Sessions == 0 && cfg.ArrivalRatePerS > 0 {
		s.startPacing()
		s.nextArr = s.firstArrival()
	}
	return s
}

// startPacing draws a paced finite open loop's send times up front
// (Config.ClientPacing): Pool gaps from their own RNG, summed, rescaled so
// the last is Pool / rate; the run is measured from t = 0.
func (s *simulator) startPacing() {
	if !s.cfg.ClientPacing || s.cfg.Pool <= 0 {
		return
	}
	rng := rand.New(rand.NewPCG(s.cfg.Seed^0x5851f42d4c957f2d, s.cfg.Seed+0x14057b7ef767814f))
	t := make([]float64, s.cfg.Pool)
	sum := 0.0
	for i := range t {
		sum += s.gap(rng)
		t[i] = sum
	}
	if sum > 0 {
		k := float64(s.cfg.Pool) / s.cfg.ArrivalRatePerS / sum
		for i := range t {
			t[i] *= k
		}
	}
	s.paced, s.fromZero = t, true
}

// firstArrival is the open loop's first send time.
func (s *simulator) firstArrival() float64 {
	if s.paced != nil {
		return s.paced[0]
	}
	return s.interArrival()
}

// nextSend is the open loop's send time after the one just sent (+Inf:
// the pool is spent).
func (s *simulator) nextSend() float64 {
	next := math.Inf(1)
	switch {
	case s.paced == nil:
		next = s.nextArr + s.interArrival() // drawn even past the pool's end, as before pacing
	case s.sent < len(s.paced):
		next = s.paced[s.sent]
	}
	if !s.more() {
		return math.Inf(1)
	}
	return next
}

// interArrival draws the time to the open loop's next arrival:
// exponential (Poisson arrivals), or gamma with shape Config.Burstiness
// and the same mean.
func (s *simulator) interArrival() float64 { return s.gap(s.rng) }

// gap is interArrival drawn from rng.
func (s *simulator) gap(rng *rand.Rand) float64 {
	b := s.cfg.Burstiness
	if b <= 0 || b == 1 {
		return rng.ExpFloat64() / s.cfg.ArrivalRatePerS
	}
	return gammaUnit(rng, b) / (b * s.cfg.ArrivalRatePerS)
}

// gammaUnit draws from the gamma distribution of shape a > 0 and scale 1
// (mean a, variance a): Marsaglia and Tsang's squeeze method ("A simple
// method for generating gamma variables", ACM TOMS 26(3), 2000) for
// a ≥ 1, and for a < 1 their boost, gamma(a+1) × U^(1/a).
func gammaUnit(rng *rand.Rand, a float64) float64 {
	boost := 1.0
	if a < 1 {
		boost = math.Pow(1-rng.Float64(), 1/a) // U in (0, 1]
		a++
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * boost
		}
	}
}

// send passes an open-loop request that arrived at r.arrival to the
// server, or, with ClientCap requests in flight, to the client's queue
// (Config.ClientCap).
func (s *simulator) send(r simReq) {
	if c := s.cfg.ClientCap; c > 0 {
		if s.inFlight >= c {
			s.clientQ = pushBack(&s.clientBase, s.clientQ, r)
			return
		}
		s.inFlight++
		s.peakInFlight = max(s.peakInFlight, s.inFlight)
	}
	s.arrive(r)
}

// freeSlot is an open-loop request finishing at t under a ClientCap: its
// slot goes to the first request in the client's queue, sent at t.
func (s *simulator) freeSlot(t float64) {
	s.inFlight--
	if len(s.clientQ) == 0 {
		return
	}
	r := s.clientQ[0]
	s.clientQ = popFront(s.clientQ, 1)
	r.arrival = t
	s.inFlight++
	s.arrive(r)
}

// newReq is a request sent at t by session (-1: open loop), with its
// lengths drawn per RangeRatio.
func (s *simulator) newReq(t float64, session int) simReq {
	in, out := s.cfg.InputTokens, s.cfg.OutputTokens
	if s.lengths != nil {
		in, out = s.lengths.draw(s.rng.NormFloat64)
	} else if sp := s.cfg.Spread; sp.active() {
		in = s.draw(in, sp)
		out = s.draw(out, sp.output())
	}
	r := simReq{arrival: t, session: session, prompt: in, input: in, output: out}
	if s.cfg.CachedShare > 0 && s.cfg.PrefixCaching {
		r.cached = s.rng.Float64() < s.cfg.CachedShare
	}
	if s.sess != nil && session >= 0 {
		s.nextTurn(&r)
	}
	return r
}

// Spread is a spread of request lengths around the configured ones:
// uniform over [Lo, Hi] as fractions of them, or, when Log is active, a
// filtered log-normal whose means are them.
type Spread struct {
	Lo, Hi float64
	// OutLo, OutHi, when OutHi > 0, are the output lengths' own bounds
	// (Lo, Hi hold for the input only): a run whose two published mean
	// lengths sit at different fractions of their common nominal cap.
	OutLo, OutHi float64
	Log          LogNormal
}

// output is the spread the output lengths are drawn from.
func (sp Spread) output() Spread {
	if sp.OutHi > 0 {
		return Spread{Lo: sp.OutLo, Hi: sp.OutHi}
	}
	return sp
}

// ConversationSpread is the spread a replay gives a conversation dataset
// (ShareGPT) whose per-request lengths are not published: log-normal with
// ConversationSigma around the published means, cut by the benchmark
// clients' ShareGPT filter. (Until December 2026 it was uniform over
// [0, 2] × the mean, which keeps the mean but not the tail that sets how
// long a burst runs.)
var ConversationSpread = Spread{Log: LogNormal{Sigma: ConversationSigma, MinLen: ShareGPTFilter.MinLen,
	MaxInput: ShareGPTFilter.MaxInput, MaxTotal: ShareGPTFilter.MaxTotal}}

// UniformSpread is the uniform spread with the coefficient of variation cv
// (standard deviation over mean) of measured request lengths: half-width
// √3·cv around the mean, cut at zero (where the cut raises the mean a
// little). cv ≤ 0 gives no spread.
func UniformSpread(cv float64) Spread {
	if !(cv > 0) {
		return Spread{}
	}
	h := math.Sqrt(3) * cv
	return Spread{Lo: max(0, 1-h), Hi: 1 + h}
}

func (sp Spread) active() bool { return sp.Log.active() || (sp.Hi > sp.Lo && sp.Hi > 0) }

// draw is a length uniform in [ceil(n × Lo), floor(n × Hi)], at least 1.
func (s *simulator) draw(n int, sp Spread) int {
	lo := max(1, int(math.Ceil(float64(n)*sp.Lo)))
	hi := max(lo, int(float64(n)*sp.Hi))
	return lo + s.rng.IntN(hi-lo+1)
}

// more reports whether the run may send another request.
func (s *simulator) more() bool { return s.cfg.Pool <= 0 || s.sent < s.cfg.Pool }

// arrive passes a request sent at r.arrival through the front end: it
// reaches the engine when the front end has ingested it.
func (s *simulator) arrive(r simReq) {
	r.ready = r.arrival
	if !s.cfg.Frontend.active() {
		s.enqueue(r)
		return
	}
	s.routeToFront(&r)
	if s.cfg.Frontend.offLoop() {
		s.arriveOffLoop(&r)
		s.ingest = pushBack(&s.ingestBase, s.ingest, r) // ready times do not decrease
		return
	}
	w := s.cfg.Frontend.ingestS(r.input + r.hist) // the whole prompt, history included
	if !s.cfg.Frontend.Rounds {
		s.feFree = max(s.feFree, r.arrival) + w
		// its own process's whole ingest; never before the requests ahead
		// of it (handOver takes them in order)
		r.ready = max(s.feFree+s.cfg.Frontend.apiServerLatency(w)+s.cfg.Frontend.ReadyDelayS, s.lastReady)
		s.lastReady = r.ready
		s.ingest = pushBack(&s.ingestBase, s.ingest, r) // the front end's queue runs in order
		return
	}
	r.ready = s.joinRound(r.arrival, w) + s.cfg.Frontend.ReadyDelayS
	s.ingest = pushBack(&s.ingestBase, s.ingest, r) // a round ends no earlier than the ones before it
	s.openN++
}

// joinRound queues the ingest of a request that arrived at t, w seconds
// of front-end work, on the API server's event loop and returns when the
// request reaches the engine: when the round it runs in ends. The loop
// (CPython's asyncio BaseEventLoop._run_once) runs, in each pass, every
// callback that was ready when the pass began; what becomes ready
// meanwhile waits for the next pass. A request's handler parses its chat
// template and renders its prompt synchronously, then awaits the
// tokenizer, so it goes on to the engine only after every handler of its
// pass has run: a request that arrived by the start of the latest round
// joins it, a later one starts a new round once the work queued before it
// is done (at once on an idle loop). So the handlers of a burst's
// requests, ready together, all parse before any of them reaches the
// engine, and the median TTFT of a 1,000-prompt burst is its mean.
// Outputs are not rounds' members: they queue in order (deliveryTime).
func (s *simulator) joinRound(t, w float64) float64 {
	if s.openN == 0 || t > s.roundStart {
		s.closeRound()
		s.roundStart = max(t, s.feFree)
		s.roundEnd = s.roundStart
	}
	s.roundEnd += w
	s.feFree = max(s.feFree, s.roundStart) + w
	return s.roundEnd
}

// settleRound gives the latest round's requests its end, as it stands, as
// their ready time.
func (s *simulator) settleRound() {
	for i := len(s.ingest) - s.openN; i < len(s.ingest); i++ {
		s.ingest[i].ready = s.roundEnd
	}
}

// closeRound settles the latest round for good: no more requests join it.
func (s *simulator) closeRound() {
	s.settleRound()
	s.openN = 0
}

// handOver moves every ingested request whose front-end work is done by
// now to the engine.
func (s *simulator) handOver() {
	if s.fronts == nil {
		s.handOverFront()
		return
	}
	for g := range s.fronts {
		s.useFront(g)
		s.handOverFront()
	}
}

// handOverFront is handOver for the front end in use.
func (s *simulator) handOverFront() {
	if s.openN > 0 {
		s.settleRound()
		if s.now > s.roundStart { // what is ready from now on starts a later round
			s.openN = 0
		}
	}
	n := 0
	for n < len(s.ingest) && s.ingest[n].ready <= s.now {
		s.enqueue(s.ingest[n])
		n++
	}
	s.ingest = popFront(s.ingest, n)
	s.dropHandedOver()
	s.openN = min(s.openN, len(s.ingest)) // a round without work hands its requests over as it starts
}

// shiftBelow is the queue length up to which popFront moves what is left
// to the front of the backing array rather than reslicing past it.
const shiftBelow = 16

// popFront drops q's first n requests. A short remainder (the usual
// queue) moves to the front, so the next append or insert reuses the
// backing array instead of allocating a new one every few requests; a
// long one is resliced (appends then grow it by doubling, amortised). The
// order of the requests, and so the run, is the same either way.
func popFront(q []simReq, n int) []simReq {
	if n == 0 {
		return q
	}
	if rest := len(q) - n; rest <= shiftBelow {
		copy(q, q[n:])
		return q[:rest]
	}
	return q[n:]
}

// pushBack appends r to q, a queue popFront takes from, whose backing
// array starts at *base: a full q with at least as much room before it as
// it holds moves to the start of the array instead of growing into a new
// one (popFront leaves the front of a long queue behind; appending to
// its shrinking tail reallocated the queue over and over). *base follows
// q to a new array when append makes one. Only where the requests sit in
// memory changes.
func pushBack(base *[]simReq, q []simReq, r simReq) []simReq {
	if n := len(q); n > 0 && n == cap(q) {
		if b := *base; cap(b) >= 2*n && sameEnd(b, q) {
			q = b[:copy(b[:n], q)]
		}
	}
	q = append(q, r)
	if !sameEnd(*base, q) {
		*base = q[:0]
	}
	return q
}

// sameEnd says a and b end at the same element of one backing array.
func sameEnd(a, b []simReq) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1]
}

// enqueue hands a request to the DP rank with the fewest requests (vLLM's
// DP coordinator balances by queue lengths), the lowest index on ties; or
// as vLLM's DP load balancer (s.lb) or an external router (s.router,
// router.go) routes it.
func (s *simulator) enqueue(r simReq) {
	best, bestN := 0, math.MaxInt
	switch {
	case s.fronts != nil:
		best = int(r.front) // routed when it arrived, to its rank's API server (routeToFront)
	case s.router != nil:
		best = s.router.routeRank(&r, s.rankLoad, len(s.ranks))
	case s.lb != nil:
		best = s.lb.pick()
	default:
		for i := range s.ranks {
			if n := len(s.ranks[i].running) + len(s.ranks[i].waiting); n < bestN {
				best, bestN = i, n
			}
		}
	}
	if s.clocks != nil {
		// An independent rank is handed the request when it is ready: it
		// waits through the rank's step in flight, if one is (counted in
		// stepN from its start).
		c := s.clockOf(best)
		r.readyStep = c.stepN
		if c.inStep {
			r.readyStep--
		}
	} else {
		r.readyStep = s.stepN
		if r.ready < s.now && s.stepN > 0 {
			r.readyStep-- // handed over while a step ran: it waited through that one too
		}
	}
	rk := &s.ranks[best]
	rk.waiting = pushBack(&rk.waitBase, rk.waiting, r)
}
