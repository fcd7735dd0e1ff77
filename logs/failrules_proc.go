package logs

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// processFailureRules recognise a process that died or stopped answering:
// a worker the executor saw exit, an engine step that never finished, a
// Gloo collective that gave up on its peer.
func processFailureRules() []rule {
	// V1 multiproc_executor.py names each worker process VllmWorker-<rank>:
	// "Worker proc VllmWorker-1 died unexpectedly, shutting down executor."
	// (OpenPipe/ART#201), later "... died unexpectedly (exit code: None), ..."
	// (vllm-ascend#7742).
	v1Died := r(one("died unexpectedly"), `Worker proc (\S+?) died unexpectedly(?: \(exit code: (-?\d+|None)\))?`, func(c *ctx, m [][]byte) {
		d := &deadWorker{name: string(m[1]), rank: trailingRank(string(m[1])), exit: string(m[2])}
		if f := c.fail(CodeWorkerDied, d.message(), ""); f != nil && f.dead == nil {
			f.dead = d
		}
	})
	// V0 multiproc_worker_utils.py: "Worker VllmWorkerProcess pid 214281
	// died, exit code: -11" (vllm#6823).
	v0Died := r(one(" died, exit code: "), `Worker (\S+) pid (\d+) died, exit code: (-?\d+)`, func(c *ctx, m [][]byte) {
		pid, _ := strconv.Atoi(string(m[2]))
		d := &deadWorker{name: string(m[1]), rank: -1, pid: pid, exit: string(m[3])}
		if f := c.fail(CodeWorkerDied, d.message(), ""); f != nil && f.dead == nil {
			f.dead = d
		}
	})
	// V0 AsyncLLMEngine (vllm#9839): "Engine iteration timed out. This
	// should never happen!"
	iteration := r(one("Engine iteration timed out"), "", func(c *ctx, _ [][]byte) {
		c.fail(CodeIterTimeout, "an engine step ran longer than VLLM_ENGINE_ITERATION_TIMEOUT_S and the engine loop gave up on it", "")
	})
	// Gloo's unbound buffer (vllm#5531): "[../third_party/gloo/gloo/transport/
	// tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv
	// operation to complete". Whether it is a DP failure is decided once
	// the whole log is read (finish.go).
	gloo := r([]string{"for recv operation to complete", "for send operation to complete"}, `Timed out waiting (\d+) ?ms for (recv|send) operation to complete`, func(c *ctx, m [][]byte) {
		ms, _ := strconv.ParseFloat(string(m[1]), 64)
		what := "to receive from a peer rank"
		if string(m[2]) == "send" {
			what = "for a peer rank to take what it sent"
		}
		c.fail(CodeGlooTimeout, fmt.Sprintf("Gloo waited %s %s and gave up", secondsText(ms/1000), what), "")
	})
	return []rule{v1Died, v0Died, iteration, gloo, dpMarks()}
}

// dpMarks notes evidence of data parallelism: vLLM starting its DP
// coordinator ("Started DP Coordinator process (PID: 279)",
// "Process VLLM_DP_Coordinator:"), and traceback frames in its DP code.
func dpMarks() rule {
	return r([]string{"DP Coordinator", "DP_Coordinator", "DPCoordinator", "DPEngineCoreProc", "DPLBAsyncMPClient",
		"DPAsyncMPClient", "dp_group", "data_parallel", "has_global_unfinished_reqs"}, "", func(c *ctx, _ [][]byte) {
		msg := c.l.msg
		switch {
		case bytes.Contains(msg, []byte("Coordinator")):
			c.f.dpCoordinator = true
			c.p.dpFrames = true
		case c.l.indent || hasPrefix(msg, `File "`):
			// Only a frame or a source line: an argument dump names
			// data_parallel_size=1 without data parallelism.
			c.p.dpFrames = true
		}
	})
}

// deadWorker is the worker a LOG194 names.
type deadWorker struct {
	name string
	rank int // -1: not in the name
	pid  int // 0: not logged
	exit string
}

func (d *deadWorker) message() string {
	who := "worker " + d.name
	if d.rank >= 0 {
		who += fmt.Sprintf(" (rank %d)", d.rank)
	}
	if d.pid > 0 {
		who += fmt.Sprintf(" (pid %d)", d.pid)
	}
	return who + " died" + exitText(d.exit)
}

// exitText explains a multiprocessing exit code: -N is death by signal N.
func exitText(code string) string {
	n, err := strconv.Atoi(code)
	switch {
	case err != nil:
		return " unexpectedly"
	case n < 0:
		return fmt.Sprintf(" with exit code %d: killed by signal %d%s", n, -n, signalName(-n))
	}
	return fmt.Sprintf(" with exit code %d", n)
}

// signalName names the Linux signals workers die of.
func signalName(n int) string {
	names := map[int]string{6: "SIGABRT", 7: "SIGBUS", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}
	if s, ok := names[n]; ok {
		return " (" + s + ")"
	}
	return ""
}

// trailingRank reads the rank of "VllmWorker-3"; -1 without one.
func trailingRank(name string) int {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n < 0 || n >= 1<<20 {
		return -1
	}
	return n
}

// secondsText shows a timeout in seconds, with minutes when it is long.
func secondsText(s float64) string {
	if s >= 120 {
		return fmt.Sprintf("%.0f s (%.0f min)", s, s/60)
	}
	return strconv.FormatFloat(s, 'g', 4, 64) + " s"
}

// unrecognisedError reports whether a line is an ERROR (or CRITICAL) line
// of its own — not a traceback's scaffolding, which the exception at its
// end describes better.
func unrecognisedError(l *line) bool {
	if l.level == 0 && !l.indent && nativeError.Match(l.msg) {
		return true
	}
	if l.level != 'E' && l.level != 'C' || l.indent || len(bytes.TrimSpace(l.msg)) == 0 {
		return false
	}
	for _, s := range tracebackScaffolding {
		if hasPrefix(l.msg, s) {
			return false
		}
	}
	return true
}

// nativeError is an error line of a native runtime that writes past
// vLLM's logger: torch_npu/CANN's "[ERROR] 2025-12-29-13:22:36 (PID:…)"
// and torch.distributed's "… torch.distributed: [ERROR] …"
// (vllm-project/vllm-ascend#5493). Without a header it would not count, and
// a stall (shm_broadcast waits) ending in one unrecognised would pass as a
// clean log (qa44a F1).
var nativeError = regexp.MustCompile(`^\[ERROR\] \d{4}-\d\d-\d\d|torch\.distributed: \[ERROR\] `)

// tracebackScaffolding are the lines of a Python traceback that are not
// its message.
var tracebackScaffolding = []string{"Traceback (most recent call last)", `File "`, "During handling of the above exception",
	"The above exception was the direct cause", "^", "~"}
