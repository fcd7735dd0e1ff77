package perf

// UseSGLangFirstTokenLag prices, for SGLang under its overlap scheduler,
// the host work that stands between the end of the step that sampled a
// request's first token and that token leaving the engine
// (StepModel.SGLangFirstTokenLag; issue #28, the SGLang rows' low-load
// TTFTs).
//
// Why: SGLang's overlap event loop (python/sglang/srt/managers/
// scheduler.py event_loop_overlap, the same order in every stored copy
// read: the 0.5.x loop with is_disable_overlap_for_batch, and
// sgl-project/sglang@0003215c) receives requests, schedules the next batch
// and launches it (run_batch) before it pops and processes the previous
// batch's result (pop_and_process → process_batch_result, which streams
// the sampled tokens to the detokenizer). A prefill's first token
// therefore waits for the next iteration's scheduling and launch. In
// steady decoding that work runs while the GPU is still busy with the
// step (the loop is a step ahead) and costs nothing; after a prefill step
// whose eager launches keep the host busy until the GPU is nearly done
// (SGLang prefills without CUDA graphs: sglangeager.go), it is exposed.
// The exception the loop makes (consecutive prefill batches under
// SGLANG_DISABLE_CONSECUTIVE_PREFILL_OVERLAP) does not apply to the
// prefill → decode hand-off.
var UseSGLangFirstTokenLag = true

// SGLangFirstTokenLag is the time from the end of a step of loads to the
// engine's output of the first tokens it sampled, for SGLang with its
// overlap scheduler (0 otherwise, and with UseSGLangFirstTokenLag off):
// the next iteration's serial host work (the step's own, HostS, stands in
// for it) less the GPU's slack behind the host — the part of the step's
// GPU time left after the host finished its serial work and launches.
func (sm *StepModel) SGLangFirstTokenLag(loads []RankLoad) float64 {
	s := &sm.S
	if !UseSGLangFirstTokenLag || !s.SGLang || !s.OverlapHost {
		return 0
	}
	st := sm.Step(loads)
	gpu := st.TotalS - st.OverheadS
	slack := max(0, gpu-st.HostS-st.LaunchS)
	return max(0, st.HostS-slack)
}
