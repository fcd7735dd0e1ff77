package estimate

import (
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/validate"
)

// A concurrency whose KV does not fit at once is a warning (EST103: vLLM
// queues the excess), but it is not thereby feasible: the reference
// scenario's 200 sessions of 32,768 tokens hold 2 of 7 per rank at once,
// and its simulation, which queues the rest, fails the throughput SLO,
// bound by the KV capacity; check stays infeasible (exit status 1) on the
// SLO verdicts alone.
func TestQueuedConcurrencyStillFailsItsSLO(t *testing.T) {
	d, ds, err := validate.File(filepath.Join("..", "examples", "deepseek-v3-32xh20.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	in := FromResolved(d)
	r := Check(&in)
	if r.Memory.Capacity.Fits || r.Findings.HasErrors() || !r.Feasible {
		t.Fatalf("memory half: fits %v, errors %v, feasible %v; want a queued concurrency that is no error (%v)", r.Memory.Capacity.Fits, r.Findings.HasErrors(), r.Feasible, r.Findings)
	}
	if !hasCode(r.Findings, codes.EstShareNoFit, diag.Warning) {
		t.Fatalf("no EST103 warning: %v", r.Findings)
	}
	r.AddPerformance(&in, PerfOptions{Seed: 1})
	var tput *slo.Verdict
	for i := range r.SLO {
		if r.SLO[i].Name == "throughput (output tokens/s)" {
			tput = &r.SLO[i]
		}
	}
	if tput == nil || tput.Verdict != slo.VerdictFail || tput.Binding != "kv_capacity" {
		t.Fatalf("throughput verdict %+v; want a fail bound by kv_capacity", tput)
	}
	if r.Feasible || r.Findings.HasErrors() {
		t.Errorf("feasible %v with errors %v: the failing SLO alone must make it infeasible", r.Feasible, r.Findings.HasErrors())
	}
}

func hasCode(ds diag.Diagnostics, c diag.Code, sev diag.Severity) bool {
	for _, d := range ds {
		if d.Code == c && d.Severity == sev {
			return true
		}
	}
	return false
}
