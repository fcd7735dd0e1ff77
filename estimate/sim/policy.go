package sim

import "github.com/vlaunch/vlaunch/vllm"

// Policy is how an engine's scheduler fills a step: which of the running
// decodes and the waiting prompts it runs, and whether prompts are chunked.
type Policy int

// Scheduling policies of the engines the simulator reproduces.
const (
	// DecodeFirst is vLLM V1 (and V0 with chunked prefill): every step
	// first gives each running request its next token(s) — decodes, then
	// partially prefilled prompts — then admits waiting requests while the
	// max_num_batched_tokens budget and max_num_seqs allow, chunking the
	// last prompt to the budget. (vllm/v1/core/sched/scheduler.py: "First,
	// schedule the RUNNING requests" / "Next, schedule the WAITING
	// requests".) Two of vLLM's rules are not reproduced: it admits no
	// waiting request in a step that preempted one (`if not
	// preempted_reqs`), and a running request whose next chunk finds no
	// room preempts the newest running request, itself when it is the
	// newest, where the simulation lets a chunk without room wait with
	// what it has computed. Tried 2026-12-06 (session 29): the first
	// moved no published figure and made KV-limited runs step ~2× more
	// often; the second recomputes the whole preempted prompt, which
	// prefix caching (on by default in V1) mostly saves, since the freed
	// blocks keep their hashes at the free queue's tail until reused —
	// charged in full it made the 32K-prompt bursts 1.4–2× slower
	// (DeepSeek-R1 on H200 from −22% to −32% in output tok/s), so waiting
	// is the nearer of the two without a model of that cache.
	DecodeFirst Policy = iota
	// PrefillFirst is SGLang's scheduler: when prompts wait (or one is
	// being chunked) a step runs only prefill work — the chunked request
	// first, then waiting prompts — up to max_num_batched_tokens
	// (chunked_prefill_size); running decodes wait for a step without
	// prefill work. (python/sglang/srt/managers/scheduler.py,
	// get_next_batch_to_run: "Run prefill first if possible".)
	PrefillFirst
	// PrefillFirstWhole is vLLM V0's default scheduler without chunked
	// prefill: a step admits whole prompts while they fit the budget
	// (max_num_batched_tokens, at least max_model_len) and then runs no
	// decodes (vllm/core/scheduler.py, _schedule_default: "Don't schedule
	// decodes if prefills are scheduled").
	PrefillFirstWhole
)

var policyNames = map[Policy]string{DecodeFirst: "decode-first (chunked prefill)",
	PrefillFirst: "prefill-first (chunked prefill)", PrefillFirstWhole: "prefill-first (whole prompts)"}

// String names the policy for reports.
func (p Policy) String() string { return policyNames[p] }

// Frontend is the work of the serving front end (API server, tokenizer,
// detokenizer) that is not part of an engine step: one process serving
// requests in the order work arrives. Ingesting a request (HTTP, chat
// template, hand-off to the engine) costs RequestS, plus ChatTemplateS where
// the release parses the chat template on every chat request, and
// tokenizing its prompt PromptTokenS per prompt token, before the engine
// sees it; delivering a step's outputs (detokenization and one streamed
// chunk per token) costs TokenS per token and holds the tokens until it is
// done. All of it delays what a benchmark client measures (TTFT, TPOT, the
// next closed-loop request) without slowing the engine, which keeps
// stepping; a burst's ingest work is queued ahead of the outputs of its
// first steps, and a request arriving mid-run holds the running streams'
// next tokens for its ingest work (vLLM's API server does both on one
// event loop: the inter-token tail a chat-template parse leaves).
type Frontend struct {
	RequestS     float64
	PromptTokenS float64
	TokenS       float64
	// ChatTemplateS is the release's per-request parse of the chat template
	// (vllm.Release.ChatTemplateParse; 0 on the completions endpoint and on
	// releases that cache it).
	ChatTemplateS float64
	// Rounds: a request's handler suspends after its synchronous ingest
	// (awaiting the tokenizer thread) and hands the request to the engine
	// only in a later pass of the event loop, so requests that arrive
	// together reach the engine together, when the whole pass has run
	// (vllm.IngestAwaitsTokenizer; joinRound). Without it each request
	// reaches the engine as soon as its own ingest is done.
	Rounds bool
	// Servers is how many API-server processes the costs above were
	// spread over (each cost is already its share: the whole cost over
	// Servers; 0 or 1: one process). With UseAPIServerLatency a request
	// still reaches the engine only after its whole ingest on the one
	// process that serves it (apiServerLatency; not with Rounds, whose
	// passes model one process's event loop).
	Servers int
	// PerRank gives every DP rank a front end of its own (frontends.go):
	// behind an external router (Config.Router) each rank is a `vllm
	// serve --data-parallel-rank R` with its own API server(s), and the
	// costs above are then one rank's front end's (over Servers, its
	// processes). Without a router it does nothing.
	PerRank bool
	// ReadyDelayS is a latency between a request's ingest and its
	// hand-off to the engine that does not occupy the front end: the
	// tokenizer's micro-batching wait (perf.TokenizerBatchWait).
	ReadyDelayS float64
	// Tokenizer is where the release encodes the prompt
	// (vllm.PromptTokenizerOf, perf.PromptTokenizer): on the event loop,
	// PromptTokenS per token inside each request's ingest (the zero
	// value), or on a tokenizer thread beside the loop (tokenizer.go):
	// the loop's share of the ingest is RequestS and ChatTemplateS, and the
	// encode runs after it on the thread — one prompt after another
	// (TokenizeThread) or in micro-batches (TokenizeMicrobatch: the
	// prompts that reach the batcher within ReadyDelayS of the first, up
	// to vllm.TokenizerMaxBatch, encoded in parallel). Not with Rounds,
	// whose passes keep the encode in the loop's pass.
	Tokenizer vllm.PromptTokenizer
}

