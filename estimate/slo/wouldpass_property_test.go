package slo

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// propertySpec is one spec of the property test and a tightening of its
// targets (nil: as written).
type propertySpec struct {
	name string
	path string
	edit func(*spec.Deployment, []Verdict)
}

// tightenTTFT sets every TTFT target of s to 0.6 × the prediction of its
// verdict in vs, so the spec fails them and lines are offered.
func tightenTTFT(s *spec.Deployment, vs []Verdict) {
	for i := range s.SLO.TTFT {
		t := &s.SLO.TTFT[i]
		for _, q := range []struct {
			name string
			p    **float64
		}{{"p50", &t.P50S}, {"p95", &t.P95S}, {"p99", &t.P99S}} {
			if *q.p == nil {
				continue
			}
			for _, v := range vs {
				if v.Name == fmt.Sprintf("TTFT %s at %d input tokens", q.name, t.InputTokens) && v.Predicted > 0 {
					x := 0.6 * v.Predicted
					*q.p = &x
				}
			}
		}
	}
}

// propertySpecs are the specs the property test checks: every colocated
// example and estimate/testdata spec as written and with its TTFT targets
// tightened below its predictions, and this package's testdata (the QA
// specs: qa41b-gptoss120b-1xh100-kvedge.yaml, the KV edge of QA41b D3).
func propertySpecs(t *testing.T) []propertySpec {
	var paths []string
	for _, g := range []string{"../../examples/*.yaml", "../testdata/*.yaml", "testdata/*.yaml"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	var out []propertySpec
	for _, p := range paths {
		d, ds := spec.Load(p)
		if ds.HasErrors() || d.Disaggregation != nil || d.Parallelism.Auto {
			continue // P/D specs: estimate's TestPDWouldPassHoldsOnAllSLOs
		}
		name := strings.TrimSuffix(filepath.Base(p), ".yaml")
		out = append(out, propertySpec{name, p, nil})
		if !strings.HasPrefix(p, "testdata/") && len(d.SLO.TTFT) > 0 {
			out = append(out, propertySpec{name + " TTFT ×0.6", p, tightenTTFT})
		}
	}
	return out
}

// The property every "what it would take" line that offers a change must
// hold (QA41b D2, D3): check on the spec with the change applied gives the
// verdict the line promised for its SLO — a pass, or uncertain where the
// line says check would still call it so — and fails none of the spec's
// other verdicts that did not fail, but those the line names. The claims
// are the lines' own edits (offer records them), applied as the line's
// re-simulation applied them and checked as `vlaunch check` checks a spec
// (seed 1, the whole check). QA41b D3's spec must offer 20 sessions for
// its TTFT p99 (check of 21 calls it uncertain).
func TestWouldPassOffersHoldOnAllSLOs(t *testing.T) {
	if testing.Short() {
		t.Skip("checks every offered change of some thirty specs")
	}
	type rec struct {
		w *wouldPassCheck
		c offeredClaim
	}
	var got []rec
	recordOffer = func(w *wouldPassCheck, c offeredClaim) { got = append(got, rec{w, c}) }
	defer func() { recordOffer = nil }()
	opt := Options{Seed: 1}
	claims, kvEdge := 0, false
	for _, ps := range propertySpecs(t) {
		in := adviceInput(t, ps.path, nil)
		if ps.edit != nil {
			base := check(&in, Options{Seed: 1, NoAdvice: true}).SLO
			in = adviceInput(t, ps.path, func(d *spec.Deployment) { ps.edit(d, base) })
		}
		got = got[:0]
		r := check(&in, opt)
		seen := map[string]bool{}
		for _, g := range got {
			key := g.c.Name + "|" + g.c.edit.key
			if seen[key] {
				continue
			}
			seen[key] = true
			alt, ok := g.w.edited(g.c.edit)
			if !ok {
				t.Errorf("%s: %s: the offered %s does not apply", ps.name, g.c.Name, g.c.edit.key)
				continue
			}
			after := check(&alt, Options{Seed: 1, NoAdvice: true}).SLO
			claims++
			if ps.name == "qa41b-gptoss120b-1xh100-kvedge" && g.c.edit.key == "concurrency=20" && strings.HasPrefix(g.c.Name, "TTFT p99") {
				kvEdge = true
			}
			for _, o := range r.SLO {
				a := verdictOf(after, o.Name)
				switch {
				case a == nil:
					t.Errorf("%s: %s applied: no verdict %s", ps.name, g.c.edit.key, o.Name)
				case o.Name == g.c.Name && a.Verdict != g.c.Promised:
					t.Errorf("%s: %s offered for %s promises %s; check of that spec: %s, %.4g (target %.4g)", ps.name, g.c.edit.key, o.Name, g.c.Promised, a.Verdict, a.Predicted, a.Target)
				case o.Name != g.c.Name && o.Verdict != VerdictFail && a.Verdict == VerdictFail && !slices.Contains(g.c.Breaks, o.Name) && !slices.Contains(g.c.Unchecked, o.Name):
					t.Errorf("%s: %s offered for %s makes %s fail (%.4g, was %s %.4g) unsaid", ps.name, g.c.edit.key, g.c.Name, o.Name, a.Predicted, o.Verdict, o.Predicted)
				}
			}
		}
	}
	if claims < 10 {
		t.Errorf("only %d offered changes checked: the property is barely exercised", claims)
	}
	if !kvEdge {
		t.Error("QA41b D3's spec does not offer 20 sessions for its TTFT p99")
	}
	t.Logf("%d offered changes applied and checked", claims)
}

// verdictOf is the verdict of vs called name (nil: none).
func verdictOf(vs []Verdict, name string) *Verdict {
	for i := range vs {
		if vs[i].Name == name {
			return &vs[i]
		}
	}
	return nil
}
