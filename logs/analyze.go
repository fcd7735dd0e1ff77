package logs

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Caps on what an analysis keeps, whatever the input.
const (
	maxProcs    = 4096
	maxFailures = 1000
	// maxAttempts bounds the start-ups told apart in one file; a container
	// that restarted more often (docker logs of a crash loop) has its later
	// start-ups merged into the last one.
	maxAttempts = 64
)

// fileState is what the analysis keeps per input file.
type fileState struct {
	name     string
	gz       bool
	lines    int
	cutLines int
	cut      bool
	formats  formatSet
	// run is the start-up state of the file's server; origins that of each
	// server a capture interleaves (kubectl --prefix pods, compose
	// services, journald hosts), so that one's restart or progress is not
	// another's.
	run
	origins map[string]*run
	// vllmLines counts lines with vLLM's log header or a recognised
	// message: none means the file is not a vLLM log.
	vllmLines int
	// dpCoordinator is set when the file shows vLLM starting its DP
	// coordinator: the deployment is data-parallel.
	dpCoordinator bool
	// pydantic is the last ValidationError whose "Value error" line (its
	// reason) has not come yet (failrules_config.go).
	pydantic *pydanticNote
	// shmWaits counts vLLM's "No available shared memory broadcast block
	// found" lines, firstShmWait the first one's line (failrules_ascend.go).
	shmWaits, firstShmWait int
}

// run is how far one server's start-up got in a file, and how often it
// started again.
type run struct {
	attempt  int
	maxPhase phase
	serving  bool
	// nixlListener is set when the server shows NIXL's side-channel
	// listener thread failing ("Exception in thread nixl_handshake_listener");
	// hmaOff when vLLM turned the hybrid KV cache manager off because a KV
	// connector is configured (vllm#41830).
	nixlListener, hmaOff bool
	// profiled is set once a process of the server began the memory
	// profile (phase profiling), kvSized once one logged its KV cache
	// (phase kv-cache): a CUDA graph capture that finishes in between is
	// the memory profile's (0.21+), not the start-up's last step.
	profiled, kvSized bool
	// transferPeer is the last peer Mooncake's transfer engine said it
	// could not reach ("Failed to connect to target: HOST:PORT"), for
	// LOG214's message.
	transferPeer string
	// runtime is the first line showing the server or its engine running
	// (runtime.go): a failure's phase is decided from it.
	runtime *runtimeEvidence
	// startup is the first line showing the start-up itself (a start-up
	// failure's wrapper, a frame only the start-up runs).
	startup *runtimeEvidence
}

// maxOrigins bounds the servers told apart in one file; lines of further
// origins count as the file's own.
const maxOrigins = 256

// runOf is the start-up state of the line's origin.
func (f *fileState) runOf(origin []byte) *run {
	if len(origin) == 0 {
		return &f.run
	}
	if r, ok := f.origins[string(origin)]; ok {
		return r
	}
	if len(f.origins) >= maxOrigins {
		return &f.run
	}
	if f.origins == nil {
		f.origins = map[string]*run{}
	}
	r := &run{attempt: 1}
	f.origins[string(origin)] = r
	return r
}

// restarts counts the start-ups after the first, over all origins.
func (f *fileState) restarts() int {
	n := f.attempt - 1
	for _, r := range f.origins {
		n += r.attempt - 1
	}
	return n
}

// serving reports whether any server of the file finished starting.
func (f *fileState) anyServing() bool {
	if f.serving {
		return true
	}
	for _, r := range f.origins {
		if r.serving {
			return true
		}
	}
	return false
}

// analyzer holds the state of one analysis across its files.
type analyzer struct {
	files []*fileState
	// servedAt is, per input file, the last line that said a start-up
	// finished (phServing): an ERROR line before it did not stop the server.
	servedAt map[int]int
	procs    map[string]*proc
	byPID    map[string]*proc
	// sharedPID lists the pids (by pidKey) that two processes with
	// different DP ranks in their prefixes both used (sharedPIDNotes).
	sharedPID map[string][]*proc
	order     []*proc
	fails     failureSet
	seen      []uint32
	gen       uint32
	hits      []int32
	keybuf    []byte
	pidbuf    []byte
	overrun   int
	// warnings are said before the report (a file given twice).
	warnings []string
}

