package logs

import (
	"testing"
)

// TestParseLineFormats takes apart one vLLM line as each capture tool
// wraps it. The wrappers follow the tools' documented formats: docker logs
// and kubectl logs --timestamps (RFC 3339 with nanoseconds), kubectl logs
// --prefix ("[pod/NAME/CONTAINER] "), journalctl's short and short-iso
// output, docker compose ("service-1  | ").
func TestParseLineFormats(t *testing.T) {
	const vllm = "(EngineCore_DP3 pid=245) INFO 04-22 01:04:01 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.04 GiB"
	cases := []struct {
		name, raw, host, stamp string
		formats                formatSet
	}{
		{"plain", vllm, "", "", 0},
		{"docker --timestamps", "2025-04-22T01:04:01.123456789Z " + vllm, "", "2025-04-22T01:04:01.123456789Z", fmtTimestamps},
		{"kubectl --prefix --timestamps", "[pod/vllm-0/vllm] 2025-04-22T01:04:01.123456789Z " + vllm, "vllm-0", "2025-04-22T01:04:01.123456789Z", fmtKubectlPrefix | fmtTimestamps},
		{"journalctl", "Apr 22 01:04:01 gpu-node-3 vllm[4242]: " + vllm, "gpu-node-3", "Apr 22 01:04:01", fmtJournald},
		{"journalctl short-iso", "2025-04-22T01:04:01+0000 gpu-node-3 vllm[4242]: " + vllm, "gpu-node-3", "2025-04-22T01:04:01+0000", fmtJournald | fmtTimestamps},
		{"compose", "vllm-node0-1  | " + vllm, "vllm-node0-1", "", fmtCompose},
		{"ansi", "\x1b[0;36m(EngineCore_DP3 pid=245)\x1b[0;0m INFO 04-22 01:04:01 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.04 GiB", "", "", fmtANSI},
		{"caret ansi", "^[[0;36m(EngineCore_DP3 pid=245)^[[0;0m INFO 04-22 01:04:01 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.04 GiB", "", "", fmtANSI},
		{"progress bar glued", "Loading safetensors checkpoint shards: 100% 4/4 [00:01<00:00,  2.51it/s]" + vllm, "", "", 0},
		// A Ray actor hosting vLLM (verl-project/verl#4926): its prefix
		// wraps vLLM's; the inner process logged, on the actor's node.
		{"ray actor around vllm", "(vLLMHttpServer pid=62552, ip=172.17.207.216) " + vllm, "172.17.207.216", "", fmtRay},
		// A Python harness relaying vLLM's output through its own logger
		// (vllm#43410's launcher, allenai/olmocr#260).
		{"python logging harness", "2026-05-29 09:14:45,594 - INFO - [container] " + vllm, "", "2026-05-29 09:14:45,594", fmtTimestamps},
		{"python logging named", "2025-06-27 12:57:51,690 - __main__ - INFO - " + vllm, "", "2025-06-27 12:57:51,690", fmtTimestamps},
		{"carriage returns", "Capturing CUDA graph shapes:  50%|█████     | 1/2\rCapturing CUDA graph shapes: 100%|██████████| 2/2\r" + vllm, "", "", fmtProgress},
	}
	var p parser
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var l line
			p.parse([]byte(c.raw), &l)
			if string(l.proc) != "EngineCore_DP3" || l.pid != 245 || l.level != 'I' || string(l.vstamp) != "04-22 01:04:01" ||
				string(l.src) != "v1/worker/gpu_worker.py:436" || string(l.msg) != "Available KV cache memory: 3.04 GiB" {
				t.Errorf("parsed proc=%q pid=%d level=%q vstamp=%q src=%q msg=%q", l.proc, l.pid, l.level, l.vstamp, l.src, l.msg)
			}
			if string(l.host) != c.host || string(l.stamp) != c.stamp || l.formats != c.formats {
				t.Errorf("host=%q stamp=%q formats=%v, want %q %q %v", l.host, l.stamp, l.formats.names(), c.host, c.stamp, c.formats.names())
			}
		})
	}
}

