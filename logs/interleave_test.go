package logs

import (
	"fmt"
	"strings"
	"testing"
)

// TestInterleavedServersKeepTheirFigures: one capture that interleaves two
// servers (kubectl logs --prefix of two pods, docker compose of two
// services) reports an engine per server with that server's figures, and
// one server's start line is not the other's restart. Lines in the 0.19
// and V0 formats of the fixtures (testdata/real); the servers are made up
// (issue 25).
func TestInterleavedServersKeepTheirFigures(t *testing.T) {
	v1 := func(pod string, pid int, tp int, kv string, tokens string) []string {
		pre := fmt.Sprintf("[pod/%s/vllm] (EngineCore_DP0 pid=%d) INFO 04-22 01:07:43 ", pod, pid)
		return []string{
			fmt.Sprintf("[pod/%s/vllm] (APIServer pid=1) INFO 04-22 01:06:06 [entrypoints/utils.py:233] non-default args: {'model': 'm', 'tensor_parallel_size': %d}", pod, tp),
			pre + "[v1/worker/gpu_worker.py:436] Available KV cache memory: " + kv + " GiB",
			pre + "[v1/core/kv_cache_utils.py:1000] GPU KV cache size: " + tokens + " tokens",
		}
	}
	v0 := func(svc string, weights, blocks string) []string {
		return []string{
			svc + "-1  | INFO 05-10 15:51:55 api_server.py:912] vLLM API server version 0.7.3",
			svc + "-1  | INFO 05-10 15:51:56 llm_engine.py:234] Initializing a V0 LLM engine (v0.7.3) with config: model='m', max_seq_len=8192",
			svc + "-1  | INFO 05-10 15:52:10 model_runner.py:1116] Loading model weights took " + weights + " GB",
			svc + "-1  | INFO 05-10 15:52:20 executor_base.py:111] # cuda blocks: " + blocks + ", # CPU blocks: 512",
		}
	}
	cases := []struct {
		name     string
		a, b     []string
		ids      string
		figure   func(e Engine) string
		want     string
		restarts int
	}{
		{"kubectl pods, same pids", v1("vllm-a-0", 123, 2, "15.41", "100,000"), v1("vllm-b-0", 123, 4, "20.00", "200,000"),
			"vllm-a-0/dp0 vllm-b-0/dp0", func(e Engine) string { return fmt.Sprintf("%v/%v/%v", *e.TP, *e.AvailableKVGiB, *e.KVCacheTokens) },
			"2/15.41/100000 4/20/200000", 0},
		{"compose services, V0, unprefixed", v0("vllm-a", "14.99", "1478"), v0("vllm-b", "30.71", "3852"),
			"vllm-a-1/dp0 vllm-b-1/dp0", func(e Engine) string { return fmt.Sprintf("%v/%v", *e.WeightsGiB, *e.NumGPUBlocks) },
			"14.99/1478 30.71/3852", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			for i := range max(len(c.a), len(c.b)) {
				if i < len(c.a) {
					lines = append(lines, c.a[i])
				}
				if i < len(c.b) {
					lines = append(lines, c.b[i])
				}
			}
			rep := analyzeStrings(t, map[string]string{"n.log": strings.Join(lines, "\n") + "\n"}, "n.log")
			var ids, figs []string
			for _, e := range rep.Engines {
				ids = append(ids, e.ID)
				figs = append(figs, c.figure(e))
			}
			if strings.Join(ids, " ") != c.ids || strings.Join(figs, " ") != c.want {
				t.Errorf("engines %v with %v, want %s with %s", ids, figs, c.ids, c.want)
			}
			if rep.Files[0].Restarts != c.restarts {
				t.Errorf("restarts %d, want %d", rep.Files[0].Restarts, c.restarts)
			}
		})
	}
}

