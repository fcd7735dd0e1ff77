package vllm

// srcOptionalEmpty: vLLM builds its CLI from the config dataclasses; a field
// whose type admits None gets optional_type(...) as its argparse type, and
// optional_type returns None for "" or "None" (`if val == "" or val ==
// "None": return None`), so `--kv-cache-memory-bytes=` (or
// `--max-num-seqs ""`, as `--flag=${X-}` gives when X is unset) means "not
// set". Read in vllm/engine/arg_utils.py of a 0.11 tree (the mirror
// Yuran-7/vllm-0.11 at 2665d4910: optional_type at line 84,
// _compute_kwargs line 264 "if type(None) in type_hints and not
// contains_type(type_hints, bool): kwargs[name]["type"] =
// optional_type(...)") and of a later tree (search index file 25872476, the
// same code next to kv_cache_memory_bytes: int | None). Earlier releases
// (before the dataclass-generated CLI) are not verified.
const srcOptionalEmpty = "vllm/engine/arg_utils.py optional_type and _compute_kwargs (0.11 tree Yuran-7/vllm-0.11@2665d4910 lines 84-92, 264-265; a later tree, search index file 25872476); before 0.11.0 unverified"

// optionalEmptySince is the first release the behaviour is confirmed in.
var optionalEmptySince = v0110

// EmptyValueIsNone reports whether an empty value for f means "not set"
// in this release: f's default is None (Flag.Default "") and its kind is
// a number, which vLLM parses with optional_type from 0.11.0 (Absent
// before: unverified there, so an empty value is still reported).
func (r Release) EmptyValueIsNone(f *Flag) (Presence, string) {
	if f == nil || f.Default != "" || (f.Kind != Int && f.Kind != HumanInt && f.Kind != Float) {
		return Absent, srcOptionalEmpty
	}
	if !r.Version.AtLeast(optionalEmptySince) {
		return Absent, srcOptionalEmpty
	}
	return Present, srcOptionalEmpty
}
