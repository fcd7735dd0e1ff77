package logs

import (
	"bytes"
	"strings"
)

// caretESC is how `cat -v` and some pastes show ESC: "^[[0;36m".
var caretESC = []byte("^[[")

// wordESC is how `less` (without -R) and some viewers show ESC, copied
// into an issue as text: "(EngineCore_DP0 pid=35109)ESC[0;0m ERROR ..."
// (vllm-project/vllm#25043). Only a colour sequence ("ESC[" digits and
// ';' then 'm') is taken for one: the word alone stays text.
var wordESC = []byte("ESC[")

// wordSGR returns the length of a colour sequence written with wordESC at
// the start of b, 0 if there is none.
func wordSGR(b []byte) int {
	if !bytes.HasPrefix(b, wordESC) {
		return 0
	}
	i := len(wordESC)
	for i < len(b) && i < 24 && (isDigit(b[i]) || b[i] == ';') {
		i++
	}
	if i < len(b) && b[i] == 'm' {
		return i + 1
	}
	return 0
}

// stripANSI appends b to dst without terminal escape sequences: CSI
// ("\x1b[...m"), OSC ("\x1b]...\a"), their caret-notation copies and
// colour sequences written as the word "ESC[".
func stripANSI(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		switch {
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[':
			i = skipCSI(b, i+2)
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == ']':
			i = skipOSC(b, i+2)
		case b[i] == 0x1b:
			i++
		case b[i] == '^' && bytes.HasPrefix(b[i:], caretESC):
			i = skipCSI(b, i+3)
		case b[i] == 'E' && wordSGR(b[i:]) > 0:
			i += wordSGR(b[i:])
		default:
			dst = append(dst, b[i])
			i++
		}
	}
	return dst
}

// skipCSI skips parameter bytes up to and including the final byte.
func skipCSI(b []byte, i int) int {
	for i < len(b) && (b[i] >= 0x20 && b[i] <= 0x3f) {
		i++
	}
	if i < len(b) && b[i] >= 0x40 && b[i] <= 0x7e {
		i++
	}
	return i
}

// skipOSC skips to BEL or ESC-backslash.
func skipOSC(b []byte, i int) int {
	for i < len(b) {
		if b[i] == 0x07 {
			return i + 1
		}
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
			return i + 2
		}
		i++
	}
	return i
}

// peelBracket handles "[pod/name/container] " (kubectl --prefix),
// "[2025-03-10T15:07:20Z] " (CI) and "[rank3]:" (torch.distributed).
func peelBracket(b []byte, l *line) []byte {
	end := bytes.IndexByte(b, ']')
	if end < 2 || end > 256 {
		return b
	}
	in := b[1:end]
	rest := b[end+1:]
	switch {
	case bytes.HasPrefix(in, []byte("rank")) && len(rest) > 0 && rest[0] == ':':
		if n, ok := atoi(in[4:]); ok {
			l.grank = n
			return rest[1:]
		}
	case len(rest) > 0 && rest[0] == ' ' && isRFC3339(in) > 0:
		l.formats |= fmtCI
		l.stamp = in
		return rest[1:]
	case len(rest) > 0 && rest[0] == ' ' && bytes.Count(in, []byte("/")) == 2 && bytes.IndexByte(in, ' ') < 0:
		l.formats |= fmtKubectlPrefix
		parts := bytes.SplitN(in, []byte("/"), 3)
		l.host, l.origin = parts[1], parts[1]
		return rest[1:]
	}
	return b
}

// peelTimestamp handles docker/kubectl --timestamps ("2025-01-02T03:04:05.123Z ")
// and journald -o short-iso ("2025-01-02T03:04:05+0000 host ident[pid]: ").
func peelTimestamp(b []byte, l *line) []byte {
	n := isRFC3339(b)
	if n == 0 || n >= len(b) || b[n] != ' ' {
		return b
	}
	l.stamp = b[:n]
	rest := peelCRIStream(b[n+1:])
	l.formats |= fmtTimestamps
	if journaldOffset(b[:n]) {
		if r, ok := peelHostIdent(rest, l); ok {
			l.formats |= fmtJournald
			return r
		}
	}
	return rest
}

// isRFC3339 returns the length of an RFC 3339 timestamp at the start of b.
func isRFC3339(b []byte) int {
	const layout = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(layout) {
		return 0
	}
	for i := 0; i < len(layout); i++ {
		if layout[i] == 'd' && !isDigit(b[i]) || layout[i] != 'd' && b[i] != layout[i] {
			return 0
		}
	}
	i := len(layout)
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		i++
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	switch {
	case i < len(b) && b[i] == 'Z':
		return i + 1
	case i+5 <= len(b) && (b[i] == '+' || b[i] == '-'):
		j := i + 1
		for j < len(b) && (isDigit(b[j]) || b[j] == ':') && j-i <= 6 {
			j++
		}
		return j
	}
	return i
}

