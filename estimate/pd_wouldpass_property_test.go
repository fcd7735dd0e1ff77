package estimate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// The property every P/D "what it would take" line that offers a change
// must hold (QA41b D2: two TP 8 decode instances met TPOT at 20.1 ms and,
// unsaid, took both TTFT targets from uncertain to 36.6 s and 42.4 s, the
// prefill pool then 98% busy): check of the spec with the line's change
// applied (CheckPD, as check checks it) gives the line's SLO the verdict
// the line prints, and fails none of the spec's other verdicts that did
// not fail but those the line names. The specs are the P/D examples and
// every P/D spec of estimate/testdata and estimate/pd/testdata (the QA
// specs, qa41b-dsv4pro-pd-mooncake-4x8b200.yaml among them). The QA41b
// spec's TPOT line must name the TTFT targets it sinks.
func TestPDWouldPassHoldsOnAllSLOs(t *testing.T) {
	if testing.Short() {
		t.Skip("checks every offered change of a dozen P/D specs")
	}
	var paths []string
	for _, g := range []string{"../examples/*.yaml", "testdata/*.yaml", "pd/testdata/*.yaml"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	opt := PerfOptions{Seed: 1}
	applied, qaNamed := 0, false
	for _, f := range paths {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(y), "disaggregation:") {
			continue
		}
		in := testinput.FromYAML(t, f, string(y))
		d := in.Resolved()
		if d == nil || d.PD == nil {
			continue
		}
		// One check without advice gives both the report and the verdicts
		// the lines are computed on: CheckPD with advice would run
		// pdWouldPass itself only for this loop to run it again, and its
		// report is the same (pdWouldPass writes only the verdicts'
		// WouldPass lines, on the clone below).
		r := CheckPD(d, PerfOptions{Seed: 1, NoAdvice: true})
		if r.Disaggregated == nil {
			continue
		}
		rep, vs := *r.Disaggregated, r.SLO
		for _, c := range pdWouldPass(d, &rep, slices.Clone(vs), opt) {
			if c.edit == nil {
				continue // the colocated line: its figures are the colocated check's own (TestPDWouldPassColocatedLine)
			}
			ed, ok := editPD(d, *c.edit)
			if !ok {
				t.Errorf("%s: %q does not apply", f, c.edit.what)
				continue
			}
			after := CheckPD(ed, PerfOptions{Seed: 1, NoAdvice: true}).SLO
			applied++
			for _, o := range vs {
				a := verdictNamed(after, o.Name)
				switch {
				case a == nil:
					t.Errorf("%s: %q applied: no verdict %s", f, c.edit.what, o.Name)
				case o.Name == c.verdict && (a.Verdict != c.verdict2 || a.Predicted != c.figure):
					t.Errorf("%s: %q applied: %s %s %.4g; the line says %s %.4g: %s", f, c.edit.what, o.Name, a.Verdict, a.Predicted, c.verdict2, c.figure, c.line)
				case o.Name != c.verdict && o.Verdict != slo.VerdictFail && a.Verdict == slo.VerdictFail && !slices.Contains(c.breaks, o.Name):
					t.Errorf("%s: %q offered for %s makes %s fail (%.4g, was %s) unsaid: %s", f, c.edit.what, c.verdict, o.Name, a.Predicted, o.Verdict, c.line)
				case o.Name != c.verdict && slices.Contains(c.breaks, o.Name) && (a.Verdict != slo.VerdictFail || !strings.Contains(c.line, o.Name+" would then fail")):
					t.Errorf("%s: %q: the line says %s would fail, check of that spec: %s: %s", f, c.edit.what, o.Name, a.Verdict, c.line)
				}
			}
			if strings.HasPrefix(filepath.Base(f), "qa41b-dsv4pro") && c.verdict == "TPOT (mean)" && c.verdict2 == slo.VerdictPass {
				qaNamed = len(c.breaks) > 0 || qaNamed
			}
		}
	}
	if applied < 5 {
		t.Errorf("only %d offered changes applied: the property is barely exercised", applied)
	}
	if !qaNamed {
		t.Error("QA41b D2: the dsv4pro spec's passing TPOT line names no TTFT target it sinks")
	}
	t.Logf("%d offered changes applied and checked", applied)
}
