package logs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
)

// pasteForm is one way a log reaches us through Markdown (GitHub issues,
// forums, chat): it rewrites the log's lines and says on which output line
// each input line starts, so that positions can be compared.
type pasteForm struct {
	name string
	f    func(lines []string) (out []string, start []int)
}

// perLine applies g to every line, one output line per input line, after
// head lines and before tail lines.
func perLine(head []string, g func(string) string, tail ...string) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		out := append([]string{}, head...)
		start := make([]int, len(lines))
		for i, l := range lines {
			start[i] = len(out) + 1
			out = append(out, g(l))
		}
		return append(out, tail...), start
	}
}

func same(s string) string { return s }

// mdEscape is what a Markdown editor (or a converter from rich text)
// does to text it does not know is code: it escapes the characters that
// would otherwise be emphasis, links or headings (CommonMark §2.4).
func mdEscape(closeBracket bool) func(string) string {
	pairs := []string{`\`, `\\`, `_`, `\_`, `*`, `\*`, `[`, `\[`, `#`, `\#`}
	if closeBracket {
		pairs = append(pairs, `]`, `\]`)
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}

// htmlEscape is what an HTML page (a forum's rendered post, a mail
// archive) holds: the characters of the log as entities.
var htmlEscape = strings.NewReplacer(`&`, `&amp;`, `<`, `&lt;`, `>`, `&gt;`, `'`, `&#39;`, `"`, `&quot;`).Replace

// hardWrap cuts every line longer than width into width-wide pieces, as a
// terminal or a fixed-width page does when the paste is copied from it.
func hardWrap(width int) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		var out []string
		start := make([]int, len(lines))
		for i, l := range lines {
			start[i] = len(out) + 1
			for utf8.RuneCountInString(l) > width {
				cut, n := 0, 0
				for n < width {
					_, sz := utf8.DecodeRuneInString(l[cut:])
					cut += sz
					n++
				}
				out = append(out, l[:cut])
				l = l[cut:]
			}
			out = append(out, l)
		}
		return out, start
	}
}

var pasteForms = []pasteForm{
	{"quoted", perLine(nil, func(s string) string { return "> " + s })},
	{"quoted twice", perLine(nil, func(s string) string { return ">> " + s })},
	{"quoted twice spaced", perLine(nil, func(s string) string { return "> > " + s })},
	{"quoted fence", perLine([]string{"> ```log"}, func(s string) string { return "> " + s }, "> ```")},
	{"fence", perLine([]string{"```"}, same, "```")},
	{"fence log", perLine([]string{"```log"}, same, "```")},
	{"details", perLine([]string{"<details>", "<summary>Full log</summary>", "", "```text"}, same, "```", "</details>")},
	{"indented code block", perLine(nil, func(s string) string { return "    " + s })},
	{"list item", perLine(nil, func(s string) string { return "- " + s })},
	{"md escapes", perLine(nil, mdEscape(false))},
	{"md escapes with ]", perLine(nil, mdEscape(true))},
	{"quoted md escapes", perLine(nil, func(s string) string { return "> " + mdEscape(false)(s) })},
	// A page converted to Markdown with every line a heading and only the
	// opening bracket escaped (a vllm-omni profiling guide has its logs so).
	{"heading md escapes", perLine(nil, func(s string) string { return "# " + mdEscape(false)(s) })},
	{"html entities", perLine(nil, htmlEscape)},
	{"html entities in details", perLine([]string{"<details><summary>log</summary>", "<pre>"}, htmlEscape, "</pre>", "</details>")},
	{"html quoted", perLine(nil, func(s string) string { return "&gt; " + htmlEscape(s) })},
	{"wrapped 120", hardWrap(120)},
	{"wrapped 200", hardWrap(200)},
	{"crlf", perLine(nil, func(s string) string { return s + "\r" })},
	{"ansi colours", perLine(nil, func(s string) string {
		for _, lv := range []string{"INFO", "WARNING", "ERROR", "DEBUG"} {
			if i := strings.Index(s, lv+" "); i >= 0 {
				return s[:i] + "\x1b[32m" + lv + "\x1b[0m" + s[i+len(lv):]
			}
		}
		return s
	})},
}

// pasteFixtures are the real excerpts the forms are applied to: a healthy
// start-up with every figure, a KV cache failure in a traceback, an
// out-of-memory traceback with unprefixed multiprocessing lines, and two
// V0 logs without process prefixes.
var pasteFixtures = []string{"v0.19.0-llmd-llama31-8b-tp1", "v0.11.0-27508-no-kv-cache-blocks", "v0.2x-club3090-60-marlin-driver-oom",
	// V0 logs without process prefixes: a failed start-up and an
	// engine-iteration timeout, whose unprefixed lines only the
	// logger header marks.
	"v0.6.4-10517-llama8b-29k-fail", "v0.6.3-9839-engine-iteration-timeout"}

// readForm analyses one fixture's first file in a paste form and returns
// the report flattened, with every position mapped back to the line of
// the original excerpt.
func readForm(t *testing.T, name string, form *pasteForm) map[string]string {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "real", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(ar.Files[0].Data), "\n"), "\n")
	back := func(n int) int { return n }
	if form != nil {
		out, start := form.f(lines)
		lines = out
		back = func(n int) int {
			i := sort.SearchInts(start, n+1) // the last start <= n
			if i == 0 {
				return -n
			}
			return i
		}
	}
	src, err := NewSource("x.log", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	rep.Files = nil // line counts and formats differ by design
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	flat := map[string]string{}
	flatten("", v, flat, back)
	return flat
}

var posRE = regexp.MustCompile(`^x\.log:(\d+)$`)

func flatten(path string, v any, out map[string]string, back func(int) int) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(path+"."+k, e, out, back)
		}
	case []any:
		for i, e := range x {
			flatten(path+"["+strconv.Itoa(i)+"]", e, out, back)
		}
	case string:
		if m := posRE.FindStringSubmatch(x); m != nil {
			n, _ := strconv.Atoi(m[1])
			x = fmt.Sprintf("x.log:%d", back(n))
		}
		out[path] = x
	case float64:
		if strings.HasSuffix(path, ".line") {
			x = float64(back(int(x)))
		}
		out[path] = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		out[path] = fmt.Sprint(x)
	}
}

