package vllm

import "strings"

// minAbbrev is the shortest abbreviation (after "--") read as a prefix:
// shorter ones are far more likely typos than intended abbreviations.
const minAbbrev = 3

// PrefixFlag returns the flag an unknown long option abbreviates: argparse
// (allow_abbrev, its default, which vLLM's FlexibleArgumentParser keeps)
// accepts a unique prefix of a long option as that option. Unique here
// means among the flags vlaunch's table has for the release; the generator
// and the linter both read abbreviations with this rule.
func (r Release) PrefixFlag(spelling string) (*Flag, bool) {
	m := r.PrefixMatches(spelling)
	if len(m) != 1 {
		return nil, false
	}
	return m[0], true
}

// PrefixMatches returns every flag of the release whose long name starts
// with the spelling, one entry per name, in table order. Two or more make
// the spelling an ambiguous abbreviation: argparse stops with "ambiguous
// option: --dcp could match --dcp-comm-backend, --dcp-kv-cache-interleave-size"
// (allow_abbrev is argparse's default and vLLM never turns it off: no
// allow_abbrev anywhere under vllm/ at the v0.10.2, v0.11.1, v0.18.0 and
// v0.24.0 tags; FlexibleArgumentParser in vllm/utils/argparse_utils.py at
// v0.18.0 only rewrites underscores, -O and dotted JSON keys, srcKzTags).
// Spellings shorter than minAbbrev after "--" match nothing.
func (r Release) PrefixMatches(spelling string) []*Flag {
	if !strings.HasPrefix(spelling, "--") || len(spelling) < 2+minAbbrev {
		return nil
	}
	name := strings.ToLower(strings.ReplaceAll(strings.TrimLeft(spelling, "-"), "_", "-"))
	var out []*Flag
	seen := map[string]bool{}
	for _, f := range r.Flags() {
		if strings.HasPrefix(f.Name, name) && !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// ShortAliasFlag returns the flag whose short alias is the long option's
// name with one dash ("--dcp" for "-dcp", the alias of
// --decode-context-parallel-size): a likely slip of one dash too many.
func (r Release) ShortAliasFlag(spelling string) (*Flag, bool) {
	if !strings.HasPrefix(spelling, "--") || strings.HasPrefix(spelling, "---") {
		return nil, false
	}
	short := spelling[1:]
	for _, f := range r.Flags() {
		for _, al := range f.Aliases {
			if al == short {
				return f, true
			}
		}
	}
	return nil, false
}
