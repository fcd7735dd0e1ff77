package preflight

import (
	"strings"
	"testing"
)

// TestRouterMetricsPortChecked (QA left 39 #2): on the router's node
// ports.free also checks vllm-router's Prometheus metrics port (29000).
func TestRouterMetricsPortChecked(t *testing.T) {
	rep := runFixtureOpts(t, "h20-roce", "h20-roce", "node0", nil, routerOn(8001), "ports.free")
	r := resultOf(t, rep, "ports.free")
	if !strings.Contains(r.Expected, "29000 (the router's Prometheus metrics") {
		t.Errorf("expected %q does not name the router's metrics port 29000", r.Expected)
	}
}
