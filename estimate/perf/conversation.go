package perf

import "github.com/vlaunch/vlaunch/estimate/input"

// Conversation is input.Conversation, the one rule of a session's turns
// (workload.session_tokens), for the simulator, which reaches the
// estimator's inputs only through perf (estimate/layers_test.go).
type Conversation = input.Conversation
