package bench

// Python's json module writes the non-finite floats NaN, Infinity and
// -Infinity as bare words, which JSON does not allow; SGLang's
// bench_serving writes `"request_rate": Infinity` for an unlimited rate.
// sanitize rewrites those words (outside strings) as the strings "NaN",
// "Infinity" and "-Infinity" so that the standard decoder reads the
// document, and the typed accessors decide where such a value is allowed.
func sanitize(data []byte) []byte {
	out := make([]byte, 0, len(data)+16)
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		if w := pythonWordAt(data, i); w != "" {
			out = append(out, '"')
			out = append(out, w...)
			out = append(out, '"')
			i += len(w) - 1
			continue
		}
		out = append(out, c)
	}
	return out
}

// pythonWordAt returns the non-finite literal starting at data[i], if any
// (only where a value can start: not inside another word or number).
func pythonWordAt(data []byte, i int) string {
	if i > 0 && isWordByte(data[i-1]) {
		return ""
	}
	for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
		end := i + len(w)
		if end <= len(data) && string(data[i:end]) == w && (end == len(data) || !isWordByte(data[end])) {
			return w
		}
	}
	return ""
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
