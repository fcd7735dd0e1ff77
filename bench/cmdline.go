package bench

import "strings"

// clientCommand is a benchmark client's command line recorded beside its
// printed summary (a report's "## Command" block, a shell transcript, the
// lines before the summary in a log): the one reader of those flags.
type clientCommand struct {
	vllm bool // vLLM's client (vllm bench serve, benchmark_serving.py), not SGLang's
	// flags are the flags given, by name without the leading dashes and
	// with '_' read as '-' (vLLM's FlexibleArgumentParser accepts both);
	// a repeated flag keeps its last value, as argparse does. A flag
	// without a value maps to "".
	flags map[string]string
}

// found reports whether a client's command line was read.
func (c clientCommand) found() bool { return c.flags != nil }

// flag returns a flag's value and whether it was given.
func (c clientCommand) flag(name string) (string, bool) {
	v, ok := c.flags[name]
	return v, ok
}

// clientMarkers are what opens a serving benchmark's invocation, and
// whether it is vLLM's client.
var clientMarkers = []struct {
	marker string
	vllm   bool
}{
	{"vllm bench serve", true},
	{"benchmark_serving.py", true},
	{"benchmarks.benchmark_serving", true},
	{"sglang.bench_serving", false},
	{"bench_serving.py", false},
}

// readCommand reads the client command line that starts at lines[i], with
// the lines it continues onto (a trailing backslash), and returns it and
// the number of lines it took; 0 when lines[i] runs no serving benchmark.
func readCommand(lines []string, i int) (clientCommand, int) {
	line := lines[i]
	at, vllm := -1, false
	for _, m := range clientMarkers {
		if j := strings.Index(line, m.marker); j >= 0 {
			at, vllm = j+len(m.marker), m.vllm
			break
		}
	}
	if at < 0 {
		return clientCommand{}, 0
	}
	text, n := line[at:], 1
	for strings.HasSuffix(strings.TrimRight(text, " \t\r"), `\`) && i+n < len(lines) {
		text = strings.TrimSuffix(strings.TrimRight(text, " \t\r"), `\`) + " " + lines[i+n]
		n++
	}
	return clientCommand{vllm: vllm, flags: commandFlags(shellWords(text))}, n
}

// commandEnds are the words that end a simple command.
var commandEnds = map[string]bool{"|": true, "||": true, "&&": true, ";": true, "&": true}

// commandFlags maps "--name value" and "--name=value" words to name →
// value; a flag followed by another flag (or by nothing) has no value.
func commandFlags(words []string) map[string]string {
	flags := map[string]string{}
	for k := 0; k < len(words); k++ {
		w := words[k]
		if commandEnds[w] {
			break // a pipe or the next command: its flags are not the client's
		}
		if !strings.HasPrefix(w, "--") || len(w) == 2 {
			continue
		}
		name, val, inline := strings.Cut(w[2:], "=")
		if !inline && k+1 < len(words) && !strings.HasPrefix(words[k+1], "--") {
			val = words[k+1]
			k++
		}
		flags[strings.ReplaceAll(name, "_", "-")] = val
	}
	return flags
}

// shellWords splits a command line into words as a POSIX shell would for
// literal text: blanks separate words, single quotes keep everything,
// double quotes and a backslash keep the next character. Expansions
// ($VAR) stay as written; a value that is one is not a number, and is
// read as not given. An unclosed quote runs to the end.
func shellWords(s string) []string {
	var out []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\\' && i+1 < len(s) && (quote == 0 || strings.IndexByte(`"\$`+"`", s[i+1]) >= 0):
			i++
			b.WriteByte(s[i])
			in = true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}
