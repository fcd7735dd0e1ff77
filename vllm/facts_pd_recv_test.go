package vllm

import (
	"strings"
	"testing"
)

// The step-end notice of a finished KV load holds on every release with
// the V1 KV connector API, and is cited.
func TestKVLoadNoticedAtStepEnd(t *testing.T) {
	for v, want := range map[string]bool{"0.8.5": false, "0.9.0": true, "0.11.0": true, "0.27.1": true} {
		if got := (Release{Version: mustVersion(v)}).KVLoadNoticedAtStepEnd(); got != want {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
	if !strings.Contains(KVLoadNoticedSource(), "scheduler.py") {
		t.Errorf("source %q does not name the scheduler", KVLoadNoticedSource())
	}
}

// An engine without a KV connector recomputes the prompt on every release
// with the V1 connector API, and the fact is cited.
func TestNoConnectorRecomputes(t *testing.T) {
	for v, want := range map[string]bool{"0.8.5": false, "0.9.0": true, "0.20.1": true, "0.31.0": true} {
		if got := (Release{Version: mustVersion(v)}).NoConnectorRecomputes(); got != want {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
	if !strings.Contains(NoConnectorSource(), "Scheduler.__init__") {
		t.Errorf("source %q does not name the scheduler's constructor", NoConnectorSource())
	}
}
