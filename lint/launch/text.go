package launch

import "unicode/utf8"

// validUTF8 returns data with every byte that is not part of a valid UTF-8
// sequence replaced by '_', keeping every offset. Scripts saved in Latin-1
// (an accented word in a comment) run fine in bash, which reads bytes; the
// shell and YAML parsers refuse them, which would hide every other finding.
func validUTF8(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			out = append(out, '_')
			i++
			continue
		}
		out = append(out, data[i:i+n]...)
		i += n
	}
	return out
}
