package logs

import (
	"fmt"
	"strings"
	"testing"
)

// pdPod is one NIXL engine's start-up in the 0.11 format of the real
// fixtures (testdata/real/v0.11.x-29369-pd-nixl-healthy, vllm#29369) with
// the server's arguments as 0.11+ prints them; the deployment is made up.
func pdPod(prefix, role, engineID string, tp int, kv string) []string {
	core := prefix + "(EngineCore_DP0 pid=590) "
	return []string{
		fmt.Sprintf("%s(APIServer pid=1) INFO 11-25 02:39:01 [utils.py:233] non-default args: {'model': 'openai/gpt-oss-120b', 'tensor_parallel_size': %d, 'kv_transfer_config': KVTransferConfig(kv_connector='NixlConnector', engine_id='%s', kv_buffer_device='cuda', kv_buffer_size=1000000000.0, kv_role='%s', kv_rank=None, kv_parallel_size=1, kv_ip='127.0.0.1', kv_port=14579, kv_connector_extra_config={}, kv_connector_module_path=None, enable_permute_local_kv=False)}", prefix, tp, engineID, role),
		core + "INFO 11-25 02:39:44 [nixl_connector.py:800] Initializing NIXL worker " + engineID,
		core + "2025-11-25 02:39:46 NIXL INFO    _api.py:361 Backend UCX was instantiated",
		core + "INFO 11-25 02:39:46 [nixl_connector.py:199] NixlConnector setting KV cache layout to HND for better xfer performance.",
		core + "INFO 11-25 02:39:47 [gpu_worker.py:436] Available KV cache memory: " + kv + " GiB",
		core + "INFO 11-25 02:39:49 [core.py:253] init engine (profile, create kv cache, warmup model) took 21.62 seconds",
		core + "INFO 11-25 02:39:49 [factory.py:64] Creating v1 connector with name: NixlConnector and engine_id: " + engineID,
	}
}

func interleave(a, b []string) string {
	var lines []string
	for i := range max(len(a), len(b)) {
		if i < len(a) {
			lines = append(lines, a[i])
		}
		if i < len(b) {
			lines = append(lines, b[i])
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestInterleavedPrefillDecodeKeepTheirRoles: a prefill pod and a decode
// pod captured together (kubectl logs --prefix, stern) report an engine
// each, with its own connector role, engine ID, TP and KV figures, and no
// finding above info (issue 24).
func TestInterleavedPrefillDecodeKeepTheirRoles(t *testing.T) {
	for _, c := range []struct{ name, p, d string }{
		{"kubectl --prefix", "[pod/gptoss-prefill-0/vllm] ", "[pod/gptoss-decode-0/vllm] "},
		{"stern", "gptoss-prefill-0 vllm ", "gptoss-decode-0 vllm "},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := interleave(pdPod(c.p, "kv_producer", "p-0001", 1, "60.10"), pdPod(c.d, "kv_consumer", "d-0002", 4, "62.50"))
			rep := analyzeStrings(t, map[string]string{"pd.log": log}, "pd.log")
			var got []string
			for _, e := range rep.Engines {
				kv := e.KVTransfer
				if kv == nil || e.TP == nil || e.AvailableKVGiB == nil {
					t.Fatalf("engine %s lacks figures: %+v", e.ID, e)
				}
				got = append(got, fmt.Sprintf("%s %s %s %s tp%d %.2f %v %s nixl=%v", e.ID, kv.Connector, kv.Role, kv.EngineID, *e.TP, *e.AvailableKVGiB, kv.Backends, kv.KVCacheLayout, kv.NIXL))
			}
			want := []string{
				"gptoss-decode-0/dp0 NixlConnector kv_consumer d-0002 tp4 62.50 [UCX] HND nixl=true",
				"gptoss-prefill-0/dp0 NixlConnector kv_producer p-0001 tp1 60.10 [UCX] HND nixl=true",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("engines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, f := range rep.Failures {
				if f.Severity != "info" {
					t.Errorf("unexpected %s [%s]: %s", f.Code, f.Severity, f.Message)
				}
			}
		})
	}
}

// TestKVTransferConfigForms: the connector and role are read from the
// forms a server prints --kv-transfer-config in: the JSON string of the
// 0.9/0.10 Namespace (as vllm#20965's command passes it) and the
// dataclass repr of 0.11+'s non-default args.
func TestKVTransferConfigForms(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`INFO 07-15 14:58:01 [cli_args.py:325] non-default args: {'model': 'm', 'kv_transfer_config': '{"kv_connector": "NixlConnector", "kv_role": "kv_consumer", "kv_rank": 1, "kv_parallel_size": 2}'}`, "NixlConnector/kv_consumer"},
		{`INFO 11-25 02:39:01 [utils.py:233] non-default args: {'model': 'm', 'kv_transfer_config': KVTransferConfig(kv_connector='MultiConnector', engine_id='e', kv_role='kv_both', kv_connector_extra_config={'connectors': [{'kv_connector': 'NixlConnector', 'kv_role': 'kv_both'}]})}`, "MultiConnector/kv_both"},
		{`INFO 11-25 02:39:01 [utils.py:233] non-default args: {'model': 'm', 'kv_transfer_config': None}`, "<nil>"},
	} {
		rep := analyzeStrings(t, map[string]string{"n.log": c.line + "\n"}, "n.log")
		got := "<nil>"
		if len(rep.Engines) > 0 && rep.Engines[0].KVTransfer != nil {
			kv := rep.Engines[0].KVTransfer
			got = kv.Connector + "/" + kv.Role
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.line, got, c.want)
		}
	}
}

