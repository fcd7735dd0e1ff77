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
	if !strings.HasPrefix(spelling, "--") || len(spelling) < 2+minAbbrev {
		return nil, false
	}
	name := strings.ToLower(strings.ReplaceAll(strings.TrimLeft(spelling, "-"), "_", "-"))
	var found *Flag
	for _, f := range r.Flags() {
		if strings.HasPrefix(f.Name, name) {
			if found != nil && found.Name != f.Name {
				return nil, false
			}
			found = f
		}
	}
	return found, found != nil
}
