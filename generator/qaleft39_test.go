package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestRouterMetricsPortWritten (QA left 39 #2): router.sh names the vLLM
// router's Prometheus metrics port explicitly (--prometheus-port, default
// 29000 in vllm-project/router's main.rs, bound whatever the flags), and
// the README's router section lists it with the router's port.
func TestRouterMetricsPortWritten(t *testing.T) {
	b, ds := gen(t, loadSpec(t, "pd"), Options{Runtime: "bare"})
	if ds.HasErrors() || b.PD == nil {
		t.Fatal(ds)
	}
	sh := string(fileData(t, b, "router.sh"))
	if !strings.Contains(sh, "--prometheus-port 29000") {
		t.Errorf("router.sh does not name --prometheus-port 29000:\n%s", sh)
	}
	if b.PD.RouterMetricsPort != vllm.RouterMetricsPort {
		t.Errorf("RouterMetricsPort %d, want %d", b.PD.RouterMetricsPort, vllm.RouterMetricsPort)
	}
	readme := string(fileData(t, b, "README.md"))
	if !strings.Contains(readme, "| "+b.PD.Router.Node.Name+" | router | ") || !strings.Contains(readme, "29000 (Prometheus metrics, 127.0.0.1 only)") {
		t.Errorf("README lists no router ports row with 29000:\n%s", readme)
	}
}