// TestPDRulesStayQuiet: lines that share words with the P/D rules but
// report no failure (the import warning of a deployment that never
// creates the connector, a ZeroDivisionError outside NIXL, a ZMQ error
// outside its listener) are not LOG2xx.
func TestPDRulesStayQuiet(t *testing.T) {
	log := `WARNING 07-15 14:58:01 [nixl_connector.py:52] NIXL is not available
ERROR 07-15 14:58:02 [core.py:1] Traceback (most recent call last):
ERROR 07-15 14:58:02 [core.py:1]   File "/x/metrics.py", line 3, in rate
ERROR 07-15 14:58:02 [core.py:1]     return n // d
ERROR 07-15 14:58:02 [core.py:1] ZeroDivisionError: integer division or modulo by zero
`
	for _, f := range failuresOf(t, log) {
		if strings.HasPrefix(string(f.Code), "LOG2") {
			t.Errorf("unexpected %s: %s", f.Code, f.Message)
		}
	}
}

// TestSideChannelBindByPort: without the listener's traceback, a ZMQ bind
// error of a NIXL deployment on the release's side-channel port is the
// side channel's (LOG204, vllm#20965: two engines in one container on the
// default 5557), and on another port it stays what it was.
func TestSideChannelBindByPort(t *testing.T) {
	for _, c := range []struct{ port, want string }{{"5557", "LOG204"}, {"13345", "LOG191"}} {
		log := `INFO 07-15 14:58:00 [api_server.py:1] vLLM API server version 0.9.2
INFO 07-15 14:58:01 [cli_args.py:325] non-default args: {'model': 'm', 'kv_transfer_config': '{"kv_connector": "NixlConnector", "kv_role": "kv_consumer"}'}
ERROR 07-15 14:59:23 [core.py:1] zmq.error.ZMQError: Address already in use (addr='tcp://localhost:` + c.port + `')
`
		fs := failuresOf(t, log)
		if len(fs) != 1 || string(fs[0].Code) != c.want {
			t.Errorf("port %s: got %s, want %s", c.port, codesOf(fs), c.want)
		}
	}
}

// TestInterleavedPDFailureNamesItsPod: when the decode pod's handshake
// fails (vllm#27083's lines) in a capture that interleaves it with a
// healthy prefill pod, the failure is the decode pod's engine's and the
// prefill pod keeps its role.
func TestInterleavedPDFailureNamesItsPod(t *testing.T) {
	const d = "[pod/gptoss-decode-0/vllm] "
	dec := append(pdPod(d, "kv_consumer", "d-0002", 4, "62.50"),
		d+"(EngineCore_DP0 pid=590) ERROR 10-16 17:22:56 [nixl_connector.py:815] RuntimeError: Remote NIXL agent engine ID mismatch. Expected 46126a31_dp0,received 96b1c4ff_dp0.",
		d+"(EngineCore_DP0 pid=590) ERROR 10-16 17:22:56 [nixl_connector.py:827] Handshake failed for request chatcmpl")
	log := interleave(pdPod("[pod/gptoss-prefill-0/vllm] ", "kv_producer", "p-0001", 1, "60.10"), dec)
	rep := analyzeStrings(t, map[string]string{"pd.log": log}, "pd.log")
	var got []string
	for _, f := range rep.Failures {
		got = append(got, string(f.Code)+"@"+f.Engine+":"+f.Severity)
	}
	if strings.Join(got, " ") != "LOG201@gptoss-decode-0/dp0:error" {
		t.Errorf("failures %v, want LOG201 on the decode pod's engine", got)
	}
	if f := rep.Failures[0]; !strings.Contains(f.Message, "expected 46126a31_dp0, received 96b1c4ff_dp0") || f.Count != 2 {
		t.Errorf("message %q count %d", f.Message, f.Count)
	}
	for _, e := range rep.Engines {
		if e.ID == "gptoss-prefill-0/dp0" && (e.KVTransfer == nil || e.KVTransfer.Role != "kv_producer") {
			t.Errorf("prefill engine lost its role: %+v", e.KVTransfer)
		}
	}
}