// journaldOffset: journald prints "+0000", docker and kubectl print "Z".
func journaldOffset(ts []byte) bool {
	return len(ts) > 5 && (ts[len(ts)-5] == '+' || ts[len(ts)-5] == '-')
}

var months = []string{"Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec "}

// peelJournald handles journalctl's default "Mar 04 12:00:00 host vllm[123]: ".
func peelJournald(b []byte, l *line) []byte {
	if len(b) < 16 || !hasMonth(b) {
		return b
	}
	day, clock := b[4:6], b[7:15]
	if !(isDigit(day[1]) && (isDigit(day[0]) || day[0] == ' ')) || b[6] != ' ' ||
		!(clock[2] == ':' && clock[5] == ':') || b[15] != ' ' {
		return b
	}
	r, ok := peelHostIdent(b[16:], l)
	if !ok {
		return b
	}
	l.stamp = b[:15]
	l.formats |= fmtJournald
	return r
}

func hasMonth(b []byte) bool {
	for _, m := range months {
		if bytes.HasPrefix(b, []byte(m)) {
			return true
		}
	}
	return false
}

// peelHostIdent removes "host ident[pid]: " or "host ident: ".
func peelHostIdent(b []byte, l *line) ([]byte, bool) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 || sp > 128 {
		return b, false
	}
	rest := b[sp+1:]
	colon := bytes.Index(rest, []byte(": "))
	if colon <= 0 || colon > 128 || bytes.IndexByte(rest[:colon], ' ') >= 0 {
		return b, false
	}
	ident := rest[:colon]
	if i := bytes.IndexByte(ident, '['); i >= 0 && ident[len(ident)-1] != ']' {
		return b, false
	}
	l.host, l.origin = b[:sp], b[:sp]
	return rest[colon+2:], true
}

// peelStern handles stern's default "POD CONTAINER " before each line
// (`stern -l app=vllm`, several pods in one stream): two Kubernetes names,
// then what a vLLM line starts with — a process prefix, a level header or a
// timestamp — so that prose with two lowercase words is left alone.
func peelStern(b []byte, l *line) []byte {
	pod, rest, ok := k8sName(b)
	if !ok {
		return b
	}
	_, rest, ok = k8sName(rest)
	if !ok || !vllmLineStart(rest) {
		return b
	}
	l.host, l.origin = pod, pod
	l.formats |= fmtStern
	return rest
}

// k8sName reads a Kubernetes object name (lowercase letters, digits, '-'
// and '.', at most 253 bytes) and the single space after it.
func k8sName(b []byte) (name, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i < 253 && (b[i] >= 'a' && b[i] <= 'z' || isDigit(b[i]) || b[i] == '-' || b[i] == '.') {
		i++
	}
	if i == 0 || i >= len(b) || b[i] != ' ' {
		return nil, b, false
	}
	return b[:i], b[i+1:], true
}

// vllmLineStart reports whether b starts as a vLLM log line does: a
// process prefix "(EngineCore_DP0 pid=1)", a level header "INFO 04-22
// 01:06:06 " or an RFC 3339 timestamp.
func vllmLineStart(b []byte) bool {
	var scratch line
	switch {
	case len(b) > 0 && b[0] == '(':
		end := bytes.IndexByte(b, ')')
		return end > 0 && end <= 160 && parseProcess(b[1:end], &scratch)
	case isRFC3339(b) > 0:
		return true
	}
	for _, lv := range levels {
		if bytes.HasPrefix(b, []byte(lv.word)) {
			_, ok := peelStampSrc(b[len(lv.word):], &scratch)
			return ok
		}
	}
	return false
}

// peelCompose handles docker compose's "service-1  | ".
func peelCompose(b []byte, l *line) []byte {
	i := 0
	for i < len(b) && i < 128 && (isAlnum(b[i]) || b[i] == '-' || b[i] == '_' || b[i] == '.') {
		i++
	}
	j := i
	for j < len(b) && b[j] == ' ' {
		j++
	}
	if i == 0 || j == i || j+1 >= len(b) || b[j] != '|' || b[j+1] != ' ' {
		return b
	}
	l.host, l.origin = b[:i], b[:i]
	l.formats |= fmtCompose
	return b[j+2:]
}

