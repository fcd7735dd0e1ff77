package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestPortProblemsRouterMetrics (QA left 39 #2): vllm-router also binds
// its Prometheus metrics port (vllm.RouterMetricsPort, 29000) on its node;
// an engine's API port there, or the router's own port, collides with it.
func TestPortProblemsRouterMetrics(t *testing.T) {
	d := example(t, pdExample)
	d.VLLM.Port = vllm.RouterMetricsPort
	probs := mustResolve(t, d).PD.PortProblems("bare")
	if len(probs) != 1 || probs[0].Node != "node0" || probs[0].Port != vllm.RouterMetricsPort || probs[0].Other != routerMetricsWhat {
		t.Errorf("problems %+v, want node0's API port against the router's metrics port", probs)
	}
	d = example(t, pdExample)
	d.Disaggregation.Router.Port = vllm.RouterMetricsPort
	for _, runtime := range []string{"bare", "kubernetes"} {
		probs = mustResolve(t, d).PD.PortProblems(runtime)
		if len(probs) != 1 || probs[0].Port != vllm.RouterMetricsPort {
			t.Errorf("%s: problems %+v, want the router's port against its metrics port", runtime, probs)
		}
	}
}