// TestParseLineVariants covers the other prefixes and headers of the fixtures.
func TestParseLineVariants(t *testing.T) {
	cases := []struct {
		raw, proc, tag, host, level, msg string
		pid, grank, repeated             int
		indent                           bool
	}{
		{raw: "INFO 08-02 08:50:03 worker_base.py:382] old header", level: "I", msg: "old header", grank: -1},
		{raw: "(VllmWorker rank=1 pid=7) INFO 03-27 16:00:08 [utils.py:925] x", proc: "VllmWorker", tag: "rank=1", pid: 7, level: "I", msg: "x", grank: -1},
		{raw: "(RayWorkerWrapper pid=1890, ip=10.41.0.8) [rank8]:[E ProcessGroupGloo.cpp:144] y", proc: "RayWorkerWrapper", pid: 1890, host: "10.41.0.8", msg: "[E ProcessGroupGloo.cpp:144] y", grank: 8},
		{raw: "(RayWorkerWrapper pid=880) ERROR 04-16 01:01:44 [worker_base.py:620] z [repeated 6x across cluster]", proc: "RayWorkerWrapper", pid: 880, level: "E", msg: "z", grank: -1, repeated: 6},
		{raw: "bruce-AI-Server:106022:106733 [1] NCCL INFO Init START", host: "bruce-AI-Server", pid: 106022, msg: "NCCL INFO Init START", grank: -1},
		{raw: "NING 04-01 02:45:50 ray_utils.py:320] cut level", level: "W", msg: "cut level", grank: -1},
		{raw: "(APIServer pid=1) INFO:     Application startup complete.", proc: "APIServer", pid: 1, level: "I", msg: "Application startup complete.", grank: -1},
		{raw: "(EngineCore pid=5) ERROR 01-01 00:00:00 [core.py:1]     raise ValueError(\"x\")", proc: "EngineCore", pid: 5, level: "E", msg: "raise ValueError(\"x\")", grank: -1, indent: true},
		{raw: "  | [2025-03-10T15:07:20Z] ERROR 03-10 08:07:20 [core.py:302] ci", level: "E", msg: "ci", grank: -1},
		{raw: "> INFO 02-26 11:14:53 llm_engine.py:234] quoted", level: "I", msg: "quoted", grank: -1},
		{raw: "▎ Available KV cache memory: 22.5 GiB", msg: "Available KV cache memory: 22.5 GiB", grank: -1},
		// vllm-project/vllm#25043 as posted (a quoted paste from a viewer that
		// shows ESC as the word): the colour reset is no text of the line.
		{raw: "> (EngineCore_DP0 pid=35109)ESC[0;0m ERROR 09-17 05:40:55 [v1/engine/core.py:712] EngineCore failed to start.",
			proc: "EngineCore_DP0", pid: 35109, level: "E", msg: "EngineCore failed to start.", grank: -1},
		{raw: "INFO 01-01 00:00:00 [a.py:1] ESCAPE ESC[ key ESC[1;2", level: "I", msg: "ESCAPE ESC[ key ESC[1;2", grank: -1},
	}
	var p parser
	for _, c := range cases {
		var l line
		p.parse([]byte(c.raw), &l)
		level := ""
		if l.level != 0 {
			level = string(l.level)
		}
		if string(l.proc) != c.proc || string(l.tag) != c.tag || string(l.host) != c.host || l.pid != c.pid || level != c.level ||
			string(l.msg) != c.msg || l.grank != c.grank || l.repeated != c.repeated || l.indent != c.indent {
			t.Errorf("%q:\n got proc=%q tag=%q host=%q pid=%d level=%q msg=%q grank=%d repeated=%d indent=%v",
				c.raw, l.proc, l.tag, l.host, l.pid, level, l.msg, l.grank, l.repeated, l.indent)
		}
	}
}
