// Package vllm is vlaunch's knowledge of what `vllm serve` accepts, release
// by release from 0.5.3: flags (names, short aliases, value kinds, choices,
// defaults, the release that added and the one that removed them), the
// environment variables that matter for multi-node DP/EP serving, the MoE
// all-to-all backends, the KV connectors --kv-transfer-config names
// (connector_table.go: each connector's releases, hand-off and P/D
// bundle), the defaults that changed between releases, and
// facts other packages act on (facts_*.go: start-up timeouts, executor
// selection, DP load-balancing inference, Ray environment copying, the
// kernels in the official images, DBO's backend requirement, speculative
// decoding syntax, MLA block sizes, the 0.5.4 frontend port).
//
// Every entry carries Source and Verified. Source cites what was read
// (sources.go names the versioned docs pages, repository files, PRs and
// issues) and, for an unverified entry, says what is not pinned. Verified
// means a cited primary source shows the entry's first release (or shows it
// before the table starts) and its removal, not only a secondary summary
// such as ../shared/reference/vllm-facts.md; citation_test.go enforces it.
//
// Version ranges are half-open: an entry may exist in release r when
// Since <= r < Removed (a zero Removed means "still present"). Since is the
// earliest release the evidence allows, so the linter never calls an entry
// too new for a release that may have had it; Span.Confirmed is the first
// release a source shows it in, and Span.Certain / Span.In / CertainFlag
// give the strict answer a generator needs. One flag name may appear
// several times with disjoint ranges when its kind, default, choices or
// aliases changed.
//
// Resolve maps a requested version onto the table and says how (Match:
// exact, approximated, older or newer than the table), always with a
// warning unless exact.
//
// The generator and the linter share this package; it never prints.
package vllm