// compiled is built on first use, not at start-up: its ~30 rules' regexps and
// matcher cost every vlaunch command ~20 ms (speed42's profile), and only
// `logs` reads them.
var compiled = sync.OnceValue(compileRules)

// compiledRules is the rule table with its matcher.
type compiledRules struct {
	rules    []rule
	m        *matcher
	anchorOf []int32 // anchor id -> rule index
}

func compileRules() *compiledRules {
	rs := append(ruleTable(), failureRules()...)
	var anchors []string
	var owner []int32
	for i, ru := range rs {
		for _, a := range ru.anchors {
			anchors = append(anchors, a)
			owner = append(owner, int32(i))
		}
	}
	return &compiledRules{rules: rs, m: newMatcher(anchors), anchorOf: owner}
}

func newAnalyzer() *analyzer {
	return &analyzer{procs: map[string]*proc{}, byPID: map[string]*proc{},
		sharedPID: map[string][]*proc{}, servedAt: map[int]int{}, seen: make([]uint32, len(compiled().rules))}
}

// AnalyzeFiles opens, reads and closes every file, then builds the report.
// An unusable file (not regular, empty, binary, corrupt gzip) is an error
// wrapping ErrUnusable.
func AnalyzeFiles(paths []string) (*Report, error) {
	a := newAnalyzer()
	var seen []os.FileInfo
	var seenPath []string
	for _, path := range paths {
		// The same file given twice (under one name or two) is one
		// capture, not two servers: it is read once, with a warning.
		if fi, err := os.Stat(path); err == nil {
			dup := ""
			for i, s := range seen {
				if os.SameFile(s, fi) {
					dup = seenPath[i]
					break
				}
			}
			if dup != "" {
				a.warnings = append(a.warnings, fmt.Sprintf("%s is the same file as %s: read once", path, dup))
				continue
			}
			seen, seenPath = append(seen, fi), append(seenPath, path)
		}
		src, err := Open(path)
		if err != nil {
			return nil, err
		}
		err = a.read(src)
		src.Close()
		if err != nil {
			return nil, err
		}
	}
	return a.report(), nil
}

// Analyze reads already opened sources (it does not close them).
func Analyze(srcs ...*Source) (*Report, error) {
	a := newAnalyzer()
	for _, s := range srcs {
		if err := a.read(s); err != nil {
			return nil, err
		}
	}
	return a.report(), nil
}

// read streams one source through the rules.
func (a *analyzer) read(src *Source) error {
	f := &fileState{name: src.Name, gz: src.gz, run: run{attempt: 1}}
	fi := len(a.files)
	a.files = append(a.files, f)
	lr := newLineReader(src.r)
	pr := newPasteReader(lr)
	var p parser
	var l line
	for {
		raw, no, ok := pr.next()
		if !ok {
			break
		}
		l.no = no
		p.parse(raw, &l)
		l.formats |= pr.formats()
		f.formats |= l.formats
		if markupLine(&l) {
			continue // a code fence or a <details> tag around the paste
		}
		a.line(fi, f, &l)
	}
	f.lines, f.cutLines, f.cut = lr.no, lr.cut, src.Cut()
	if lr.err != nil {
		return fmt.Errorf("%s: %w: %v", src.Name, ErrUnusable, lr.err)
	}
	return nil
}

