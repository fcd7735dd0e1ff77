// Package vllm is vlaunch's knowledge of what `vllm serve` accepts, release
// by release: flags (names, short aliases, value kinds, choices, defaults,
// the release that added and the one that removed them), the environment
// variables that matter for multi-node DP/EP serving, the MoE all-to-all
// backends, and the defaults that changed between releases.
//
// The tables are Go data (flags_table.go, env_table.go, all2all.go,
// defaults.go). Every entry carries Verified and Source: Verified means the
// value was checked against vLLM's own sources or versioned docs
// (docs.vllm.ai/en/vX.Y.Z/...) or pinned by a vLLM PR/issue that names the
// release boundary; the rest follows
// ../shared/reference/vllm-facts.md, whose approximations ("≈v0.11") are
// recorded as the nearest release and flagged unverified.
//
// Version ranges are half-open: an entry exists in release r when
// Since <= r < Removed (a zero Removed means "still present"). One flag name
// may appear several times with disjoint ranges when its kind, default,
// choices or aliases changed.
//
// The generator and the linter share this package; it never prints.
package vllm
