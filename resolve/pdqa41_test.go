package resolve

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestPDAutoAll2AllByRole (qa41 D1): with all2all_backend auto, each P/D
// pool's backend follows its role — the decode pool runs only decode steps,
// the prefill pool only prefills — not the workload's input:output ratio,
// which picked high-throughput kernels for a decode pool serving 8,000-token
// prompts (TPOT 141 ms against 24.4 ms with low-latency).
func TestPDAutoAll2AllByRole(t *testing.T) {
	for _, w := range []struct{ in, out int }{{8000, 1000}, {1000, 1000}} {
		d := example(t, pdExample)
		d.Workload.InputTokens, d.Workload.OutputTokens = w.in, w.out
		for _, role := range spec.Roles {
			auto := "auto"
			d.Disaggregation.Pool(role).VLLM.All2AllBackend = &auto
		}
		r := mustResolve(t, d)
		for i, want := range []string{vllm.BackendDeepEPHighThroughput, vllm.BackendDeepEPLowLatency} {
			e := r.PD.Roles[i].Deployment.Engine
			if e.All2All.Value != want || e.All2All.From != SourceAuto || e.All2AllWritten != want || !strings.Contains(e.All2All.Why, r.PD.Roles[i].Name+" pool") {
				t.Errorf("%d in / %d out, %s pool: all2all %+v (written %q), want %s chosen by auto for the pool",
					w.in, w.out, r.PD.Roles[i].Name, e.All2All, e.All2AllWritten, want)
			}
		}
	}
	// The view carries its pool (a whole spec has none).
	if d := example(t, pdExample).RoleView(spec.RoleDecode); d.Pool != spec.RoleDecode {
		t.Errorf("RoleView pool %q, want %q", d.Pool, spec.RoleDecode)
	}
}
