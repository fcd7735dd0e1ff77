package vllm

import (
	"fmt"
	"strings"
)

// choiceRun is one run of consecutive release tags (tagReads order, first
// and last release inclusive) at which tools/flagspans/choices.py read the
// same argparse choices for an option (tag_choices_table.go). Values holds
// the choices joined by "|", or one of choicesFree / choicesDynamic.
type choiceRun struct {
	first, last, values string
}

const (
	// choicesFree: argparse takes any value of the option's type there (no
	// `choices`); vLLM may still refuse a value after parsing, which the
	// tag reader does not follow.
	choicesFree = "*"
	// choicesDynamic: the tag computes the choices (a registry, a kwargs
	// dict edited before add_argument, an alias bound only at runtime), so
	// they were not read.
	choicesDynamic = "?"
)

// tagIndex is the position of release rel in tagReads, -1 when not read.
func tagIndex(rel string) int {
	for i, t := range tagReads {
		if t.release == rel {
			return i
		}
	}
	return -1
}

// tagChoicesAt returns the choices the release tag rel's parser gives the
// option spelling ("--kv-cache-dtype"): values (nil when free or dynamic),
// free (no argparse choices), dynamic (computed, not read) and ok (false
// when the tag was not read or the option has no choices run there: absent,
// or free at every tag).
func tagChoicesAt(spelling, rel string) (values []string, free, dynamic, ok bool) {
	return choicesAt(tagChoices, spelling, rel)
}

// tagEnvChoicesAt is tagChoicesAt for a variable vllm/envs.py registers
// with env_with_choices (tagEnvChoices); values of a case-insensitive
// variable keep their "~" mark on the first value stripped, and fold says so.
func tagEnvChoicesAt(name, rel string) (values []string, fold, free, dynamic, ok bool) {
	values, free, dynamic, ok = choicesAt(tagEnvChoices, name, rel)
	if len(values) > 0 && strings.HasPrefix(values[0], "~") {
		values[0], fold = values[0][1:], true
	}
	return values, fold, free, dynamic, ok
}

// choicesAt reads one table of choice runs (tagChoicesAt).
func choicesAt(table map[string][]choiceRun, name, rel string) (values []string, free, dynamic, ok bool) {
	i := tagIndex(rel)
	if i < 0 {
		return nil, false, false, false
	}
	for _, r := range table[name] {
		a, b := tagIndex(r.first), tagIndex(r.last)
		if a < 0 || b < 0 || i < a || i > b {
			continue
		}
		switch r.values {
		case choicesFree:
			return nil, true, false, true
		case choicesDynamic:
			return nil, false, true, true
		}
		return strings.Split(r.values, "|"), false, false, true
	}
	return nil, false, false, false
}

// TagFlag says whether vLLM v's own `vllm serve` parser registers the
// option spelling, as tools/flagspans/gen.py read it at the release tag
// (tag_flags_table.go): read is false when v is not a release whose tag was
// read (newer than 0.24.0, a release candidate, a dev build), and then
// present means nothing. It is for options vlaunch does not model: a caller
// can say "vLLM 0.20.0's parser registers no --foo (read at the tag)" — a
// warning, since a platform plugin may add options the tag lacks — and stay
// silent for a real option vlaunch has no entry for (--hf-token).
//
// The spelling may be "--x", "x", "--x=value", "--x_y" (vLLM's parser turns
// underscores into dashes), "--x.key" (dotted JSON keys: the option is
// --x), a short alias ("-tp") or a two-character alias with its value
// attached ("-O3"). -O is rewritten by FlexibleArgumentParser from 0.12.0
// (vllm/utils/argparse_utils.py), not registered: it counts as present
// wherever --optimization-level is. Abbreviations are not expanded.
func TagFlag(spelling string, v Version) (present, read bool) {
	rel := v.String()
	if i := strings.IndexByte(rel, '+'); i >= 0 { // a local build of the release
		rel = rel[:i]
	}
	if tagIndex(rel) < 0 {
		return false, false
	}
	for _, s := range tagSpellings(spelling) {
		if p, _ := tagPresence(tagFlags, s, rel); p {
			return true, true
		}
	}
	if strings.HasPrefix(spelling, "-O") && !strings.HasPrefix(spelling, "--") {
		p, _ := tagPresence(tagFlags, "--optimization-level", rel)
		return p, true
	}
	return false, true
}

// tagSpellings are the registered spellings a user spelling may stand for,
// most specific first.
func tagSpellings(s string) []string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '='); i >= 0 {
		s = s[:i]
	}
	if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") {
		out := []string{s}
		if len(s) > 2 { // "-O3": "-O" with its value attached
			out = append(out, s[:2])
		}
		return out
	}
	long := "--" + strings.ReplaceAll(strings.TrimLeft(s, "-"), "_", "-")
	out := []string{long}
	if i := strings.IndexByte(long, '.'); i > 2 {
		out = append(out, long[:i])
	}
	return out
}

// TagChoices says which values vLLM v's own parser accepts for the option
// spelling (tag_choices_table.go, read at the release tag): values when
// argparse has choices there (an Optional field's choices end in "None"),
// free when it takes any value of its type (vLLM may still refuse one
// after parsing: not read), read false when v's tag was not read, the
// option is absent there, or its choices are computed (a registry) and
// were not read. For options vlaunch models without choices, e.g.
// --mamba-cache-dtype or --max-lora-rank: lint can name the accepted
// values instead of passing the value through unchecked.
func TagChoices(spelling string, v Version) (values []string, free, read bool) {
	rel := v.String()
	if i := strings.IndexByte(rel, '+'); i >= 0 {
		rel = rel[:i]
	}
	if tagIndex(rel) < 0 {
		return nil, false, false
	}
	long := tagSpellings(spelling)[0]
	if p, _ := tagPresence(tagFlags, long, rel); !p {
		return nil, false, false
	}
	vals, isFree, dyn, ok := tagChoicesAt(long, rel)
	switch {
	case dyn:
		return nil, false, false
	case !ok || isFree: // present, and no choices run there: free
		return nil, true, true
	}
	return vals, false, true
}

// TagAbsentMessage is how lint (VL005) and validate (GEN006) word an option
// the release tag's own parser does not register (TagFlag read, absent):
// one wording for both, as they report the same fact.
func TagAbsentMessage(v Version, spelling string) string {
	return fmt.Sprintf("vLLM %s's parser registers no %s (read at the release tag: arg_utils.py, cli_args.py, serve.py): vLLM exits with \"unrecognized arguments\" unless a platform plugin adds it", v, spelling)
}
