package vllm

// Which per-request host work runs in series with the GPU step, per
// release (issue #28, mixsched45 lead; branch hostser45, read 2026-12-08
// in the release trees of the vLLM mirror at tags v0.11.0, v0.15.0,
// v0.20.0 and v0.24.0). Complements facts_async_overlap.go, which was
// read on main.
//
// Evidence (same structure at every tag read; line numbers per tag):
//   - vllm/v1/engine/core.py step_with_batch_queue (v0.11.0:300,
//     v0.15.0:410, v0.20.0:443, v0.24.0:519): schedule() for the new
//     batch, execute_model(non_block=True), sample_tokens(non_block=True),
//     appendleft to the queue and return without blocking while the queue
//     is not full (v0.15.0:464-470); only then pop the oldest batch, block
//     on future.result() (v0.11.0:347, v0.15.0:486, v0.20.0:521,
//     v0.24.0:595) and run scheduler.update_from_output (v0.11.0:349,
//     v0.15.0:496, v0.20.0:531, v0.24.0:605). So update_from_output(N),
//     schedule(N+2) and the runner's _update_states/_prepare_inputs and
//     launches for N+2 all run while the GPU executes N+1.
//   - vllm/v1/worker/gpu_model_runner.py AsyncGPUModelRunnerOutput
//     (v0.11.0:130, v0.15.0:197, v0.20.0:227, v0.24.0:242): get_output
//     waits on async_copy_ready_event (the D2H of sampled ids), not on the
//     next step. synchronize_input_prep (prepare_inputs_event.synchronize,
//     v0.15.0:2971, v0.20.0:3494, v0.24.0:3763) waits only for the prior
//     step's H2D copy out of reused pinned buffers, not its forward pass.
//   - EngineCore.step (v0.11.0:272, v0.15.0:369, v0.20.0:402,
//     v0.24.0:479), used when async scheduling is off: schedule, execute,
//     block, update_from_output — every per-request part is in series.
//   - Default: v0.11.0 vllm/config/scheduler.py:138 async_scheduling =
//     False (EXPERIMENTAL); v0.15.0 scheduler.py:133 default None, set True
//     by vllm/config/vllm.py:622 unless a feature turns it off (601-620);
//     v0.20.0 vllm.py:838 and v0.24.0 vllm.py:1004 likewise.
//
// Critical path under async scheduling: only the hand-off — the sampled
// ids' D2H copy and the wake-up of the thread blocked in future.result().
// No per-request loop is on it. The per-request chain (update_from_output
// N, schedule N+2, _update_states/_prepare_inputs N+2, launches, output
// to the API server on the output thread) is hidden while it is shorter
// than one GPU step; a step then takes max(GPU, chain), never the sum.
// Not read: output processing in the API server process (a separate
// process; it competes for CPU only), and how long the chain is.

// HostSerialFact says, for one release, how per-request host cost
// combines with the GPU step.
type HostSerialFact struct {
	// Release is the vLLM release the fact was read at ("0.15.0").
	Release string
	// AsyncDefault is whether async scheduling is on by default.
	AsyncDefault bool
	// SerialShareAsync is the share of per-request host cost that lies
	// between GPU step k ending and step k+1 launching with async
	// scheduling on, while the host chain is shorter than a GPU step.
	SerialShareAsync float64
	// SerialShareSync is the same share with async scheduling off
	// (EngineCore.step).
	SerialShareSync float64
	// Source cites the release files read.
	Source string
}

var hostSerialFacts = []HostSerialFact{
	{"0.11.0", false, 0, 1, "v0.11.0 vllm/v1/engine/core.py:272,300-349; vllm/config/scheduler.py:138"},
	{"0.15.0", true, 0, 1, "v0.15.0 vllm/v1/engine/core.py:369,410-496; vllm/config/vllm.py:601-622"},
	{"0.20.0", true, 0, 1, "v0.20.0 vllm/v1/engine/core.py:402,443-531; vllm/config/vllm.py:809-838"},
	{"0.24.0", true, 0, 1, "v0.24.0 vllm/v1/engine/core.py:479,519-605; vllm/config/vllm.py:975-1004"},
}

// HostSerialFor returns the fact read at release (a "v" prefix is
// accepted) and whether that release was read.
func HostSerialFor(release string) (HostSerialFact, bool) {
	if len(release) > 0 && release[0] == 'v' {
		release = release[1:]
	}
	for _, f := range hostSerialFacts {
		if f.Release == release {
			return f, true
		}
	}
	return HostSerialFact{}, false
}

// SerialShare is the share of per-request host cost in series with the
// GPU step for a release whose fact is f, given whether async scheduling
// is on.
func (f HostSerialFact) SerialShare(async bool) float64 {
	if async {
		return f.SerialShareAsync
	}
	return f.SerialShareSync
}

// StepTime combines a step's GPU time and its per-request host chain
// (both in seconds) as the release's loop does: in series without async
// scheduling, max of the two with it (the batch queue holds two batches,
// so the chain hides behind one GPU step at most).
func (f HostSerialFact) StepTime(gpu, host float64, async bool) float64 {
	if gpu < 0 {
		gpu = 0
	}
	if host < 0 {
		host = 0
	}
	s := f.SerialShare(async)
	serial := s * host
	hidden := host - serial
	if hidden > gpu {
		return hidden + serial
	}
	return gpu + serial
}
