package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/vllm"
)

// SinceNote says when a flag exists, if it ever did, over all of its
// table entries (vllm.FlagSpan), in parentheses: " (added in 0.11.0)",
// " (not before 0.8.0; first seen in 0.8.3)" when its first release is not
// pinned, with "; removed in X" for a flag since removed; "" for a flag no
// release has.
func SinceNote(flag string) string {
	s, ok := vllm.FlagSpan(flag)
	if !ok {
		return ""
	}
	return " (" + SpanNote(s) + ")"
}

// SpanNote words a span the way lint does: "added in A" only when a source
// pins A as the first release; otherwise A is only the earliest release the
// evidence allows ("not before A") and B the first a source shows it in
// ("first seen in B"); a removal follows ("removed in C").
func SpanNote(s vllm.Span) string {
	note := fmt.Sprintf("added in %s", s.Since)
	if !s.Confirmed.IsZero() {
		note = fmt.Sprintf("not before %s; first seen in %s", s.Since, s.Confirmed)
	}
	if !s.Removed.IsZero() {
		note += fmt.Sprintf("; removed in %s", s.Removed)
	}
	return note
}

// MissingFlag says why a bundle for release r cannot carry --flag, for a
// flag vllm.Release.CertainFlag does not confirm there: the release has no
// such flag (with SinceNote), or it may have it but no source shows it
// that early (vllm.Release.FlagIn: Maybe), which a bundle cannot rely on.
func MissingFlag(r vllm.Release, flag string) string {
	if in, seen := r.FlagIn(flag); in == vllm.Maybe {
		return fmt.Sprintf("cannot verify that vLLM %s has --%s; first seen in %s (its first release is not known)", r.Version, flag, seen)
	}
	return fmt.Sprintf("vLLM %s has no --%s%s", r.Version, flag, SinceNote(flag))
}
