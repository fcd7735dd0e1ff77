package plan

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestPDCandidatesUseTheSpecsConnector: a P/D spec naming another KV
// connector than NIXL (MooncakeConnector: a push after the prefill, at line
// rate without UCX's posting cost; vllm/kv_handoff.go) has its P/D
// candidates simulated with that connector's hand-off, as check prices the
// applied spec (estimate.EvaluatePD), not with NIXL's (pd.Evaluate). The
// spec is cmd/vlaunch/testdata/script/generate_pd_mooncake.txtar's mc.yaml.
func TestPDCandidatesUseTheSpecsConnector(t *testing.T) {
	d, _, _ := pdSpec(t, "pd/pd-mooncake-2x8h200")
	cands := pdBounded(t, d)
	if len(cands) == 0 {
		t.Fatal("no P/D candidate fits")
	}
	e := cands[0]
	if e.pd.connector != "mooncake" && e.pd.connector != "MooncakeConnector" {
		t.Fatalf("candidate's connector %q, want the spec's MooncakeConnector", e.pd.connector)
	}
	simulatePD(e, 1, slotsOf(d))
	pre, dec := e.pd.pre.in, e.pd.dec.in
	want, _ := estimate.EvaluatePD(&pre, &dec, e.pd.connector, e.pd.sameNode, e.pd.router, slo.Options{Seed: 1})
	nixl, _ := pd.Evaluate(&pre, &dec, e.pd.sameNode, e.pd.router, slo.Options{Seed: 1})
	n := dec.Workload.InputTokens
	got, w, x := e.pd.report.Scenario(n), want.Scenario(n), nixl.Scenario(n)
	if got == nil || w == nil || x == nil {
		t.Fatalf("no scenario of %d tokens", n)
	}
	if got.Transfer.Connector != w.Transfer.Connector || got.Transfer.Semantics != w.Transfer.Semantics ||
		got.Transfer.TimeS != w.Transfer.TimeS || got.TTFT.Mean != w.TTFT.Mean {
		t.Errorf("plan's hand-off %q (%s) %.4g s, TTFT %.4g s; check's (EvaluatePD) %q (%s) %.4g s, %.4g s",
			got.Transfer.Connector, got.Transfer.Semantics, got.Transfer.TimeS, got.TTFT.Mean, w.Transfer.Connector, w.Transfer.Semantics, w.Transfer.TimeS, w.TTFT.Mean)
	}
	if w.Transfer.Connector == x.Transfer.Connector {
		t.Errorf("Mooncake's hand-off named as NIXL's (%q): the test cannot tell the paths apart", x.Transfer.Connector)
	}
}