// TestTPRatioNamesTheRelease: when the log names the release, LOG210's
// fix says whether it predates the change that pairs a larger prefill TP
// (vllm/ NixlTPPairing).
func TestTPRatioNamesTheRelease(t *testing.T) {
	log := `INFO 07-25 03:30:00 [api_server.py:1] vLLM API server version 0.10.0
(EngineCore_0 pid=286) ERROR 07-25 03:33:23 [nixl_connector.py:548]     p_remote_rank = self.tp_rank // tp_ratio
(EngineCore_0 pid=286) ERROR 07-25 03:33:23 [nixl_connector.py:548] ZeroDivisionError: integer division or modulo by zero
`
	fs := failuresOf(t, log)
	if len(fs) != 1 || fs[0].Code != CodeNixlTPRatio || !strings.Contains(fs[0].Fix, "This release (0.10.0) predates vllm#27274") {
		t.Fatalf("got %+v", fs)
	}
}

// TestSideChannelListenerStaysInItsPod: one pod's dead NIXL listener
// (ai-dynamo/dynamo#2706's thread) does not make another pod's DP bind
// error a side-channel one (vllm#31884's error).
func TestSideChannelListenerStaysInItsPod(t *testing.T) {
	log := `[pod/p-0/vllm] (RayWorkerWrapper pid=438, ip=172.17.0.6) Exception in thread nixl_handshake_listener:
[pod/d-0/vllm] (APIServer pid=396) INFO 01-07 01:26:00 [utils.py:651] Started DP Coordinator process (PID: 530)
[pod/d-0/vllm] (APIServer pid=396) zmq.error.ZMQError: Cannot assign requested address (addr='tcp://10.27.91.102:13345')
`
	fs := failuresOf(t, log)
	if codesOf(fs) != "LOG154:dp_handshake" {
		t.Errorf("got %s, want LOG154 on the DP pod", codesOf(fs))
	}
}

// TestTPRatioAssertion: from 0.11.1 NIXL asserts the TP ratio before it
// divides (TpKVTopology.tp_ratio, read at the v0.11.1 tag): a decode TP 4
// under prefill TP 8 is LOG210 naming both sizes and the change that pairs
// them; a pair neither divides says so.
func TestTPRatioAssertion(t *testing.T) {
	log := `(EngineCore_DP0 pid=286) ERROR 12-01 03:33:23 [core.py:710] AssertionError: Local tensor parallel size 4 is not divisible by remote tensor parallel size 8.
`
	fs := failuresOf(t, log)
	if len(fs) != 1 || fs[0].Code != CodeNixlTPRatio || !strings.Contains(fs[0].Message, "(TP 4)") || !strings.Contains(fs[0].Message, "#27274") {
		t.Fatalf("got %+v", fs)
	}
	log = `(EngineCore_DP0 pid=286) ERROR 12-01 03:33:23 [core.py:710] AssertionError: Remote tensor parallel size 6 is not divisible by local tensor parallel size 4.
`
	fs = failuresOf(t, log)
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "one TP size must divide the other") {
		t.Fatalf("got %+v", fs)
	}
}

// TestQuotedCRIFaultLines: a GitHub quote ("> ") of a node's container log
// file (CRI: timestamp, stream, F/P tag) of ROCm's memory fault is LOG191,
// one failure over the eight GPUs' lines (qa45a F1, F5, F6: ROCm/aiter#5192's
// layout, lines written here).
func TestQuotedCRIFaultLines(t *testing.T) {
	log := ""
	for _, n := range []string{"6", "2", "8", "3"} {
		log += "> 2026-08-31T17:43:36.716068815Z stderr F Memory access fault by GPU node-" + n + " (Agent handle: 0x319bf880) on address 0x7f46e0400000. Reason: Unknown.\n"
	}
	fs := failuresOf(t, log)
	if len(fs) != 1 || fs[0].Code != "LOG191" || fs[0].Count != 4 || strings.Contains(fs[0].Text, "stderr F") {
		t.Fatalf("got %+v", fs)
	}
	if fs := failuresOf(t, "> Memory access fault by GPU node-6 (Agent handle: 0x1) on address 0x2. Reason: Unknown.\n"); len(fs) != 1 {
		t.Fatalf("one quoted line: %+v", fs)
	}
}