// diffFlat lists the paths whose values differ, sorted.
func diffFlat(want, got map[string]string) []string {
	var d []string
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			d = append(d, fmt.Sprintf("%s: %q → %q", k, w, g))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			d = append(d, fmt.Sprintf("%s: (none) → %q", k, g))
		}
	}
	sort.Strings(d)
	return d
}

// knownPasteGaps are the form×excerpt pairs the reader still reads
// differently, with the reason; TestPasteForms fails when one closes, so
// the list stays true.
var knownPasteGaps = map[string]string{
	// A hard wrap is recognised from at least three full-width lines each
	// continued by the next (paste.go); these short V0 excerpts have one
	// or two lines longer than the width, and a line that long cannot be
	// told from a wrapped one.
	"v0.6.4-10517-llama8b-29k-fail/wrapped 120":        "2 full-width lines",
	"v0.6.4-10517-llama8b-29k-fail/wrapped 200":        "1 full-width line",
	"v0.6.3-9839-engine-iteration-timeout/wrapped 120": "1 full-width line",
}

// TestPasteForms reads real excerpts as they reach us through Markdown and
// holds every figure, failure and position to the one read from the
// untransformed excerpt. A difference is a gap in the line reader.
func TestPasteForms(t *testing.T) {
	for _, name := range pasteFixtures {
		want := readForm(t, name, nil)
		for i := range pasteForms {
			form := &pasteForms[i]
			t.Run(name+"/"+form.name, func(t *testing.T) {
				got := readForm(t, name, form)
				d := diffFlat(want, got)
				if why, ok := knownPasteGaps[name+"/"+form.name]; ok {
					if len(d) == 0 {
						t.Errorf("known gap (%s) closed: remove it from knownPasteGaps", why)
					}
					t.Logf("known gap (%s): %d differences", why, len(d))
					return
				}
				if len(d) > 0 {
					n := len(d)
					if n > 12 {
						d = append(d[:12], fmt.Sprintf("… %d more", n-12))
					}
					t.Errorf("%d differences:\n%s", n, strings.Join(d, "\n"))
				}
			})
		}
	}
}

