package vllm

// srcMamba2NoPrefix: a Mamba-2 hybrid (NemotronHForCausalLM) started with
// default arguments on 0.19.1 runs without prefix caching, hence in
// mamba_cache_mode none with one state page per request and group: the
// log of Nemotron-Cascade-2-30B-A3B-NVFP4 (Nemotron-3 Nano's architecture)
// in dt-lindberg/asp-arc docs/docs.improving_prompt_with_syntax_guide.md at
// fb58db2 prints enable_prefix_caching=False in its engine config with no
// prefix-caching argument given, and its "Maximum concurrency for 262,144
// tokens per request: 86.16x" is its blocks over 63 attention pages plus
// one page for each of the 4 state groups (two pages each would print
// 81.30x). vLLM's hybrid config only turns prefix caching on, in align
// mode, for models that declare SupportsMambaPrefixCaching; a later copy
// of vllm/model_executor/models/nemotron_h.py declares it, in a release
// not pinned, so releases after 0.19.1 follow the general rule unverified.
const srcMamba2NoPrefix = "log of NemotronHForCausalLM on vLLM 0.19.1 with default arguments (dt-lindberg/asp-arc docs/docs.improving_prompt_with_syntax_guide.md@fb58db2: enable_prefix_caching=False, 86.16x = blocks / (63 + 4 × 1)); " +
	"vllm/model_executor/models/nemotron_h.py declares SupportsMambaPrefixCaching in a later copy, release not pinned: unverified after 0.19.1"

// mamba2NoPrefixUntil is the last release shown to run Mamba-2 hybrids
// without prefix caching by default.
var mamba2NoPrefixUntil = mustVersion("0.19.1")

// StatePagesPerRequestFor is StatePagesPerRequest for a hybrid whose state
// layers are Mamba-2 (mamba2, Nemotron-H) or Gated DeltaNet: through 0.19.1
// a Mamba-2 hybrid keeps one page per state group (Absent: align is not its
// default); after it, and for Gated DeltaNet hybrids, the general rule
// holds, for Mamba-2 with Maybe at most (not pinned), with the source.
func (r Release) StatePagesPerRequestFor(mamba2 bool) (int, Presence, string) {
	if !mamba2 {
		return r.StatePagesPerRequest()
	}
	if !mamba2NoPrefixUntil.Less(r.Version) {
		return 1, Absent, srcMamba2NoPrefix
	}
	n, p, src := r.StatePagesPerRequest()
	if p == Present {
		p = Maybe
	}
	return n, p, src + "; " + srcMamba2NoPrefix
}
