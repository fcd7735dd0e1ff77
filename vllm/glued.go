package vllm

import (
	"regexp"
	"strings"
)

// gluedFlagRE matches a word with an option stuck to its end:
// "${MODEL_PATH}--host" from `vllm serve ${MODEL_PATH}\` followed by a line
// starting with --host: the backslash joins the lines with no space.
var gluedFlagRE = regexp.MustCompile(`[^-\s=]--([a-z][a-z0-9-]*[a-z0-9])$`)

// GluedFlag returns the release's flag stuck to the end of word by a line
// continuation without a space ("model--host", "--enable-prefix-caching--host"),
// and where it starts in word. A word that is itself an option counts only
// when what precedes the glued flag is one of the release's flags too:
// otherwise ("-00--dtype") argparse sees one unknown option, nothing glued.
// The generator's extra_args check and the linter (VL124) both read words
// with this rule, so a bundle the generator accepts lints alike.
func (r Release) GluedFlag(word string) (f *Flag, at int, ok bool) {
	m := gluedFlagRE.FindStringSubmatchIndex(word)
	if m == nil {
		return nil, 0, false
	}
	f, ok = r.Flag(word[m[2]:m[3]])
	if !ok {
		return nil, 0, false
	}
	at = m[2] - 2
	if strings.HasPrefix(word, "-") {
		if _, head := r.Flag(word[:at]); !head {
			return nil, 0, false
		}
	}
	return f, at, true
}
