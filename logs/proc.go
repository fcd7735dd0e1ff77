package logs

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// role is what kind of vLLM process wrote a line.
type role int

const (
	roleMain   role = iota // no process prefix: the launching process (V0 driver, early V1, API server)
	roleAPI                // (APIServer pid=…), (ApiServer_0 pid=…)
	roleEngine             // (EngineCore pid=…), (EngineCore_DP3 pid=…), (EngineCore_3 pid=…)
	roleWorker             // (VllmWorker rank=1 …), (Worker_TP0 …), (VllmWorkerProcess …), Ray workers
)

// proc is one process of one file: the lines its prefix (or lack of one)
// attributes to it, what it logged and how far it got.
type proc struct {
	file    int
	attempt int
	seq     int // creation order, for stable output
	label   string
	name    string
	pid     int
	host    string
	origin  string // the capture tool's pod, host or service (line.origin)
	role    role
	// keyDP is the DP rank its prefix states (prefixDP), -1 if none: two
	// prefixes with one pid and different DP ranks are two processes.
	keyDP int
	// ambiguous marks the lines of a pid two processes shared that carry
	// no process name: they cannot be attributed to either.
	ambiguous bool
	// started is set once the process logged a start line (the version
	// banner): a second one is a new server's (startedAgain).
	started bool
	// argsLine is the line of its first argument set; argsOther that of a
	// different one it logged later in the same start-up (0: none).
	argsLine, argsOther int
	// ranks as logged; -1 when unknown.
	dp, tp, pp, ep, grank, world int
	phase                        phase
	phaseLine                    int
	last                         lineRef
	lastText                     []byte
	lastStamp                    []byte
	facts                        facts
	args                         map[string]string
	config                       map[string]string
	peakTorch                    val // V0 0.6.4 peak_torch_memory (includes weights)
	// consumed is 0.26+'s "consumed memory (weights + non-torch)" of the
	// Free-memory summary: non-torch memory is it less the weights.
	consumed val
	// lines counts the process's lines, bars those that are a progress
	// bar ("Loading safetensors checkpoint shards:  99% Completed |
	// 161/163 […]", tqdm's "67%|██▋ | 2/3") and nothing else.
	lines, bars           int
	exc, wrapper, errLine *excNote
	// dpFrames is set when the process's traceback runs through vLLM's
	// data-parallel code: a Gloo or ZMQ failure there is a DP one.
	dpFrames bool
	// nixlFrames is set when its traceback runs through NIXL's connector
	// (a ZMQ error there is the side channel's, not DP's); tpRatioFrame
	// when it shows NIXL's `tp_rank // tp_ratio` (a ZeroDivisionError
	// after it is the TP pairing's).
	nixlFrames, tpRatioFrame bool
	// zmqAgain is set when the process logged ZMQ's timeout ("zmq.error.Again:
	// Resource temporarily unavailable"): a handshake failure after it is
	// a prefill side channel that did not answer.
	zmqAgain bool
	// kvNeed is the KV memory a V1 "To serve at least one request …"
	// line said one sequence needs when the message was wrapped before
	// "which is larger than the available KV cache memory (…)" (vllm#46778).
	kvNeed string
	// kvMetrics are NIXL's periodic "KV Transfer metrics" lines.
	kvMetrics *KVTransferMetrics
	// ucxError is the process's last "UCX  ERROR" line: what NIXL's
	// backend error (LOG211) passes on.
	ucxError string
	// waiting is set when the process's last line says it waits for
	// another one; tracebacks counts the tracebacks it began; graphFrames
	// is set when its current traceback runs through CUDA-graph capture.
	waiting, graphFrames bool
	tracebacks           int
	// dgFrames says what the current traceback was doing when it reached
	// DeepGEMM (warm-up, sparse attention, weight post-processing): the
	// bits of dgWarmup, dgSparse and dgWeights (failrules_deepgemm.go).
	dgFrames uint8
	// framePh is the latest start-up phase the current traceback's
	// frames show (framePhase); the exception that ends the traceback
	// moves the process there (noteException).
	framePh phase
	// frame is the innermost traceback frame seen so far ("kv_cache_utils.py:1096
	// in unify_kv_cache_spec_page_size") and frameCode its source line: where
	// an exception without a message (a bare "AssertionError") was raised.
	frame, frameCode string
	frameWant        bool
	// subprocess is set once the process logged vLLM's "RuntimeError:
	// Error raised in subprocess:" (subprocessWrap): the next exception it
	// logs is the subprocess's own, the cause.
	subprocess bool
}