// TestPasteNotDecoded holds plain logs that carry the characters of a
// paste form as content to their own text: a Windows path's "\_", a URL's
// "&", an HTML-escaped prompt, equal-length lines of several ranks. None
// of them may switch decoding on.
func TestPasteNotDecoded(t *testing.T) {
	cases := []struct{ name, log, msg string }{
		{"windows path", `INFO 05-20 10:00:00 [platforms\__init__.py:216] Automatically detected platform cuda.` + "\n" +
			`ERROR 05-20 10:00:01 [core.py:1] FileNotFoundError: C:\Users\me\vllm\_custom_ops.py`,
			`FileNotFoundError: C:\Users\me\vllm\_custom_ops.py`},
		{"url", `(APIServer pid=1) INFO:     10.0.0.2:4480 - "GET /v1/models?a=1&amp;b=2&lt;3 HTTP/1.1" 200 OK`,
			`10.0.0.2:4480 - "GET /v1/models?a=1&amp;b=2&lt;3 HTTP/1.1" 200 OK`},
		{"escaped prompt", `(APIServer pid=1) INFO 02-13 11:33:33 [logger.py:49] Received request x: prompt: 'Tom &amp; Jerry &lt;b&gt; &#39;`,
			`Received request x: prompt: 'Tom &amp; Jerry &lt;b&gt; &#39;`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := NewSource("x.log", strings.NewReader(c.log+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			lr := newLineReader(src.r)
			pr := newPasteReader(lr)
			var last []byte
			for {
				raw, _, ok := pr.next()
				if !ok {
					break
				}
				var l line
				var p parser
				p.parse(raw, &l)
				last = append(last[:0], l.msg...)
			}
			if pr.md || pr.html || pr.width != 0 {
				t.Errorf("decoding switched on: md=%v html=%v width=%d", pr.md, pr.html, pr.width)
			}
			if string(last) != c.msg {
				t.Errorf("msg %q, want %q", last, c.msg)
			}
		})
	}
	// Four ranks' equal lines, the longest of the excerpt, each followed
	// by the next rank's prefixed line (zai-org/GLM-V#162 has three): not
	// a hard wrap.
	l := "(VllmWorker TP%d pid=12853%d) INFO 08-26 09:12:24 [shm_broadcast.py:289] vLLM message queue communication handle: Handle(local_reader_ranks=[0], buffer_handle=(1, 10485760, 10, 'psm_1aa432c1'))\n"
	var b strings.Builder
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, l, i, i)
	}
	b.WriteString("RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n")
	src, _ := NewSource("x.log", strings.NewReader(b.String()))
	rep, err := Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Files[0]; len(f.Formats) != 0 || len(rep.Failures) != 1 || rep.Failures[0].Line != 5 {
		t.Errorf("formats %v, failures %+v: want no paste form and the RuntimeError on line 5", f.Formats, rep.Failures)
	}
}