// line runs the rules whose anchors occur in the line's message.
func (a *analyzer) line(fi int, f *fileState, l *line) {
	a.hits = a.hits[:0]
	a.gen++
	start := false
	compiled().m.scan(l.msg, func(id int32) {
		ri := compiled().anchorOf[id]
		if a.seen[ri] == a.gen {
			return
		}
		a.seen[ri] = a.gen
		a.hits = append(a.hits, ri)
		start = start || compiled().rules[ri].start
	})
	rn := f.runOf(l.origin)
	// A banner after the start-up finished (serving) begins another
	// start-up even from a new pid: two logs concatenated ("cat A B"), each
	// start-up with its own arguments and figures.
	if start && rn.maxPhase >= phConfig && rn.attempt < maxAttempts && (len(l.proc) == 0 || rn.serving || a.startedAgain(fi, rn, l)) {
		rn.attempt++
		rn.maxPhase = phNone
		rn.serving = false
		rn.profiled, rn.kvSized = false, false
		rn.runtime, rn.startup = nil, nil
	}
	// A pasted excerpt often has no header ("Available KV cache memory:
	// 8.11 GiB" alone), so a recognised message counts as much as one.
	if l.level != 0 || len(a.hits) > 0 {
		f.vllmLines++
	}
	p := a.procFor(fi, rn, l)
	p.touch(l)
	p.started = p.started || start
	c := ctx{a: a, f: f, r: rn, p: p, l: l}
	p.noteFrame(l)
	for _, ri := range a.hits {
		ru := &compiled().rules[ri]
		if ru.plain && l.indent {
			continue
		}
		var m [][]byte
		if ru.re != nil {
			if m = ru.re.FindSubmatch(l.msg); m == nil {
				continue
			}
		}
		ru.apply(&c, m)
	}
	if !c.failed && !c.noted && unrecognisedError(l) {
		p.noteError(l)
	}
	p.waiting = c.waits
}

// procFor finds (or creates) the process a line belongs to: its prefix
// (with origin, host and pid) within its origin's current attempt, or the
// origin's unprefixed main process.
func (a *analyzer) procFor(fi int, f *run, l *line) *proc {
	if l.pid == 0 && len(l.proc) == 0 && l.grank >= 0 {
		if w := a.workerOfRank(fi, f.attempt, l); w != nil {
			return w
		}
		// torch.distributed's "[rank1]:" is the only process mark some
		// lines carry (spawned workers' tracebacks and c10d warnings).
		l.proc = append(l.rankName[:0], "rank"...)
		l.proc = strconv.AppendInt(l.proc, int64(l.grank), 10)
		l.rankName = l.proc
	}
	dp := prefixDP(l)
	k := a.key(fi, f.attempt, l.origin, l.host, l.pid, l.proc, dp)
	if p, ok := a.procs[string(k)]; ok {
		p.relabel(l)
		return p
	}
	var twin *proc
	if l.pid > 0 {
		pk := a.pidKey(fi, f.attempt, l.origin, l.pid)
		if p, ok := a.byPID[string(pk)]; ok && (len(l.proc) == 0 || len(l.host) == 0 || p.host == "") {
			// One pid, two DP ranks in the prefixes ("(EngineCore_DP0
			// pid=242)" and "(EngineCore_DP1 pid=242)"): two nodes' (or
			// containers') processes captured together, not one process.
			if sameDP(p.keyDP, dp) && len(a.sharedPID[string(pk)]) == 0 {
				if p.keyDP < 0 && dp >= 0 {
					p.keyDP = dp
					a.procs[string(k)] = p
				}
				p.relabel(l)
				return p
			}
			if len(l.proc) > 0 {
				twin = p
			}
		}
	}
	if len(a.order) >= maxProcs {
		a.overrun++
		l2 := line{grank: -1, outerDP: -1}
		k = a.key(fi, f.attempt, nil, nil, 0, []byte("overflow"), -1)
		if p, ok := a.procs[string(k)]; ok {
			return p
		}
		l = &l2
	}
	p := newProc(fi, f.attempt, len(a.order), l)
	p.keyDP = dp
	a.procs[string(k)] = p
	if l.pid > 0 {
		pk := string(a.pidKey(fi, f.attempt, l.origin, l.pid))
		if twin != nil {
			if len(a.sharedPID[pk]) == 0 {
				a.sharedPID[pk] = []*proc{twin}
			}
			a.sharedPID[pk] = append(a.sharedPID[pk], p)
		} else if len(l.proc) == 0 && len(a.sharedPID[pk]) > 0 {
			// A line with the shared pid and no process name: it could be
			// either process's, so it is kept apart (and said so).
			p.ambiguous = true
			p.label += " (unattributed: pid shared)"
			a.sharedPID[pk] = append(a.sharedPID[pk], p)
		}
		if _, ok := a.byPID[pk]; !ok || twin == nil {
			a.byPID[pk] = p
		}
	}
	a.order = append(a.order, p)
	return p
}