// progressBar is a progress bar's percentage and bar: vLLM's own
// "NN% Completed |" (its tqdm format for checkpoint shards) and tqdm's
// default "NN%|".
var progressBar = regexp.MustCompile(`\b\d{1,3}%(?: Completed)? ?\|`)

// frameLine is a traceback's frame line, after its indent.
var frameLine = regexp.MustCompile(`^File "(?:[^"]*/)?([^"/]+)", line (\d+), in (\S+)$`)

// noteFrame follows a traceback's frames: the last frame and the source
// line that follows it.
func (p *proc) noteFrame(l *line) {
	if !l.indent && !hasPrefix(l.msg, `File "`) {
		return
	}
	if m := frameLine.FindSubmatch(l.msg); m != nil {
		p.frame = string(m[1]) + ":" + string(m[2]) + " in " + string(m[3])
		p.frameCode, p.frameWant = "", true
		return
	}
	if p.frameWant && l.indent && len(bytes.Trim(l.msg, "^~ ")) > 0 {
		p.frameCode = clip(string(l.msg), 160)
		p.frameWant = false
	}
}

// lineRef points at a line of a file.
type lineRef struct {
	file, no int
}

func newProc(file, attempt, seq int, l *line) *proc {
	p := &proc{file: file, attempt: attempt, seq: seq, dp: -1, tp: -1, pp: -1, ep: -1, grank: -1, world: -1}
	p.name = string(l.proc)
	p.pid = l.pid
	p.host = string(l.host)
	p.origin = string(l.origin)
	p.classify(l)
	return p
}

// classify reads the role and the ranks a process prefix carries.
func (p *proc) classify(l *line) {
	name, tag := string(l.proc), string(l.tag)
	switch {
	case name == "":
		p.role = roleMain
	case strings.HasPrefix(strings.ToLower(name), "apiserver"):
		p.role = roleAPI
	case strings.HasPrefix(name, "EngineCore"):
		p.role = roleEngine
		p.dp = engineDP(name)
	default:
		p.role = roleWorker
	}
	readRankTokens(p, name)
	readRankTokens(p, tag)
	if p.role == roleWorker && p.dp < 0 && l.outerDP >= 0 {
		p.dp = l.outerDP
	}
	p.label = labelOf(l)
}

// engineDP reads "EngineCore_DP3" and "EngineCore_3" (0.8–0.10); a plain
// "EngineCore" is the only engine, DP rank 0.
func engineDP(name string) int {
	s := strings.TrimPrefix(name, "EngineCore")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "_"), "DP")
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < maxDP {
		return n
	}
	return 0
}

// maxDP bounds DP ranks taken from a log, so a hostile log cannot make the
// report enumerate millions of engines.
const maxDP = 4096

// readRankTokens reads "rank=1", "TP0", "Worker_DP1_TP0_EP1".
func readRankTokens(p *proc, s string) {
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == ' ' }) {
		switch {
		case strings.HasPrefix(tok, "rank="):
			setRank(&p.grank, tok[5:])
		case strings.HasPrefix(tok, "rank"):
			setRank(&p.grank, tok[4:])
		case strings.HasPrefix(tok, "TP"):
			setRank(&p.tp, tok[2:])
		case strings.HasPrefix(tok, "PP"):
			setRank(&p.pp, tok[2:])
		case strings.HasPrefix(tok, "EP"):
			setRank(&p.ep, tok[2:])
		case strings.HasPrefix(tok, "DP") && p.role == roleWorker:
			setRank(&p.dp, tok[2:])
		}
	}
}

func setRank(dst *int, s string) {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < 1<<20 {
		*dst = n
	}
}

// labelOf is how a report names the process: its prefix as printed.
func labelOf(l *line) string {
	if len(l.proc) == 0 {
		if l.pid > 0 {
			return "pid=" + strconv.Itoa(l.pid)
		}
		return "main"
	}
	var b strings.Builder
	b.Write(l.proc)
	if len(l.tag) > 0 {
		b.WriteByte(' ')
		b.Write(l.tag)
	}
	if l.pid > 0 {
		b.WriteString(" pid=")
		b.WriteString(strconv.Itoa(l.pid))
	}
	if len(l.host) > 0 && bytes.IndexByte(l.host, '.') >= 0 {
		b.WriteString(" ip=")
		b.Write(l.host)
	}
	return clip(b.String(), 96)
}

