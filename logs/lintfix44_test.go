package logs

import (
	"bytes"
	"strings"
	"testing"
)

// shmWait is vLLM's shm_broadcast.py wait line, as an engine core logs it
// every 60 s while its workers do not answer.
const shmWait = "(EngineCore_DP1 pid=50) INFO 12-29 10:0%d:00 [shm_broadcast.py:542] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n"

// ascendSlave is our own few lines in the form of
// https://github.com/vllm-project/vllm-ascend/issues/5493's "slave node"
// log (and #4972's): shm_broadcast waits, then torch_npu's and CANN's
// unprefixed device-error lines. The qa44a finding F1: it was "no failures
// recognised", exit 0.
func ascendSlave() string {
	var b strings.Builder
	b.WriteString("(Worker_DP1_TP0_EP8 pid=60) INFO 12-29 10:00:00 [backends.py:278] Compiling a graph for compile range (1, 256) takes 50.00 s\n")
	for i := 1; i <= 4; i++ {
		b.WriteString(strings.Replace(shmWait, "%d", string(rune('0'+i)), 1))
	}
	b.WriteString("[61] [2025-12-29 10:05:10:001] torch.distributed: [ERROR] [62] Find exception when finishedNPUExecutionInternal, query:x.ts:59 NPU function error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is 507014\n")
	b.WriteString("[ERROR] 2025-12-29-10:05:10 (PID:61, Device:3, RankID:-1) ERR00100 PTA call acl api failed\n")
	b.WriteString("[Error]: The aicore execution times out.\n")
	b.WriteString("EH9999: Inner Error!\n")
	return b.String()
}

// TestAscendAICoreTimeout (F1): the device error is a failure (LOG198, an
// error, so `vlaunch logs` exits 1), one finding for the file's lines, with
// the timeout and the waits before it.
func TestAscendAICoreTimeout(t *testing.T) {
	fs := failuresOf(t, ascendSlave())
	if len(fs) == 0 || fs[0].Code != CodeAscendDevice || fs[0].Severity != "error" {
		t.Fatalf("failures %q, want LOG198 first, an error", codesOf(fs))
	}
	if n := strings.Count(codesOf(fs), string(CodeAscendDevice)); n != 1 {
		t.Errorf("%d LOG198 findings, want one for the file's device-error lines", n)
	}
	for _, want := range []string{"507014", "AI Core execution times out", "waited 4× 60 s"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message lacks %q: %s", want, fs[0].Message)
		}
	}
	// ERR00100 alone (an ACL call failed, no timeout) is still LOG198.
	fs = failuresOf(t, "[ERROR] 2025-12-29-10:05:10 (PID:61, Device:3, RankID:-1) ERR00100 PTA call acl api failed\n")
	if codesOf(fs) != "LOG198:other" || strings.Contains(fs[0].Message, "timed out") {
		t.Errorf("ERR00100 alone: %q %v, want LOG198 without a timeout", codesOf(fs), fs)
	}
}

// ascendMaster is our own lines in the form of vllm-ascend#5493's "master
// node" log: the engine core relays the worker's inner error, the device
// times out in the EP dispatch kernel, then HCCL's watchdog aborts.
const ascendMaster = `(EngineCore_DP0 pid=30) INFO 12-29 10:00:00 [shm_broadcast.py:542] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).
(EngineCore_DP0 pid=30) ERROR 12-29 10:01:00 [core.py:866] RuntimeError: Worker failed with error 'The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnAdd.
(EngineCore_DP0 pid=30) ERROR 12-29 10:01:00 [core.py:866] [ERROR] 2025-12-29-10:01:00 (PID:31, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
[rank0]:[E1229 10:01:01.000000000 compiler_depend.ts:1675] [Rank 0] HCCL watchdog thread terminated with exception:
[ERROR] 2025-12-29-10:01:01 (PID:31, Device:0, RankID:-1) ERR02005 DIST internal error
terminate called after throwing an instance of 'std::runtime_error'
  what():  [Rank 0] HCCL watchdog thread terminated with exception:
       Aicore kernel execute failed, device_id=0, stream_id=2, fault kernel_name=MoeDistributeDispatchV2_ND_ND_BF16_BF16_x, fault kernel info ext=none
`

