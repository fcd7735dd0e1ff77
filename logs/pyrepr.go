package logs

import (
	"strings"
)

// maxArgs caps how many arguments are kept from one args/config dump.
const maxArgs = 256

// smartQuotes undoes what rich-text editors do to pasted logs.
var smartQuotes = strings.NewReplacer("‘", "'", "’", "'", "“", `"`, "”", `"`)

// parsePyKV reads Python's "key=value, key2=value2" — the engine-config line
// and argparse's Namespace(...) — into a map, keeping nested values
// (DecodingConfig(...), {...}, [...]) whole.
func parsePyKV(s string) map[string]string {
	out := map[string]string{}
	for _, part := range splitTopLevel(smartQuotes.Replace(s)) {
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || !isPyName(k) {
			continue
		}
		if len(out) >= maxArgs {
			break
		}
		out[k] = clip(unquote(strings.TrimSpace(v)), maxValueLen)
	}
	return out
}

// parsePyDict reads Python's "{'key': value, ...}" (vLLM's
// "non-default args" line).
func parsePyDict(s string) map[string]string {
	s = strings.TrimSpace(smartQuotes.Replace(s))
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	out := map[string]string{}
	for _, part := range splitTopLevel(s) {
		k, v, ok := cutColon(part)
		k = unquote(strings.TrimSpace(k))
		if !ok || !isPyName(k) {
			continue
		}
		if len(out) >= maxArgs {
			break
		}
		out[k] = clip(unquote(strings.TrimSpace(v)), maxValueLen)
	}
	return out
}

// cutColon splits "'key': value" at the first colon outside quotes.
func cutColon(s string) (string, string, bool) {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == ':':
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// splitTopLevel splits at commas that are outside quotes and brackets.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
			if len(parts) > maxArgs {
				return parts
			}
		}
	}
	return append(parts, s[start:])
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

func isPyName(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || isAlnum(c)) || i == 0 && isDigit(c) {
			return false
		}
	}
	return true
}

// namespaceNoise are Namespace values that only restate a default of
// "nothing set"; dropping them leaves the arguments that shape the engine.
var namespaceNoise = map[string]bool{"None": true, "False": true, "[]": true, "''": true, "": true, "{}": true}

// trimNamespace drops unset arguments from an argparse Namespace dump.
func trimNamespace(m map[string]string) map[string]string {
	for k, v := range m {
		if namespaceNoise[v] {
			delete(m, k)
		}
	}
	return m
}
