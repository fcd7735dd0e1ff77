package lint

import (
	"github.com/vlaunch/vlaunch/vllm"
)

// holdsFrom is the first release an error rule holds for: the first
// release with every flag it is about (a finding on --headless needs a
// release with --headless; earlier ones report the flag itself, VL102), or
// the oldest release vlaunch knows when the rule names none. Rules whose
// finding also changes inside that range (VL111, VL112, VL212, VL217) say
// so in their docs and test both sides of each change.
func (r *Rule) holdsFrom() vllm.Version {
	from := vllm.Oldest().Version
	for _, name := range r.needs {
		first := vllm.Version{}
		for _, f := range vllm.FlagHistory(name) {
			if first.IsZero() || f.Span.Since.Less(first) {
				first = f.Span.Since
			}
		}
		if first.Compare(from) > 0 {
			from = first
		}
	}
	if r.since.Compare(from) > 0 {
		from = r.since
	}
	return from
}