// TestRootCauseFirst (F2): the device timeout comes first and names the EP
// dispatch kernel; the HCCL watchdog abort after it follows from it, so
// its interface advice comes second to "fix the earlier failure first".
func TestRootCauseFirst(t *testing.T) {
	fs := failuresOf(t, ascendMaster)
	if len(fs) < 2 || fs[0].Code != CodeAscendDevice {
		t.Fatalf("failures %q, want LOG198 first", codesOf(fs))
	}
	if !strings.Contains(fs[0].Message, "MoeDistributeDispatchV2") || !strings.Contains(fs[0].Fix, "not the first suspect") {
		t.Errorf("LOG198 does not name the EP dispatch kernel and its peers: %s | %s", fs[0].Message, fs[0].Fix)
	}
	for _, f := range fs[1:] {
		if f.Code != CodeNCCL {
			continue
		}
		if !strings.HasPrefix(f.FollowsFrom, "LOG198 at n.log:2") || !strings.HasPrefix(f.Fix, "Fix the earlier failure first") {
			t.Errorf("LOG121 at :%d: follows_from %q, fix %q; want it to follow from LOG198 at n.log:2", f.Line, f.FollowsFrom, f.Fix)
		}
	}
	if fs[0].FollowsFrom != "" {
		t.Errorf("the root cause follows from %q", fs[0].FollowsFrom)
	}
}

// TestMLAKVReshape (F4): the MLA KV-cache reshape crash, in the forms of
// https://github.com/vllm-project/vllm/issues/24513 (a forced backend's
// layout, half the width) and /48405, /48896 (the fp8_ds_mla 656-byte
// layout against 576); our own figures.
func TestMLAKVReshape(t *testing.T) {
	for _, tt := range []struct {
		log, want, fix string
	}{
		{"(EngineCore_DP3 pid=9) RuntimeError: shape '[2, 1000, 16, 1, 576]' is invalid for input of size 9216000\n",
			"holds 288 per row where 576", "Unset a forced attention backend"},
		{"(EngineCore pid=9) RuntimeError: Worker failed with error 'shape '[100, 64, 576]' is invalid for input of size 4198400', please check the stack trace above for the root cause\n",
			"holds 656 per row where 576", "PR #48379"},
	} {
		fs := failuresOf(t, tt.log)
		if codesOf(fs) != "LOG199:other" {
			t.Errorf("%s: failures %q, want LOG199", tt.log, codesOf(fs))
			continue
		}
		if !strings.Contains(fs[0].Message, tt.want) || !strings.Contains(fs[0].Fix, tt.fix) {
			t.Errorf("LOG199: %s | %s; want %q and %q", fs[0].Message, fs[0].Fix, tt.want, tt.fix)
		}
	}
	// Another width is not an MLA cache: the generic exception stays.
	if fs := failuresOf(t, "RuntimeError: shape '[16, 2048, 32, 128]' is invalid for input of size 33554432\n"); codesOf(fs) != "LOG191:other" {
		t.Errorf("non-MLA reshape: %q, want LOG191", codesOf(fs))
	}
}

// TestNativeErrorAfterStall (F1, the general part): a stall of
// shm_broadcast waits that ends in a native runtime's "[ERROR] <date>"
// line no rule knows is an error (LOG193), not a clean log: such lines
// carry no vLLM header (vllm-ascend#5493's form; our own error code).
func TestNativeErrorAfterStall(t *testing.T) {
	log := strings.Replace(shmWait, "%d", "1", 1) + strings.Replace(shmWait, "%d", "2", 1) +
		"[ERROR] 2025-12-29-10:05:10 (PID:61, Device:3, RankID:-1) ERR99999 something else failed\n"
	fs := failuresOf(t, log)
	if len(fs) == 0 || fs[0].Code != CodeErrorLine || fs[0].Severity != "error" {
		t.Errorf("failures %q, want LOG193 (an error)", codesOf(fs))
	}
}

