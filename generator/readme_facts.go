package generator

import (
	"fmt"
	"sync"

	"github.com/vlaunch/vlaunch/vllm"
)

// StartupFacts are the README's sentences about how the named release
// behaves while its nodes find each other (vllm.EngineStartup), so the
// start-order advice is true for that release and no other.
type StartupFacts struct {
	// ReadyTimeout says how long the API server waits for the engines.
	ReadyTimeout string
	// Handshake says how long a headless node waits for its primary.
	Handshake string
	// HandshakeOrder is the start-order advice that follows from Handshake
	// for scripts started by hand; Kubernetes bundles do not print it (the
	// LeaderWorkerSet controller starts the leader and workers together).
	HandshakeOrder string
	// Mismatch says what happens when nodes' flags differ.
	Mismatch string
}

const readyEnv = "VLLM_ENGINE_READY_TIMEOUT_S"

// startupFacts words vllm.EngineStartup for the release; each sentence
// follows "In vLLM X, " in the README.
func startupFacts(r vllm.Release) StartupFacts {
	s := r.EngineStartup()
	readyFirst := readyTimeoutFirst()
	var f StartupFacts
	switch s.ReadyTimeoutEnv {
	case vllm.Present:
		f.ReadyTimeout = fmt.Sprintf("the API server waits %d s for every engine and then gives up; raise `%s` on the primary for slow model loads", s.ReadyTimeoutDefaultS, readyEnv)
	case vllm.Maybe:
		f.ReadyTimeout = fmt.Sprintf("it is not verified whether the API server reads `%s` (certain from %s), so how long it waits for the engines is not known here", readyEnv, readyFirst)
	default:
		f.ReadyTimeout = fmt.Sprintf("there is no `%s` yet (certain from %s), so the API server's wait for the engines has no timeout to raise", readyEnv, readyFirst)
	}
	switch s.HeadlessHandshake {
	case vllm.Present:
		f.Handshake = fmt.Sprintf("each headless node gives up when its primary does not answer within %d minutes (\"Did not receive response from front-end process within %d minutes\", not configurable)",
			vllm.HeadlessHandshakeMinutes, vllm.HeadlessHandshakeMinutes)
		f.HandshakeOrder = "start the primary first or within that time"
	case vllm.Maybe:
		f.Handshake = fmt.Sprintf("headless nodes may give up when their primary does not answer within %d minutes (not verified for this release)", vllm.HeadlessHandshakeMinutes)
		f.HandshakeOrder = "start the primary first"
	}
	first := mismatchCheckFirst()
	switch s.ConfigMismatchCheck {
	case vllm.Present:
		f.Mismatch = "a node whose flags differ fails fast with \"Configuration mismatch detected\"; regenerate rather than edit one script"
	case vllm.Maybe:
		f.Mismatch = fmt.Sprintf("a node whose flags differ either fails with \"Configuration mismatch detected\" (certain from vLLM %s) or hangs; regenerate rather than edit one script", first)
	default:
		f.Mismatch = fmt.Sprintf("the nodes' configurations are not compared (the check arrived in %s): a node whose flags differ makes start-up hang without an error; regenerate rather than edit one script", first)
	}
	return f
}

// readyTimeoutFirst and mismatchCheckFirst are the first releases of the
// table certain to read VLLM_ENGINE_READY_TIMEOUT_S and to compare the
// nodes' configurations: facts of the table, worked out once (plan asks
// the generator about thousands of candidates, and copying the table for
// each was 5% of a plan's allocations).
var (
	readyTimeoutFirst = sync.OnceValue(func() string {
		return firstPresent(func(r vllm.Release) vllm.Presence { return r.EngineStartup().ReadyTimeoutEnv })
	})
	mismatchCheckFirst = sync.OnceValue(func() string {
		return firstPresent(func(r vllm.Release) vllm.Presence { return r.EngineStartup().ConfigMismatchCheck })
	})
)

// firstPresent is the first release in the table where a fact is certain.
func firstPresent(has func(vllm.Release) vllm.Presence) string {
	for _, r := range vllm.Releases() {
		if has(r) == vllm.Present {
			return r.Version.String()
		}
	}
	return "a later release"
}