// workerOfRank is the one vLLM worker of the file's attempt and origin a
// "[rankN]:" line belongs to: torch_npu/c10d print the torch rank past
// vLLM's prefix, so "[rank0]:[E1229 …] HCCL watchdog …" is
// "(Worker_DP0_TP0_EP0 pid=359)"'s line (vllm-project/vllm-ascend#5493,
// qa44a F15), not a rank of its own. Only an unambiguous match counts: one
// worker with that TP rank (PP 0) and one DP engine among the workers, or
// one whose global rank is N. nil otherwise.
func (a *analyzer) workerOfRank(fi, attempt int, l *line) *proc {
	var match *proc
	dps := map[int]bool{}
	n := 0
	for _, q := range a.order {
		if q.file != fi || q.attempt != attempt || q.origin != string(l.origin) || q.role != roleWorker || q.label == "" || strings.HasPrefix(q.label, "rank") {
			continue
		}
		dps[q.dp] = true
		if q.grank == l.grank || (q.grank < 0 && q.tp == l.grank && q.pp <= 0) {
			match = q
			n++
		}
	}
	if n != 1 || len(dps) != 1 {
		return nil
	}
	return match
}

// startedAgain: a prefixed process ("(APIServer pid=1)") that already
// logged its start (the version banner) logs it again. One process starts
// once, so this is a new server in the same file — a restart in a
// container that reuses the pid, or two captures concatenated — and its
// arguments and figures are the new start-up's, not the first one's.
func (a *analyzer) startedAgain(fi int, rn *run, l *line) bool {
	p, ok := a.procs[string(a.key(fi, rn.attempt, l.origin, l.host, l.pid, l.proc, prefixDP(l)))]
	return ok && p.started
}

// prefixDP is the DP rank a line's process prefix states — "EngineCore_DP1",
// "Worker_DP1_TP0", or the engine core that relays a Ray worker's line —
// or -1 when it states none.
func prefixDP(l *line) int {
	name := string(l.proc)
	if strings.HasPrefix(name, "EngineCore") {
		s := strings.TrimPrefix(name, "EngineCore")
		s = strings.TrimPrefix(strings.TrimPrefix(s, "_"), "DP")
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < maxDP {
			return n
		}
		return -1
	}
	for _, s := range []string{name, string(l.tag)} {
		for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == ' ' }) {
			if strings.HasPrefix(tok, "DP") {
				if n, err := strconv.Atoi(tok[2:]); err == nil && n >= 0 && n < maxDP {
					return n
				}
			}
		}
	}
	if l.outerDP >= 0 {
		return l.outerDP
	}
	return -1
}

// sameDP: two prefixes' DP ranks do not contradict each other.
func sameDP(a, b int) bool { return a < 0 || b < 0 || a == b }

func (a *analyzer) key(fi, attempt int, origin, host []byte, pid int, name []byte, dp int) []byte {
	b := a.keybuf[:0]
	b = strconv.AppendInt(b, int64(fi), 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(attempt), 10)
	b = append(b, '|')
	b = append(b, origin...)
	b = append(b, '|')
	b = append(b, host...)
	b = append(b, '|')
	if pid > 0 {
		b = strconv.AppendInt(b, int64(pid), 10)
		if dp >= 0 {
			b = append(b, "|dp"...)
			b = strconv.AppendInt(b, int64(dp), 10)
		}
	} else {
		b = append(b, name...)
	}
	a.keybuf = b
	return b
}

func (a *analyzer) pidKey(fi, attempt int, origin []byte, pid int) []byte {
	b := a.pidbuf[:0]
	b = strconv.AppendInt(b, int64(fi), 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(attempt), 10)
	b = append(b, '|')
	b = append(b, origin...)
	b = append(b, "|pid|"...)
	b = strconv.AppendInt(b, int64(pid), 10)
	a.pidbuf = b
	return b
}