// TestOneServerAcrossPodsStaysOne: the pods of one multi-node server hold
// different DP ranks (or only Ray workers on other nodes): they are not
// separate servers, and their engines keep plain DP names.
func TestOneServerAcrossPodsStaysOne(t *testing.T) {
	log := `[pod/lws-0/vllm] (APIServer pid=1) INFO 04-22 01:06:06 [entrypoints/utils.py:233] non-default args: {'model': 'm', 'data_parallel_size': 4, 'data_parallel_size_local': 2}
[pod/lws-0/vllm] (EngineCore_DP0 pid=10) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB
[pod/lws-0-1/vllm] (EngineCore_DP2 pid=10) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.39 GiB
[pod/lws-0/vllm] (EngineCore_DP1 pid=11) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.40 GiB
[pod/lws-0-1/vllm] (EngineCore_DP3 pid=11) INFO 04-22 01:07:44 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.38 GiB
`
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	var ids []string
	for _, e := range rep.Engines {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, " ") != "dp0 dp1 dp2 dp3" {
		t.Errorf("engines %v, want dp0..dp3", ids)
	}
	ray := `INFO 03-27 10:29:01 [worker.py:267] model weights take 20.64GiB; non_torch_memory takes 0.28GiB; PyTorch activation peak memory takes 1.52GiB; the rest of the memory reserved for KV Cache is 21.20GiB.
(RayWorkerWrapper pid=1463574, ip=192.168.10.60) INFO 03-27 10:29:01 [worker.py:267] model weights take 20.64GiB; non_torch_memory takes 0.28GiB; PyTorch activation peak memory takes 1.52GiB; the rest of the memory reserved for KV Cache is 21.20GiB.
(RayWorkerWrapper pid=206994, ip=192.168.10.25) INFO 03-27 10:29:01 [worker.py:267] model weights take 20.64GiB; non_torch_memory takes 0.28GiB; PyTorch activation peak memory takes 1.52GiB; the rest of the memory reserved for KV Cache is 21.20GiB.
`
	rep = analyzeStrings(t, map[string]string{"r.log": ray}, "r.log")
	if len(rep.Engines) != 1 || rep.Engines[0].ID != "dp0" || len(rep.Engines[0].Ranks) != 3 {
		t.Errorf("Ray workers on two nodes: want one engine dp0 with 3 ranks, got %+v", rep.Engines)
	}
}

// TestTwoCoresOneRankWithoutPrefix: two servers interleaved with no pod
// prefix show two engine cores (different pids) for one DP rank. Each
// core keeps its own figures; workers of that rank, which could be
// either's, are kept apart, and a note says why.
func TestTwoCoresOneRankWithoutPrefix(t *testing.T) {
	log := `(EngineCore_DP0 pid=123) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB
(EngineCore_DP0 pid=456) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 20.00 GiB
(EngineCore_DP0 pid=123) INFO 04-22 01:07:44 [v1/core/kv_cache_utils.py:1000] GPU KV cache size: 100,000 tokens
(EngineCore_DP0 pid=456) INFO 04-22 01:07:44 [v1/core/kv_cache_utils.py:1000] GPU KV cache size: 200,000 tokens
(Worker_TP1 pid=789) INFO 04-22 01:07:10 [v1/worker/gpu_model_runner.py:2000] Model loading took 7.50 GiB and 10.1 seconds
`
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	var got []string
	for _, e := range rep.Engines {
		s := e.ID
		if e.AvailableKVGiB != nil && e.KVCacheTokens != nil {
			s += fmt.Sprintf(" %v/%v", *e.AvailableKVGiB, *e.KVCacheTokens)
		}
		got = append(got, s)
	}
	if want := "?/dp0 pid=123/dp0 15.41/100000 pid=456/dp0 20/200000"; strings.Join(got, " ") != want {
		t.Errorf("engines %q, want %q", strings.Join(got, " "), want)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "pid=123/dp0 and pid=456/dp0") || !strings.Contains(rep.Notes[0], "kept apart as ?/dp0") {
		t.Errorf("notes %q", rep.Notes)
	}
}

// TestSternPrefix: stern's "POD CONTAINER " before each line names the
// pod, so two pods in one stern stream keep their figures; two lowercase
// words of prose before a message are not a stern prefix.
func TestSternPrefix(t *testing.T) {
	log := `vllm-a-0 vllm (EngineCore_DP0 pid=123) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB
vllm-b-0 vllm (EngineCore_DP0 pid=123) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 20.00 GiB
vllm-b-0 vllm INFO 04-22 01:07:44 [v1/core/kv_cache_utils.py:1000] GPU KV cache size: 200,000 tokens
vllm-a-0 vllm 2025-04-22T01:07:44.000000000Z INFO 04-22 01:07:44 [v1/core/kv_cache_utils.py:1000] GPU KV cache size: 100,000 tokens
`
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	var got []string
	for _, e := range rep.Engines {
		got = append(got, fmt.Sprintf("%s %v", e.ID, *e.AvailableKVGiB))
	}
	if want := "vllm-a-0/dp0 15.41 vllm-b-0/dp0 20"; strings.Join(got, " ") != want {
		t.Errorf("engines %q, want %q", strings.Join(got, " "), want)
	}
	if f := rep.Files[0].Formats; strings.Join(f, ",") != "timestamps,stern" {
		t.Errorf("formats %v", f)
	}
	var l line
	var p parser
	p.parse([]byte("so the log ends here"), &l)
	if len(l.origin) != 0 {
		t.Errorf("prose read as a stern prefix: origin %q", l.origin)
	}
}