// TestGraphProfilingLineCut (F11): a terminal cut the graph-profiling line
// after the second figure ("… =0.8829 without >", as in
// https://github.com/noonghunna/club-3090/issues/758); the equivalent
// utilization is still read, and the wording still bounds the release.
func TestGraphProfilingLineCut(t *testing.T) {
	log := "(Worker_TP0 pid=9) INFO 07-24 10:45:36 [gpu_worker.py:538] Available KV cache memory: 10.3 GiB\n" +
		"(Worker_TP0 pid=9) INFO 07-24 10:45:36 [gpu_worker.py:553] CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8712 without >\n"
	rep := oneFile(t, log)
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0.8712 without CUDA graph profiling") || rep.Engines[0].VersionAfter != "0.19.1" {
		t.Errorf("cut line not read (after %q):\n%s", rep.Engines[0].VersionAfter, b.String())
	}
}

// TestKVTooSmallFillsAvailableKV (F12): the "KV cache is needed, which is
// larger than the available KV cache memory (X GiB)" error gives the KV
// budget the per-GPU figures lacked (our own figures, in the form of
// https://github.com/lemonade-sdk/vllm-rocm/issues/5), in one line and
// wrapped over two (vllm#46778's form).
func TestKVTooSmallFillsAvailableKV(t *testing.T) {
	for _, log := range []string{
		"(EngineCore pid=4) ERROR 06-09 14:01:52 [core.py:1136] ValueError: To serve at least one request with the models's max seq len (65536), (3.11 GiB KV cache is needed, which is larger than the available KV cache memory (2.5 GiB). Based on the available memory, the estimated maximum model length is 51000.\n",
		"(EngineCore pid=4) ERROR 06-09 14:01:52 [core.py:1136] ValueError: To serve at least one request with the models's max seq len (65536), (3.11 GiB KV cache is needed,\n" +
			"(EngineCore pid=4) ERROR 06-09 14:01:52 [core.py:1136] which is larger than the available KV cache memory (2.5 GiB). Based on the available memory, the estimated maximum model length is 51000.\n",
	} {
		rep := oneFile(t, log)
		if len(rep.Engines) == 0 || rep.Engines[0].AvailableKVGiB == nil || *rep.Engines[0].AvailableKVGiB != 2.5 {
			t.Errorf("available KV not filled from the error:\n%s", log)
		}
	}
}

// TestTorchRankPrefixJoinsItsWorker (F15): torch_npu's "[rank0]:" line is
// the TP 0 worker's when the file has one DP engine's workers, so no rank
// "rank0" appears beside it; the C++ runtime's unprefixed "what():" line of
// the same abort is listed as that failure's relay, not as a front-end
// failure of its own. Our lines, in vllm-ascend#5493's form.
func TestTorchRankPrefixJoinsItsWorker(t *testing.T) {
	log := "(Worker_DP0_TP0_EP0 pid=31) INFO 12-29 10:00:00 [backends.py:703] Dynamo bytecode transform time: 20.00 s\n" +
		"(Worker_DP0_TP1_EP1 pid=32) INFO 12-29 10:00:00 [backends.py:703] Dynamo bytecode transform time: 20.00 s\n" +
		"[rank0]:[E1229 10:01:01.000000000 compiler_depend.ts:1675] [Rank 0] HCCL watchdog thread terminated with exception:\n" +
		"terminate called after throwing an instance of 'std::runtime_error'\n" +
		"  what():  [Rank 0] HCCL watchdog thread terminated with exception:\n"
	rep := oneFile(t, log)
	for _, e := range rep.Engines {
		for _, r := range e.Ranks {
			if r.Label == "rank0" {
				t.Errorf("rank0 is a rank of its own beside Worker_DP0_TP0_EP0")
			}
		}
	}
	var nccl []Failure
	for _, f := range rep.Failures {
		if f.Code == CodeNCCL {
			nccl = append(nccl, f)
		}
	}
	if len(nccl) != 1 || nccl[0].Rank != "Worker_DP0_TP0_EP0 pid=31" || len(nccl[0].Relayed) != 1 {
		t.Errorf("LOG121: %+v; want one, the TP 0 worker's, with the what() line as its relay", nccl)
	}
}
