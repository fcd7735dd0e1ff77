package estimate

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/validate"
)

// A deployment vLLM refuses to start has no predicted figure (newuser40
// spec 06: 16 DP ranks of Llama-3.3-70B FP8 at TP 1 on H100, 1.43 GiB of
// KV where one 16,384-token sequence needs 2.50 GiB, EST102). Check and
// generate printed "FAIL TPOT (mean): target 40 ms, predicted 0 s", JSON
// "predicted": 0 and a "simulated under the workload's load" explanation.
// Every verdict must fail unpredicted, null in JSON, and what it would
// take keep only alternative layouts that start (TP=8 DP=2 fits: 8.5 GiB
// of weights per GPU).
func TestNotStartingDeploymentHasNoPrediction(t *testing.T) {
	d, ds, err := validate.File(filepath.Join("testdata", "not-starting-llama33-70b-dp16.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	in := FromResolved(d)
	r := Check(&in)
	if got := StartRefusals(r.Findings); !slices.Equal(got, []string{"EST102"}) {
		t.Fatalf("start refusals %v; want [EST102] (%v)", got, r.Findings)
	}
	r.AddPerformance(&in, PerfOptions{Seed: 1})
	if len(r.SLO) != 3 {
		t.Fatalf("%d verdicts; want TPOT and two TTFT", len(r.SLO))
	}
	fits := map[string]bool{}
	for _, a := range r.Performance.Alternatives {
		fits[a.Name] = a.Fits
	}
	for _, v := range r.SLO {
		if v.Verdict != slo.VerdictFail || v.NotPredicted != "vLLM does not start (EST102)" || v.Predicted != 0 || v.Band != nil {
			t.Errorf("%s: verdict %s, not predicted %q, predicted %g, band %v; want a fail with no prediction", v.Name, v.Verdict, v.NotPredicted, v.Predicted, v.Band)
		}
		if strings.Contains(v.Explanation, "simulated") && !strings.Contains(v.Explanation, "nothing to simulate") {
			t.Errorf("%s: explanation %q speaks of a simulation of a deployment that does not start", v.Name, v.Explanation)
		}
		if len(v.WouldPass) == 0 {
			t.Errorf("%s: no alternative named; TP=8 DP=2 starts and was re-simulated", v.Name)
		}
		for _, x := range v.WouldPass {
			name, _, _ := strings.Cut(x, " (")
			if !fits[name] {
				t.Errorf("%s: would-pass line %q names no alternative evaluated as starting (%v)", v.Name, x, fits)
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if p, ok := m["predicted"]; !ok || p != nil {
			t.Errorf("%s: JSON predicted %v (present %v); want null", v.Name, p, ok)
		}
	}
	if r.Feasible {
		t.Error("feasible with EST102")
	}
}
