package search

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// generateAutoSpec is generate_auto.txtar's auto.yaml: DeepSeek-V3 FP8 on
// 2 × 8 H200, 512 sessions, a 20,000 tokens/s target no layout meets.
const generateAutoSpec = `apiVersion: vlaunch/v1
kind: Deployment
model: {name: deepseek-v3, weights: fp8}
hardware:
  gpu: h200
  nodes:
    - {name: a, address: 10.10.0.1, gpus: 8, interface: ib0}
    - {name: b, address: 10.10.0.2, gpus: 8, interface: ib0}
  network:
    inter_node: {kind: infiniband, bandwidth_gbit_per_s: 400, nics_per_node: 8, latency_us: 3}
workload: {concurrency: 512, max_model_len: 16384, input_tokens: 2000, output_tokens: 1000}
slo: {throughput_tokens_per_s: 20000}
parallelism: auto
vllm: {version: "0.22.1", all2all_backend: auto}
`

// specText is the input of a spec given as text.
func specText(t testing.TB, text string) input.Input {
	t.Helper()
	path := filepath.Join(t.TempDir(), "auto.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds := spec.Load(path)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	r, err := resolve.FromSpec(d)
	if err != nil {
		t.Fatal(err)
	}
	return input.FromResolved(r)
}

// checked is check's own figures of layout l on base's hosts (slo.Evaluate
// with check's options, as the report runs it, but without the advice,
// which changes no verdict or figure and costs the most on layouts that
// fail: slo.Options.NoAdvice), as a candidate.
func checked(base *input.Input, l input.Layout) Candidate {
	e := bound(base.WithLayout(l))
	opt := checkOpt
	opt.NoAdvice = true
	r := evaluate(&e.in, &e.mem, opt)
	e.takeResult(&r)
	e.Confirmed = true
	return e.Candidate
}

// On generate_auto's spec TP 2 · DP 8 with EP off and with EP on (DeepEP
// low-latency) both miss the throughput target; check's own run puts EP
// off at 7,546 tokens/s and EP on at 8,849, the smaller shortfall. The
// search chose EP off: its ranking run of EP on ended at its work ceiling
// having measured nothing (0 tokens/s), so it ranked below every layout
// and was never confirmed. Check's run of either twin must not rank above
// the chosen layout's.
func TestAutoChoiceNotBeatenByItsEPTwin(t *testing.T) {
	base := specText(t, generateAutoSpec)
	_, res, _ := Choose(&base, checkOpt)
	if res == nil {
		t.Fatal("no layout chosen")
	}
	chosen := res.Chosen
	for _, ep := range []bool{false, true} {
		l := input.Layout{TP: 2, PP: 1, DP: 8, EP: ep, Nodes: 2, GPUsPerNode: 8}
		twin := checked(&base, l)
		if better(twin, chosen) {
			t.Errorf("check's run of %s (%+v) ranks above the chosen %s (%+v)", twin.Name(), twin.score, chosen.Name(), chosen.score)
		}
	}
	if !chosen.EP || chosen.TP != 2 || chosen.DP != 8 {
		t.Errorf("chose %s, want TP 2 · DP 8 with EP on (check's run: the smallest shortfall)", chosen.Name())
	}
}

// topKSpecs are the specs of the property test: generate_auto's on vLLM
// 0.22.1 and 0.8.3 (no DP flags), and examples with parallelism: auto.
func topKSpecs(t *testing.T) map[string]input.Input {
	return map[string]input.Input{
		"generate_auto":            specText(t, generateAutoSpec),
		"generate_auto 0.8.3":      specText(t, strings.Replace(generateAutoSpec, `"0.22.1"`, `"0.8.3"`, 1)),
		"deepseek-v3-fp8-2x8h200":  autoExample(t, "deepseek-v3-fp8-2x8h200"),
		"deepseek-r1-8xh200-burst": autoExample(t, "deepseek-r1-8xh200-burst"),
	}
}

// TestConfirmedTopK: the chosen layout's checked score is at least every
// other confirmed row's (no confirmed row ranks above it), every confirmed
// row carries check's own figures (what slo.Evaluate with check's options
// gives it: the figures check prints for that layout), and of the
// confirmTop best layouts by their ranking runs (a run cut short at its
// work ceiling ranks by its bound) each was confirmed, or its bound
// already ranks below the chosen one (check's run cannot beat it), or it
// is marked Unsettled.
func TestConfirmedTopK(t *testing.T) {
	for name, base := range topKSpecs(t) {
		t.Run(name, func(t *testing.T) {
			got := Rank(&base, checkOpt)
			chosen := got[0]
			if !chosen.Confirmed {
				t.Fatalf("chosen %s not confirmed", chosen.Name())
			}
			nodes, perNode := base.Layout.Nodes, base.Layout.GPUsPerNode
			byPin := map[string]Candidate{}
			for _, c := range got {
				byPin[c.PinYAML()] = c
				if !c.Confirmed {
					continue
				}
				if c != chosen && better(c, chosen) {
					t.Errorf("confirmed %s (%+v) ranks above the chosen %s (%+v)", c.Name(), c.score, chosen.Name(), chosen.score)
				}
				want := checked(&base, c.layout(nodes, perNode))
				want.Confirmed, want.Unsettled = c.Confirmed, c.Unsettled
				if c != want {
					t.Errorf("%s: the table's figures %+v, check's %+v", c.Name(), c, want)
				}
			}
			// Every layout's ranking figure, best first.
			type ranked struct{ run, bound Candidate }
			var all []ranked
			for _, l := range candidateLayouts(&base) {
				e := bound(base.WithLayout(l))
				b := e.Candidate
				e.simulate()
				all = append(all, ranked{e.Candidate, b})
			}
			sort.SliceStable(all, func(i, j int) bool { return better(all[i].run, all[j].run) })
			for i, r := range all[:min(len(all), confirmTop)] {
				if r.run.Fits != all[0].run.Fits {
					break
				}
				c := byPin[r.run.PinYAML()]
				if !c.Confirmed && better(r.bound, chosen) && !c.Unsettled {
					t.Errorf("#%d by ranking run, %s (%+v), was not confirmed, and its bound %+v ranks above the chosen %s (%+v)",
						i+1, c.Name(), r.run.score, r.bound.score, chosen.Name(), chosen.score)
				}
			}
		})
	}
}
