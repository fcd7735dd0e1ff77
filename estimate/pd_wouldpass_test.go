package estimate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// QA finding (session 38): a P/D check's FAIL throughput verdict (GLM-5
// FP8, 2,285 against 5,000 tokens/s) and its uncertain ones came with no
// "what it would take" (JSON what_it_would_take: null); colocated verdicts
// always get one. Every failing or uncertain verdict of the two QA P/D
// specs now has a line, and every line that names a change holds when
// applied: the spec with that change, checked as check checks it
// (CheckPD), gives the verdict the figure the line prints, to the digit.
func TestPDWouldPassApplied(t *testing.T) {
	// The QA37 Qwen3-235B spec: a model whose pools fit in more instances
	// of the same GPUs, so the instance lines carry figures too.
	for _, f := range []string{"pd/testdata/qa38-glm5-fp8-pd-2x8h200.yaml", "pd/testdata/qa38-dsv32-pd-2x8h200.yaml", "pd/testdata/qa37-qwen3-235b-pd.yaml"} {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := testinput.FromYAML(t, f, string(y))
		d := in.Resolved()
		r := CheckPD(d, PerfOptions{Seed: 1})
		for _, v := range r.SLO {
			if (v.Verdict == slo.VerdictFail || v.Verdict == slo.VerdictUncertain) && len(v.WouldPass) == 0 {
				t.Errorf("%s: %s %s has no what it would take", f, v.Verdict, v.Name)
			}
		}
		// The claims behind the lines, each applied.
		rep := *r.Disaggregated
		vs := CheckPD(d, PerfOptions{Seed: 1, NoAdvice: true}).SLO
		claims := pdWouldPass(d, &rep, vs, PerfOptions{Seed: 1})
		applied := 0
		for _, c := range claims {
			if c.edit == nil {
				continue
			}
			found := false
			for _, v := range r.SLO {
				for _, l := range v.WouldPass {
					found = found || l == c.line
				}
			}
			if !found {
				t.Errorf("%s: claim %q is not among the printed lines", f, c.line)
			}
			ed, ok := editPD(d, *c.edit)
			if !ok {
				t.Errorf("%s: %q does not apply", f, c.edit.what)
				continue
			}
			got := CheckPD(ed, PerfOptions{Seed: 1, NoAdvice: true})
			w := verdictNamed(got.SLO, c.verdict)
			if w == nil || w.Predicted != c.figure || w.Verdict != c.verdict2 || !strings.Contains(c.line, figure(w, w.Predicted)+" ("+strings.ToUpper(w.Verdict)+")") {
				t.Errorf("%s: %q applied gives %+v, the line says %s (%s): %s", f, c.edit.what, w, figure(w, c.figure), c.verdict2, c.line)
			}
			applied++
			t.Logf("%s: %s", f, c.line)
		}
		if applied == 0 {
			t.Errorf("%s: no line names a change to apply", f)
		}
	}
}
