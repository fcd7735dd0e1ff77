package logs

import (
	"strings"
	"testing"
)

// TestTrailingBarsAreTheSoleEngines (lint42 QA): vllm-project/vllm#29335
// (https://github.com/vllm-project/vllm/pull/29335, a v0.11-era start-up
// log) ends in the engine's CUDA-graph progress bars, which vLLM's prefix
// does not reach. With one engine in the file they are that engine's: it
// got to cuda-graphs, not "least far" at the KV line with the bars read as
// a front-end's. The lines below are written for the test in that format
// (figures made up). Bars logged before the engine's last prefixed line
// stay apart (newer releases capture graphs while profiling, before the
// KV line: the engine has moved on since).
func TestTrailingBarsAreTheSoleEngines(t *testing.T) {
	const pre = "(EngineCore_DP0 pid=41) INFO 11-24 11:44:17 "
	head := pre + "[gpu_worker.py:348] Available KV cache memory: 30.00 GiB\n" +
		pre + "[kv_cache_utils.py:1234] GPU KV cache size: 1,000,000 tokens\n"
	bars := "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 51/51 [00:01<00:00, 33.44it/s]\n" +
		"Capturing CUDA graphs (decode, FULL): 100%|██████████| 35/35 [00:01<00:00, 33.86it/s]\n"

	rep := oneFile(t, head+bars)
	if len(rep.Engines) != 1 || rep.Engines[0].Phase != "cuda-graphs" {
		t.Fatalf("engines %q, phase %q: want one engine in phase cuda-graphs", engineIDs(rep), firstPhase(rep))
	}
	for _, f := range rep.Failures {
		if strings.Contains(f.Message, "got least far") || strings.Contains(f.Message, "front-end") {
			t.Errorf("%s: %s — the bars are the engine's own", f.Code, f.Message)
		}
	}

	rep = oneFile(t, bars+head)
	if len(rep.Engines) != 1 || rep.Engines[0].Phase != "kv-cache" {
		t.Fatalf("bars first: engines %q, phase %q: want one engine in phase kv-cache", engineIDs(rep), firstPhase(rep))
	}
}

// firstPhase is the first engine's phase ("" without one).
func firstPhase(rep *Report) string {
	if len(rep.Engines) == 0 {
		return ""
	}
	return rep.Engines[0].Phase
}

// TestSupportedTasksIsEngineReady (lint42 QA): vllm-project/vllm#45150
// (https://github.com/vllm-project/vllm/pull/45150) quotes four API
// servers' lines ("(ApiServer_0 pid=...) ... Supported tasks:
// ['generate']"), which the front-end logs once its engine client is up:
// "no failures recognised" and no phase before. It ends in engine-ready,
// and with the engine's own lines before it, no engine "got least far"
// behind a front-end that is past them. Lines written for the test.
func TestSupportedTasksIsEngineReady(t *testing.T) {
	api := "(ApiServer_0 pid=10) INFO 06-10 11:11:20 [api_server.py:579] Supported tasks: ['generate']\n" +
		"(ApiServer_1 pid=11) INFO 06-10 11:11:20 [api_server.py:579] Supported tasks: ['generate']\n"
	rep := oneFile(t, api)
	if len(rep.Failures) != 1 || rep.Failures[0].Code != CodeEnds || !strings.Contains(rep.Failures[0].Message, "phase engine-ready") {
		t.Fatalf("failures %+v, want one LOG002 ending in phase engine-ready", rep.Failures)
	}
	engine := "(EngineCore_DP0 pid=5) INFO 06-10 11:11:10 [core.py:210] init engine (profile, create kv cache, warmup model) took 25.99 seconds\n"
	rep = oneFile(t, engine+api)
	for _, f := range rep.Failures {
		if strings.Contains(f.Message, "got least far") {
			t.Errorf("%s: %s — the front-end is past the engine's start-up", f.Code, f.Message)
		}
	}
}

// TestAttentionBackendIsLoading (lint42 QA): vllm-project/vllm#29271
// (https://github.com/vllm-project/vllm/pull/29271) shows four DP engines
// choosing their attention backend ("Using FLASH_ATTN backend.", cuda.py),
// which happens as the model's layers are built. DP2, whose process-group
// line came first, "got least far" at distributed-init before, and DP1
// and DP3 were at no phase. Lines written for the test in that format.
func TestAttentionBackendIsLoading(t *testing.T) {
	log := "(EngineCore_DP1 pid=7) INFO 11-24 14:52:34 [parallel_state.py:1425] rank 1 in world size 2 is assigned as DP rank 1, PP rank 0, TP rank 0, EP rank 1\n" +
		"(EngineCore_DP0 pid=6) INFO 11-24 14:52:35 [cuda.py:424] Using FLASH_ATTN backend.\n" +
		"(EngineCore_DP1 pid=7) INFO 11-24 14:52:35 [cuda.py:424] Using FLASH_ATTN backend.\n"
	rep := oneFile(t, log)
	for _, e := range rep.Engines {
		if e.Phase != "loading-weights" {
			t.Errorf("engine %s in phase %q, want loading-weights", e.ID, e.Phase)
		}
	}
	for _, f := range rep.Failures {
		if strings.Contains(f.Message, "got least far") {
			t.Errorf("%s: %s — both engines are loading", f.Code, f.Message)
		}
	}
}

// TestUntaggedBuildVersion (lint42 QA): vllm-project/vllm#53743
// (https://github.com/vllm-project/vllm/pull/53743) logs the banner of a
// source build of August 2026 main without release tags: "version
// 0.1.dev20175+g2573878a3.d20260821". That names no release: read as 0.1
// it would be the oldest, for the release facts the report applies.
func TestUntaggedBuildVersion(t *testing.T) {
	if _, ok := loggedRelease("0.1.dev20175+g2573878a3.d20260821"); ok {
		t.Error("an untagged dev build read as a release")
	}
	if v, ok := loggedRelease("0.19.1"); !ok || v.Minor != 19 {
		t.Errorf("0.19.1 read as %v %v, want 0.19", v, ok)
	}
	log := "(APIServer pid=1) INFO 08-29 02:16:04 [api_utils.py:347]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.1.dev20175+g2573878a3.d20260821\n"
	var b strings.Builder
	if err := WriteText(&b, oneFile(t, log)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "vLLM 0.1.dev20175+g2573878a3.d20260821 (a source build with no release tag: release unknown)") {
		t.Errorf("text does not say the build names no release:\n%s", b.String())
	}
}
