package logs

import "bytes"

// A failure's phase is decided from evidence, not assumed to be the
// start-up: some lines exist only once a server (or its engine) is up.
//
//   - the API server's "Starting vLLM API server", uvicorn's "Application
//     startup complete", the periodic "Avg prompt throughput" (phServing's
//     rule, phaseRules);
//   - "AsyncLLM output_handler failed": vllm/v1/engine/async_llm.py starts
//     the output handler in AsyncLLM.__init__ after
//     EngineCoreClient.make_async_mp_client returned, i.e. after the engine
//     cores answered their start-up handshake, and it fails when an engine
//     core dies (EngineDeadError from get_output_async);
//   - "EngineCore encountered a fatal error", and run_busy_loop /
//     _process_engine_step frames: vllm/v1/engine/core.py run_engine_core
//     (vllm-project/vllm@00080ee13c7a, the same branch in the 0.11 and later
//     copies the fixtures show) constructs EngineCoreProc (model, KV cache,
//     CUDA graphs, handshake), then calls run_busy_loop; an exception logs
//     "EngineCore failed to start." while engine_core is None and
//     "EngineCore encountered a fatal error." once it is not;
//   - request lines: "Received request …" (the front-end's request log),
//     "Added request …" (the engine's), a client's POST to /v1/.
//
// Lines that exist only during the start-up say the opposite (startup
// evidence): the wrappers "EngineCore failed to start" (engine_core still
// None, above), "Engine core initialization failed", "WorkerProc failed to
// start", and traceback frames of functions only the start-up runs — a
// model class's __init__ (the model is built once, at load), the model
// loader, the weights' post-processing (process_weights_after_loading, the
// Marlin repack), the memory profile, the KV cache's set-up, the warm-up
// and the CUDA graph capture. A failure before any phase line with neither
// kind of evidence has no known phase, and the report says so.
type runtimeEvidence struct {
	at   lineRef
	what string
}

// runtimeMarkers are the lines above other than phServing's, with what
// each shows.
var runtimeMarkers = []struct{ anchor, what string }{
	{"AsyncLLM output_handler failed", "the front-end's output handler failed (AsyncLLM runs it only once its engines have started)"},
	{"EngineCore encountered a fatal error", "\"EngineCore encountered a fatal error\" (vLLM logs it only for an engine core that finished starting)"},
	{", in run_busy_loop", "the traceback runs through the engine core's busy loop (run_busy_loop), which starts after start-up"},
	{", in _process_engine_step", "the traceback runs through an engine step (_process_engine_step), which runs after start-up"},
	{"Received request ", "a request was received"},
	{"Added request ", "a request was added to the engine"},
	{"\"POST /v1/", "a client request was served"},
}

// startupFrames are the frames (", in NAME") of functions only a start-up runs.
var startupFrames = []string{", in load_model", ", in load_weights", ", in initialize_model", ", in process_weights_after_loading",
	"marlin_repack", ", in _initialize_kv_caches", ", in determine_available_memory", ", in profile_run",
	", in compile_or_warm_up_model", ", in kernel_warmup", ", in initialize_from_config", ", in init_device", ", in capture_model"}

// framePhase is the start-up phase a frame of startupFrames shows the
// process in: loading the model (gpu_worker.py load_model →
// model_loader load_model → load_weights), the weights' post-processing
// after it (process_weights_after_loading, phPostLoad), profiling
// (determine_available_memory → profile_run), the KV cache's set-up
// (_initialize_kv_caches → initialize_from_config), the CUDA graph capture.
var framePhase = map[string]phase{"load_model": phLoading, "load_weights": phLoading, "initialize_model": phLoading,
	"process_weights_after_loading": phPostLoad, "determine_available_memory": phProfiling, "profile_run": phProfiling,
	"_initialize_kv_caches": phKVCache, "initialize_from_config": phKVCache, "capture_model": phCUDAGraphs}

// startupWrappers are the messages that say a start-up failed.
var startupWrappers = []string{"EngineCore failed to start", "Engine core initialization failed", "WorkerProc failed to start",
	"WorkerProc initialization failed"}

func runtimeRules() []rule {
	rs := []rule{
		r(startupFrames, `^File ".*", line \d+, in \w+`, func(c *ctx, _ [][]byte) {
			fn := c.l.msg[bytes.LastIndex(c.l.msg, []byte(", in "))+5:]
			c.sawStartup("the traceback runs through a start-up step (in " + clip(string(fn), 60) + ")")
			if ph, ok := framePhase[string(fn)]; ok && ph > c.p.framePh && c.l.level != 'I' && c.l.level != 'W' && c.l.level != 'D' {
				c.p.framePh = ph
			}
		}),
		// A model class's constructor, and the model loader's code.
		r([]string{"/model_executor/models/", "/model_executor/model_loader/"}, `^File ".*/model_executor/(?:models/.*", line \d+, in __init__|model_loader/.*", line \d+, in \w+)$`, func(c *ctx, _ [][]byte) {
			c.sawStartup("the traceback runs through building or loading the model (" + clip(string(c.l.msg), 120) + ")")
		}),
		r(startupWrappers, "", func(c *ctx, _ [][]byte) {
			if !c.l.indent {
				c.sawStartup("the log says the start-up failed (\"" + clip(string(c.l.msg), 60) + "\")")
			}
		}),
	}
	for _, m := range runtimeMarkers {
		what := m.what
		rs = append(rs, r(one(m.anchor), "", func(c *ctx, _ [][]byte) { c.sawRuntime(what) }))
	}
	return rs
}

// sawRuntime keeps the first line of the start-up (attempt) that shows it
// running.
func (c *ctx) sawRuntime(what string) {
	if c.r.runtime == nil {
		c.r.runtime = &runtimeEvidence{at: lineRef{c.p.file, c.l.no}, what: what}
	}
}

// sawStartup keeps the first line of the attempt that shows it starting.
func (c *ctx) sawStartup(what string) {
	if c.r.startup == nil {
		c.r.startup = &runtimeEvidence{at: lineRef{c.p.file, c.l.no}, what: what}
	}
}

// startupFor is the evidence that p's attempt was starting, or nil.
func (a *analyzer) startupFor(p *proc) *runtimeEvidence {
	if rn := a.runOfProc(p); rn.attempt == p.attempt {
		return rn.startup
	}
	return nil
}

// runtimeFor is the evidence that p's server was running, when the log has
// it for p's attempt and it came at or before at — or later, when p had
// logged no start-up phase of its own (unknown says so) and nothing shows
// the attempt starting (startupFor): an engine whose start-up phase is
// known failed in that phase.
func (a *analyzer) runtimeFor(p *proc, at lineRef, unknown bool) *runtimeEvidence {
	rn := a.runOfProc(p)
	if rn.attempt != p.attempt || rn.runtime == nil {
		return nil
	}
	if ev := rn.runtime; unknown && rn.startup == nil || ev.at.file == at.file && ev.at.no <= at.no {
		return ev
	}
	return nil
}

// evidenceText says what the evidence is (not its line: a message stays
// the same however the log was pasted, TestPasteForms).
func (a *analyzer) evidenceText(ev *runtimeEvidence) string {
	return ev.what
}