// relabel keeps the most specific prefix a process has shown: vLLM renames
// "(Worker pid=444)" to "(Worker_TP0 pid=444)" once the rank is known.
func (p *proc) relabel(l *line) {
	if len(l.proc) == 0 || (string(l.proc) == p.name && len(l.tag) == 0) {
		return
	}
	if len(l.proc)+len(l.tag) < len(p.name) {
		return
	}
	p.name = string(l.proc)
	old := p.role
	p.classify(l)
	if old == roleEngine {
		p.role = old
	}
}

// advance moves the process to a later phase (never back).
func (p *proc) advance(ph phase, no int) {
	if ph > p.phase {
		p.phase, p.phaseLine = ph, no
	}
}

// touch records the process's last line.
func (p *proc) touch(l *line) {
	p.lines++
	if l.level == 0 && progressBar.Match(l.msg) {
		p.bars++
	}
	p.last = lineRef{file: p.file, no: l.no}
	n := min(len(l.msg), 240)
	p.lastText = append(p.lastText[:0], l.msg[:n]...)
	stamp := l.vstamp
	if len(l.stamp) > 0 {
		stamp = l.stamp
	}
	if len(stamp) > 0 {
		p.lastStamp = append(p.lastStamp[:0], stamp[:min(len(stamp), 40)]...)
	}
}

// rankOrder sorts workers: known global rank first, then TP/PP rank, then
// creation order. The first worker is the "driver" whose figures an engine reports.
func (p *proc) rankOrder() [3]int {
	r := p.grank
	if r < 0 {
		r = 1 << 30
	}
	t := p.tp
	if t < 0 {
		t = 1 << 30
	}
	return [3]int{r, t, p.seq}
}

// excNote is an exception line kept as the likely cause of a failed start.
type excNote struct {
	at   lineRef
	text string
}

// noteException keeps the first exception a process logged that is not a
// wrapper ("Engine core initialization failed"): the root cause.
func (p *proc) noteException(l *line) {
	// The process failed in the step its traceback runs through: that is
	// its phase when it logged none further of its own (a worker whose
	// only lines are its traceback, DeepGEMM#301's). A cut traceback,
	// with no exception, moves nothing (cutTraceback reports it).
	p.advance(p.framePh, l.no)
	if p.subprocess {
		// The subprocess's stderr, logged after vLLM's wrapper: its
		// exception is the cause the wrapper and the CalledProcessError
		// before it only relay.
		p.subprocess, p.exc = false, nil
	}
	if bytes.Contains(l.msg, subprocessWrap) {
		p.subprocess = true
	}
	if p.exc == nil {
		text := clip(string(l.msg), 400)
		// A bare exception ("AssertionError" alone, an assert without a
		// message; eugr/spark-vllm-docker#296) says nothing by itself: the
		// frame that raised it does.
		if bareException.Match(l.msg) && p.frame != "" {
			text += " (raised at " + p.frame
			if p.frameCode != "" {
				text += ": " + p.frameCode
			}
			text += ")"
		}
		p.exc = &excNote{at: lineRef{p.file, l.no}, text: text}
	}
}

// subprocessWrap is what vLLM raises when a check it runs in a child
// Python process fails (vllm/model_executor/models/registry.py
// _run_in_subprocess, inspecting a model's class; seen in logs from an
// Apr 2025 build, registry.py:354, to a Sep 2025 one, registry.py:449;
// the same in tests/utils.py): "RuntimeError: Error raised in subprocess:\n" and the
// child's stderr, whose traceback ends in the real exception
// (vllm-project/vllm-ascend#2889: "AttributeError: module
// 'triton.language' has no attribute 'exp'", after a CalledProcessError
// that only says the child exited 1).
var subprocessWrap = []byte("Error raised in subprocess:")

// bareException is an exception line with no message.
var bareException = regexp.MustCompile(`^(?:\[rank\d+\]: ?)?[A-Za-z_][\w.]*(?:Error|Exception)\s*$`)

// noteError keeps the first ERROR line of a process that no rule
// recognised and that is neither an exception nor a wrapper.
func (p *proc) noteError(l *line) {
	if p.errLine == nil {
		p.errLine = &excNote{at: lineRef{p.file, l.no}, text: clip(string(l.msg), 400)}
	}
}

// noteWrapper keeps the first "failed to start" message of a process.
func (p *proc) noteWrapper(l *line) {
	if p.wrapper == nil {
		p.wrapper = &excNote{at: lineRef{p.file, l.no}, text: clip(string(l.msg), 400)}
	}
}
