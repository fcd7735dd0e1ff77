package vllm

// Sources for start-up behaviour.
const (
	// srcReadyTimeout: PR #27444 (opened 2025-10-24, after 0.11.0) added the
	// variable; vllm-facts.md and issue #11 place its first release at 0.14
	// (secondary); PR #35616 (Feb 2026) names it in the timeout error.
	srcReadyTimeout = "PR #27444 (opened 2025-10-24, so not before 0.11.1); first release 0.14 per vllm-facts.md and issue #11 (secondary); " +
		"PR #35616 (Feb 2026: the TimeoutError names it); issue #48031 (0.24: wait_for_engine_startup does not use it)"
	// srcHandshake: the engine-core side of the DP handshake polls the front
	// end for a hard-coded 5 minutes; PR #38906 (Apr 2026) tried to make it
	// configurable (VLLM_HANDSHAKE_TIMEOUT_MINS) and was closed unmerged.
	srcHandshake = "HANDSHAKE_TIMEOUT_MINS = 5 in vllm/v1/engine/core.py (stored copies of several versions, one a 0.29.1rc1 build); " +
		"error \"Did not receive response from front-end process within 5 minutes\"; PR #38906 (Apr 2026, closed unmerged) tried to make it configurable"
	// srcMismatch: PR #26218 (opened 2025-10-04, after 0.11.0's release)
	// exchanges a config hash in the DP coordinator handshake and fails fast.
	srcMismatch = "PR #26218 (fixes #26187; opened 2025-10-04, after 0.11.0): config hash exchanged at the DP handshake; 0.11.1 per vllm-facts.md (merge date not read); PR #41098 quotes the message"
)

// MismatchMessage is how releases with the DP configuration check report
// ranks that disagree.
const MismatchMessage = "Configuration mismatch detected for engine N. All DP workers must have identical configurations for parameters that affect collective communication"

// HeadlessHandshakeMinutes is how long an engine core (a headless one on a
// secondary node included) waits for the front end on node 0 before it
// gives up with "Did not receive response from front-end process within 5
// minutes"; it is a constant in vLLM, not configurable.
const HeadlessHandshakeMinutes = 5

// EngineStartup is what a release does while its engines and front end find
// each other — the facts a bundle README states for the operator.
type EngineStartup struct {
	// ReadyTimeoutEnv is VLLM_ENGINE_READY_TIMEOUT_S in this release
	// (default ReadyTimeoutDefaultS): how long the front end waits for the
	// engines' first message.
	ReadyTimeoutEnv      Presence
	ReadyTimeoutDefaultS int
	// HeadlessHandshake is whether headless engine cores give up after
	// HeadlessHandshakeMinutes when node 0 does not answer.
	HeadlessHandshake Presence
	// ConfigMismatchCheck is whether DP ranks with different configurations
	// fail fast with MismatchMessage; without it they hang.
	ConfigMismatchCheck Presence
	Source              string
}

// configCheckSpan: the check is certainly absent in 0.11.0 (the PR was
// opened after it) and its first release is 0.11.1 per vllm-facts.md
// (secondary; the merge was not read).
var configCheckSpan = Span{Since: v0111}

// EngineStartup returns the release's start-up facts.
func (r Release) EngineStartup() EngineStartup {
	s := EngineStartup{ReadyTimeoutDefaultS: 600, ConfigMismatchCheck: configCheckSpan.In(r.Version),
		Source: srcReadyTimeout + "; " + srcHandshake + "; " + srcMismatch}
	if e, ok := KnownEnvEver("VLLM_ENGINE_READY_TIMEOUT_S"); ok {
		s.ReadyTimeoutEnv = e.In(r.Version)
	}
	if f, ok := KnownFlagEver("headless"); ok {
		s.HeadlessHandshake = f.In(r.Version)
	}
	return s
}