// TestPasteEvidence pins what switches decoding on, and the decoders.
func TestPasteEvidence(t *testing.T) {
	md := []struct {
		l    string
		want bool
	}{
		{`INFO 12-17 09:22:16 \[gpu\_worker.py:81] Model loading took 53.7462 GiB`, true}, // bracket after the clock
		{`INFO 12-17 09:22:16.123 \[gpu_worker.py:81] x`, true},                           // milliseconds
		{`(EngineCore\_DP0 pid=7) INFO 01-01 00:00:00 [core.py:1] x`, true},               // process prefix
		{`File "/x/\_\_init\_\_.py", line 3`, true},                                       // dunder
		{`INFO 05-20 10:00:00 [platforms\__init__.py:216] x`, false},                      // a Windows path
		{`Memory profiling results: total\_gpu\_memory=23.58GiB`, true},                   // two in one word
		{`cd D:\a\_temp\_runner_file_commands`, false},                                    // a Windows runner's path
		{`/x/a\_b\_c`, false},
		{`C:\actions-runner\_work\_temp\_x`, false},
		{`echo a \[b\]`, false},
		{`2025 \[x`, false},
	}
	for _, c := range md {
		if got := mdEvidence([]byte(c.l)); got != c.want {
			t.Errorf("mdEvidence(%q) = %v, want %v", c.l, got, c.want)
		}
	}
	html := []struct {
		l    string
		want bool
	}{
		{`&gt; INFO 01-01 00:00:00 [a.py:1] x`, true},
		{`non-default args: {&#39;model&#39;: &#39;m&#39;}`, true},
		{`model=&#x27;m&#x27;, tokenizer`, true},
		{`raise ValueError(&quot;No available memory`, true},
		{`prompt: 'Tom &amp; Jerry &lt;b&gt;'`, false},
		{`"GET /v1/models?a=1&b=2 HTTP/1.1"`, false},
		{`x = &#39; `, true}, // vLLM never writes a character reference
		{`Received request x: prompt: '&#39;&lt;b&gt;'`, false},
		{`INFO:     10.0.0.2:4480 - "GET /x?a=&lt; HTTP/1.1" 200 OK`, false},
		{`The model&#39;s max seq len (29000) is larger`, true},
	}
	for _, c := range html {
		if got := htmlEvidence([]byte(c.l)); got != c.want {
			t.Errorf("htmlEvidence(%q) = %v, want %v", c.l, got, c.want)
		}
	}
	dec := []struct{ in, want string }{
		{`&lt;CompilationMode.NONE: 0&gt; &amp;&amp; &quot;a&quot; &#39;b&#39; &#x27;c&#X27; &nbsp;`, `<CompilationMode.NONE: 0> && "a" 'b' 'c'  `},
		{`&#0; &#xD800; &#1114112; &#; &#x; &bogus; &`, `&#0; &#xD800; &#1114112; &#; &#x; &bogus; &`},
		{`&#12345678;`, `&#12345678;`},
	}
	for _, c := range dec {
		if got := string(decodeEntities(nil, []byte(c.in))); got != c.want {
			t.Errorf("decodeEntities(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	un := []struct{ in, want string }{
		{`\[gpu\_worker.py:81] \*\*x\*\* \\ \# \n C:\Users`, `[gpu_worker.py:81] **x** \ # \n C:\Users`},
		{`trailing \`, `trailing \`},
	}
	for _, c := range un {
		if got := string(unescapeMarkdown(nil, []byte(c.in))); got != c.want {
			t.Errorf("unescapeMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMarkupLines: a fence or a <details> tag belongs to no process; a
// line that only starts like one stays a line of the log.
func TestMarkupLines(t *testing.T) {
	for s, want := range map[string]bool{
		"```": true, "```log": true, "~~~": true, "<details>": true, "</details>": true,
		"<summary>Full log</summary>": true, "```x``` text": false, "<details> and more": false,
		"INFO 01-01 00:00:00 [a.py:1] ```": false, "``": false,
	} {
		var l line
		var p parser
		p.parse([]byte(s), &l)
		if got := markupLine(&l); got != want {
			t.Errorf("markupLine(%q) = %v, want %v", s, got, want)
		}
	}
}

// BenchmarkPasteForms reads a real start-up excerpt, repeated to 4 MiB,
// plain and in the paste forms that need decoding:
//
//	go test ./logs -run XXX -bench PasteForms
func BenchmarkPasteForms(b *testing.B) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "real", "v0.19.0-llmd-llama31-8b-tp1.txtar"))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(ar.Files[0].Data), "\n"), "\n")
	for _, name := range []string{"plain", "quoted", "md escapes", "html entities", "wrapped 120"} {
		out := lines
		for i := range pasteForms {
			if pasteForms[i].name == name {
				out, _ = pasteForms[i].f(lines)
			}
		}
		text := strings.Join(out, "\n") + "\n"
		data := strings.Repeat(text, (4<<20)/len(text)+1)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				src, _ := NewSource("x.log", strings.NewReader(data))
				if _, err := Analyze(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