// peelNCCL handles NCCL's own "host:pid:tid [dev] NCCL INFO ..." lines,
// keeping "NCCL ..." as the message and the pid to find the process.
func peelNCCL(b []byte, l *line) []byte {
	c1 := bytes.IndexByte(b, ':')
	if c1 <= 0 || c1 > 128 {
		return b
	}
	pid, n := leadingInt(b[c1+1:])
	if n == 0 || c1+1+n >= len(b) || b[c1+1+n] != ':' {
		return b
	}
	rest := b[c1+2+n:]
	_, m := leadingInt(rest)
	if m == 0 || !bytes.HasPrefix(rest[m:], []byte(" [")) {
		return b
	}
	close := bytes.IndexByte(rest[m:], ']')
	if close < 0 {
		return b
	}
	msg := trimSpaceLeft(rest[m+close+1:])
	if !bytes.HasPrefix(msg, []byte("NCCL ")) {
		return b
	}
	l.host, l.pid = b[:c1], pid
	return msg
}

// peelProcess removes "(Name tag pid=N)" and "(Name pid=N, ip=A)", and
// such a prefix whose "(" a copy lost (lostParen).
func peelProcess(b []byte, l *line) []byte {
	if len(b) < 4 {
		return b
	}
	start := 1
	if b[0] != '(' {
		start = 0
	}
	end := bytes.IndexByte(b, ')')
	if end < 0 || end > 160 || start == 0 && !lostParen(b, end) {
		return b
	}
	if !parseProcess(b[start:end], l) {
		return b
	}
	rest := b[end+1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	// A Ray actor that hosts vLLM prefixes vLLM's own prefixed lines
	// (verl-project/verl#4926: "(vLLMHttpServer pid=62552,
	// ip=172.17.207.216) (EngineCore_DP1 pid=62912) ERROR …"): the inner
	// process is the one that logged, the actor's IP stays its host.
	// V1's Ray executor is the other way round: the engine core relays
	// its Ray workers' output under its own prefix (LMCache/LMCache#2236:
	// "(EngineCore_DP0 pid=527163) (RayWorkerWrapper pid=514818) …"); the
	// worker is the one that logged, and it serves that engine's DP rank.
	if len(rest) > 3 && rest[0] == '(' {
		outer := *l
		if inner := peelProcess(rest, l); len(inner) != len(rest) {
			if bytes.HasPrefix(outer.proc, []byte("EngineCore")) && !bytes.HasPrefix(l.proc, []byte("EngineCore")) {
				l.outerDP = engineDP(string(outer.proc))
			}
			return inner
		}
		*l = outer
	}
	if len(rest) > 0 && rest[0] == '[' {
		rest = peelBracket(rest, l)
	}
	return rest
}

// lostParen reports whether b starts with a process prefix that lost its
// opening parenthesis, as a copy that cut the line's first character
// leaves it (vllm-project/vllm#37974's paste: "EngineCore pid=114613)
// (RayWorkerWrapper pid=29113, ip=10.45.7.181) ERROR …"). end is the
// index of its ")". A line's own text can hold "name pid=N)" too, so the
// prefix counts only when it has no "(" of its own and what follows it
// starts a vLLM line: another process prefix, vLLM's level and
// timestamp, or an RFC 3339 time.
func lostParen(b []byte, end int) bool {
	if !isIdent(b[:1]) || bytes.IndexByte(b[:end], '(') >= 0 || !bytes.Contains(b[:end], []byte("pid=")) {
		return false
	}
	return vllmLineStart(skipOneSpace(b[end+1:]))
}

// parseProcess reads "VllmWorker rank=1 pid=7" or "RayWorkerWrapper pid=7, ip=10.0.0.2"
// without allocating.
func parseProcess(in []byte, l *line) bool {
	var name, tag, ip []byte
	pid, ok := 0, false
	for i := 0; i < len(in); {
		for i < len(in) && (in[i] == ' ' || in[i] == ',') {
			i++
		}
		j := i
		for j < len(in) && in[j] != ' ' && in[j] != ',' {
			j++
		}
		f := in[i:j]
		i = j
		switch {
		case len(f) == 0:
		case name == nil:
			if !isIdent(f) {
				return false
			}
			name = f
		case bytes.HasPrefix(f, []byte("pid=")):
			n, good := atoi(f[4:])
			if !good {
				return false
			}
			pid, ok = n, true
		case bytes.HasPrefix(f, []byte("ip=")):
			ip, ok = f[3:], true
		case tag == nil:
			tag = f
		default:
			return false
		}
	}
	if !ok || name == nil {
		return false
	}
	l.proc, l.tag, l.pid = name, tag, pid
	if ip != nil {
		l.host = ip
		l.formats |= fmtRay
	}
	return true
}

// isIdent accepts a process name: a Python identifier with '-', and ':'
// for Ray Serve's replica actors ("ServeReplica:app:LLMServer:model",
// ray-project/ray#66230, whose prefix wraps vLLM's own).
func isIdent(b []byte) bool {
	if len(b) == 0 || !(b[0] >= 'A' && b[0] <= 'Z' || b[0] >= 'a' && b[0] <= 'z') {
		return false
	}
	for _, c := range b {
		if !isAlnum(c) && c != '_' && c != '-' && c != ':' {
			return false
		}
	}
	return true
}

var levels = []struct {
	word string
	c    byte
}{{"INFO", 'I'}, {"WARNING", 'W'}, {"ERROR", 'E'}, {"DEBUG", 'D'}, {"CRITICAL", 'C'}, {"WARN", 'W'}}

// peelHeader removes vLLM's logger header: "INFO 04-22 01:06:06 [file.py:12] "
// (0.8 and later) or "INFO 08-02 08:50:03 worker_base.py:382] " (older),
// and uvicorn's "INFO:     ".
func peelHeader(b []byte, l *line) []byte {
	for _, lv := range levels {
		if !bytes.HasPrefix(b, []byte(lv.word)) {
			continue
		}
		rest := b[len(lv.word):]
		if len(rest) > 0 && rest[0] == ':' {
			l.level = lv.c
			return trimSpaceLeft(rest[1:])
		}
		if r, ok := peelStampSrc(rest, l); ok {
			l.level = lv.c
			return r
		}
		return b
	}
	if r, ok := peelCutLevel(b, l); ok {
		return r
	}
	return b
}

// peelStampSrc reads " MM-DD HH:MM:SS[.fff] [src] " or " MM-DD HH:MM:SS src] ".
func peelStampSrc(b []byte, l *line) ([]byte, bool) {
	const layout = " dd-dd dd:dd:dd"
	if len(b) < len(layout)+2 {
		return b, false
	}
	for i := 0; i < len(layout); i++ {
		if layout[i] == 'd' && !isDigit(b[i]) || layout[i] != 'd' && b[i] != layout[i] {
			return b, false
		}
	}
	l.vstamp = b[1:len(layout)]
	i := len(layout)
	if b[i] == '.' || b[i] == ',' {
		i++
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i >= len(b) || b[i] != ' ' {
		return b, false
	}
	rest := b[i+1:]
	if len(rest) > 0 && rest[0] == '[' {
		end := bytes.IndexByte(rest, ']')
		if end < 0 || end > 256 {
			return b, false
		}
		l.src = rest[1:end]
		return skipOneSpace(rest[end+1:]), true
	}
	end := bytes.Index(rest, []byte("] "))
	if end < 0 || end > 256 || bytes.IndexByte(rest[:end], ' ') >= 0 {
		if bytes.HasSuffix(rest, []byte("]")) && bytes.IndexByte(rest, ' ') < 0 {
			l.src = rest[:len(rest)-1]
			return nil, true
		}
		return b, false
	}
	l.src = rest[:end]
	return rest[end+2:], true
}

// findGluedHeader finds a process prefix or logger header that a progress
// bar or another process's output pushed into the middle of the line.
func findGluedHeader(b []byte, l *line) []byte {
	if i := bytes.Index(b, []byte(" pid=")); i > 0 {
		if j := bytes.LastIndexByte(b[:i], '('); j > 0 && i-j < 64 {
			if r := peelProcess(b[j:], l); len(l.proc) > 0 {
				return peelHeader(r, l)
			}
		}
	}
	for _, lv := range levels[:5] {
		for off := 0; off < len(b); {
			i := bytes.Index(b[off:], []byte(lv.word+" "))
			if i < 0 {
				break
			}
			at := off + i
			if at > 0 {
				var probe line
				if r, ok := peelStampSrc(b[at+len(lv.word):], &probe); ok {
					l.level, l.vstamp, l.src = lv.c, probe.vstamp, probe.src
					return r
				}
			}
			off = at + len(lv.word)
		}
	}
	return b
}

// peelRepeated removes Ray's " [repeated 30x across cluster]" suffix.
func peelRepeated(b []byte, l *line) []byte {
	const suf = "x across cluster]"
	if !bytes.HasSuffix(b, []byte(suf)) {
		return b
	}
	i := bytes.LastIndex(b, []byte(" [repeated "))
	if i < 0 {
		return b
	}
	if n, ok := atoi(b[i+len(" [repeated ") : len(b)-len(suf)]); ok {
		l.repeated = n
		l.formats |= fmtRay
		return b[:i]
	}
	return b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// atoi parses a non-negative decimal int of at most 9 digits.
func atoi(b []byte) (int, bool) {
	n, k := leadingInt(b)
	return n, k == len(b) && k > 0
}

// leadingInt parses the digits at the start of b (at most 9).
func leadingInt(b []byte) (int, int) {
	n, i := 0, 0
	for i < len(b) && i < 9 && isDigit(b[i]) {
		n = n*10 + int(b[i]-'0')
		i++
	}
	return n, i
}

// skipOneSpace drops the single space after a header, keeping any further
// indentation (a traceback source line) visible to the caller.
func skipOneSpace(b []byte) []byte {
	if len(b) > 0 && b[0] == ' ' {
		return b[1:]
	}
	return b
}

// peelCutLevel reads a header whose level word lost its first letters in
// a paste ("NING 04-01 02:45:50 ray_utils.py:320] ..." for WARNING).
func peelCutLevel(b []byte, l *line) ([]byte, bool) {
	sp := bytes.IndexByte(b, ' ')
	if sp < 2 || sp > 7 {
		return b, false
	}
	word := string(b[:sp])
	for _, lv := range levels[:5] {
		if len(word) < len(lv.word) && strings.HasSuffix(lv.word, word) {
			if r, ok := peelStampSrc(b[sp:], l); ok {
				l.level = lv.c
				return r, true
			}
		}
	}
	return b, false
}

// peelPyLogging removes the prefix of a Python harness that relays vLLM's
// output through its own logger, Python's "%(asctime)s - [%(name)s - ]
// %(levelname)s - " format: "2026-05-29 09:14:45,594 - INFO - [container] "
// (vllm#43410, a launcher tagging the container's lines) or
// "2025-06-27 12:57:51,690 - __main__ - INFO - " (allenai/olmocr#260). The
// harness's level is not vLLM's: vLLM's own header, when the line has one,
// follows.
func peelPyLogging(b []byte, l *line) []byte {
	const layout = "dddd-dd-dd dd:dd:dd"
	if len(b) < len(layout)+4 {
		return b
	}
	for i := 0; i < len(layout); i++ {
		if layout[i] == 'd' && !isDigit(b[i]) || layout[i] != 'd' && b[i] != layout[i] {
			return b
		}
	}
	i := len(layout)
	if b[i] == ',' || b[i] == '.' {
		i++
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if !bytes.HasPrefix(b[i:], []byte(" - ")) {
		return b
	}
	stamp, rest := b[:i], b[i+3:]
	for k := 0; k < 2; k++ { // an optional logger name, then the level
		j := bytes.Index(rest, []byte(" - "))
		if j <= 0 || j > 64 {
			return b
		}
		word := rest[:j]
		if !pyLevel(word) {
			if !pyName(word) {
				return b
			}
			rest = rest[j+3:]
			continue
		}
		rest = rest[j+3:]
		if len(rest) > 2 && rest[0] == '[' {
			if e := bytes.IndexByte(rest, ']'); e > 1 && e < 40 && e+1 < len(rest) && rest[e+1] == ' ' && pyName(rest[1:e]) {
				rest = rest[e+2:]
			}
		}
		l.stamp = stamp
		l.formats |= fmtTimestamps
		return rest
	}
	return b
}

func pyLevel(w []byte) bool {
	switch string(w) {
	case "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL":
		return true
	}
	return false
}

// pyName is a Python logger's name ("__main__", "app.pipelines.llm") or a
// harness's tag ("container").
func pyName(w []byte) bool {
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return len(w) > 0
}

// hasWordSGR reports whether b holds a colour sequence written as "ESC[".
func hasWordSGR(b []byte) bool {
	for off := 0; ; {
		i := bytes.Index(b[off:], wordESC)
		if i < 0 {
			return false
		}
		if wordSGR(b[off+i:]) > 0 {
			return true
		}
		off += i + len(wordESC)
	}
}

// peelCRIStream removes the stream and tag a container runtime's log file
// puts after the timestamp (the CRI logging format kubelet writes under
// /var/log/pods: "2026-08-31T17:43:36.67Z stderr F <line>", F a full line,
// P a partial one), which `kubectl logs` hides but a node's file keeps.
func peelCRIStream(b []byte) []byte {
	for _, s := range [][]byte{[]byte("stdout "), []byte("stderr ")} {
		if bytes.HasPrefix(b, s) && len(b) > len(s)+1 && (b[len(s)] == 'F' || b[len(s)] == 'P') && b[len(s)+1] == ' ' {
			return b[len(s)+2:]
		}
	}
	return b
}