// UseAPIServerLatency makes a request's own ingest take its whole cost,
// not its share, where the front end is several API-server processes
// (Frontend.Servers > 1). vLLM's --api-server-count N starts N processes
// that share one listening socket, each a whole OpenAI server with its own
// engine client (vllm-project/vllm@78265ccd vllm/entrypoints/cli/serve.py
// run_multi_api_server: setup_server's one socket handed to every
// APIServerProcessManager worker): the kernel gives a connection to one
// process, which parses, renders and tokenizes that request alone. So N
// processes ingest N times as many requests a second — the shared queue
// with each cost over N models that — but one request on an idle front end
// still waits for its whole ingest, N times its share. Off, the
// simulation delays it by its share only (the cost over N), as if the N
// processes split one request between them.
var UseAPIServerLatency = true

// apiServerLatency is how much later than its share of the shared queue a
// request reaches the engine when w, its share, is one of n processes'
// ingest: the rest of its own process's work, (n − 1) × w. A lone request
// then takes its whole cost n × w; under load the wait in the shared queue
// (drained n times as fast) comes on top, as it does for n servers in
// heavy traffic; between the two limits this over-states by at most the
// other requests' shares that an idle process would not have waited for.
func (f Frontend) apiServerLatency(w float64) float64 {
	if !UseAPIServerLatency || f.Servers <= 1 {
		return 0
	}
	return float64(f.Servers-1) * w
}

// servers is the factor from a cost's share to its whole on one process.
func (f Frontend) servers() float64 {
	if !UseAPIServerLatency || f.Servers <= 1 {
		return 1
	}
	return float64(f.Servers)
}

// active reports whether the front end costs anything.
func (f Frontend) active() bool {
	return f.RequestS > 0 || f.PromptTokenS > 0 || f.TokenS > 0 || f.ChatTemplateS > 0 || f.ReadyDelayS > 0
}

// offLoop reports whether prompts are encoded on a tokenizer thread beside
// the event loop (Tokenizer), not inside each request's ingest.
func (f Frontend) offLoop() bool {
	return f.Tokenizer != vllm.TokenizeOnLoop && !f.Rounds && f.PromptTokenS > 0
}

// loopS is the event loop's own work on a request before its prompt is
// handed to the tokenizer thread (offLoop): the ingest without the encode.
func (f Frontend) loopS() float64 { return f.RequestS + f.ChatTemplateS }

// turnS is the front end's serialized work a request of input prompt
// tokens adds to a stream of them: its whole ingest where the loop encodes
// it; beside a tokenizer thread the slower of the loop's share and the
// thread's, the thread's a micro-batch's encode over the prompts it holds
// (vllm.TokenizerMaxBatch, encoded in parallel: tokenizer.go).
func (f Frontend) turnS(input int) float64 {
	if !f.offLoop() {
		return f.ingestS(input)
	}
	enc := f.PromptTokenS * float64(input)
	if f.Tokenizer == vllm.TokenizeMicrobatch {
		enc /= vllm.TokenizerMaxBatch
	}
	return max(f.loopS(), enc)
}

// ingestS is the front end's own work on a request with input prompt
// tokens before the engine may see it.
func (f Frontend) ingestS(input int) float64 {
	return f.RequestS + f.ChatTemplateS + f.PromptTokenS*float64(input)
}
