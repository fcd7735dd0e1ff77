package estimate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// pdSpecFrom is testdata's P/D spec file with each of the edits (old, new
// pairs) made, resolved.
func pdSpecFrom(t *testing.T, file string, edits ...string) *resolve.Deployment {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	data := string(b)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(data, edits[i]) {
			t.Fatalf("%q not in %s", edits[i], file)
		}
		data = strings.Replace(data, edits[i], edits[i+1], 1)
	}
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	return d
}

// A P/D deployment a pool of which vLLM refuses to start has no predicted
// figure, as a colocated one (TestNotStartingDeploymentHasNoPrediction):
// check printed "UNCERTAIN TPOT: predicted 30.2 ms" and "PASS TTFT p50:
// predicted 143 ms" for eight TP 1 decode engines of Llama-3.3-70B FP8
// beside their own EST102, and "FAIL throughput: predicted 0 tokens/s"
// for a GLM-5 BF16 prefill pool with 177 GiB of weights per GPU. Each
// pool is judged by StartRefusals, and the verdicts name the pool.
func TestPDPoolNotStartingHasNoPrediction(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		edits      []string
		why        string
	}{
		{"decode EST102", "pd-not-starting-decode-tp1.yaml", nil, "the decode pool does not start (EST102)"},
		{"prefill EST101", "pd-not-starting-prefill-glm5-bf16.yaml", nil, "the prefill pool does not start (EST101)"},
		{"both pools", "pd-not-starting-prefill-glm5-bf16.yaml", []string{"instances: 1\n    nodes: [n2, n3]\n    parallelism: {tensor: 8, pipeline: 2", "instances: 2\n    nodes: [n2, n3]\n    parallelism: {tensor: 8, pipeline: 1"},
			"the prefill pool does not start (EST101); the decode pool does not start (EST101)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := CheckPD(pdSpecFrom(t, tc.file, tc.edits...), PerfOptions{Seed: 1})
			if len(r.SLO) == 0 {
				t.Fatal("no verdict")
			}
			if r.Feasible {
				t.Error("feasible with a pool that does not start")
			}
			for _, v := range r.SLO {
				if v.Verdict != slo.VerdictFail || v.NotPredicted != tc.why || v.Predicted != 0 || v.Band != nil {
					t.Errorf("%s: verdict %s, not predicted %q, predicted %g, band %v; want a fail, not predicted %q", v.Name, v.Verdict, v.NotPredicted, v.Predicted, v.Band, tc.why)
				}
				for _, x := range v.WouldPass {
					if !strings.HasPrefix(x, "the same GPUs colocated") {
						t.Errorf("%s: would-pass line %q is about a pool that does not start", v.Name, x)
					}
				}
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), `"predicted":null`) {
					t.Errorf("%s: JSON %s; want predicted null", v.Name, b)
				}
			}
		})
	}
}

// A P/D deployment whose pools start keeps its predictions: the decode
// spec with max_model_len 8,192 (1.25 GiB for one sequence, 1.43 held).
func TestPDPoolsStartingArePredicted(t *testing.T) {
	d := pdSpecFrom(t, "pd-not-starting-decode-tp1.yaml", "max_model_len: 16384", "max_model_len: 8192")
	r := CheckPD(d, PerfOptions{Seed: 1, NoAdvice: true})
	for _, v := range r.SLO {
		if v.NotPredicted != "" || v.Predicted <= 0 {
			t.Errorf("%s: not predicted %q, predicted %g; both pools start", v.Name, v.NotPredicted, v.Predicted)
		}
	}
}

// PoolsNotStarting takes each pool's refusals from StartRefusals, the
// colocated check's one decision: a warning (EST103) or an error that
// leaves vLLM starting names no pool.
func TestPoolsNotStartingIsStartRefusals(t *testing.T) {
	d := pdSpecFrom(t, "pd-not-starting-decode-tp1.yaml")
	dec := FromResolved(d.PD.Roles[1].Deployment)
	fs := Check(&dec).Findings
	vs := []slo.Verdict{{Name: "TPOT (mean)", Target: 0.04, Predicted: 0.03, Verdict: slo.VerdictPass}}
	out, stop := PoolsNotStarting(vs, PoolFindings{spec.RolePrefill, nil}, PoolFindings{spec.RoleDecode, fs})
	if !slices.Equal(stop, StartRefusals(fs)) || len(stop) == 0 {
		t.Fatalf("codes %v; want StartRefusals' %v", stop, StartRefusals(fs))
	}
	if out[0].NotPredicted != "the decode pool does not start (EST102)" {
		t.Errorf("not predicted %q", out[0].NotPredicted)
	}
	var warnings = fs[:0:0]
	for _, f := range fs {
		if f.Code != "EST102" {
			warnings = append(warnings, f)
		}
	}
	out, stop = PoolsNotStarting(vs, PoolFindings{spec.RoleDecode, warnings})
	if len(stop) != 0 || out[0].NotPredicted != "" || out[0].Predicted != 0.03 {
		t.Errorf("without EST102: codes %v, verdict %+v; want it untouched", stop, out[0])
	}
}

// What it would take proposes no spec whose pool would not start: the
// advisor judges every applied spec as CheckPD judges the spec (a line
// raising max_model_len past the decode pool's KV has no figure).
func TestPDAdvisorJudgesAppliedSpecsStart(t *testing.T) {
	d := pdSpecFrom(t, "pd-not-starting-decode-tp1.yaml", "max_model_len: 16384", "max_model_len: 8192")
	a := &pdAdvisor{d: d, opt: PerfOptions{Seed: 1, NoAdvice: true}, memo: map[string][]slo.Verdict{}, rep: map[string]*PDReport{}}
	vs, _ := a.evaluate(pdEdit{"workload.max_model_len: 16384", func(s *spec.Deployment) { s.Workload.MaxModelLen = 16384 }})
	if len(vs) == 0 {
		t.Fatal("no verdict for the applied spec")
	}
	for _, v := range vs {
		if v.NotPredicted != "the decode pool does not start (EST102)" || v.Predicted != 0 {
			t.Errorf("%s: not predicted %q, predicted %g; the applied spec's decode pool does not start", v.Name, v.NotPredicted, v.Predicted)
		}
	}
	vs, _ = a.evaluate(pdEdit{"workload.max_model_len: 4096", func(s *spec.Deployment) { s.Workload.MaxModelLen = 4096 }})
	for _, v := range vs {
		if v.NotPredicted != "" {
			t.Errorf("%s: not predicted %q at max_model_len 4096, which starts", v.Name, v.NotPredicted)
		}
	}
}
