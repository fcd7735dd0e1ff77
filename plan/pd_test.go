package plan

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// pdSpec loads a spec of plan/testdata/pd, or an example (name with no
// directory).
func pdSpec(t testing.TB, name string) (*resolve.Deployment, string, []byte) {
	t.Helper()
	if !strings.Contains(name, "/") {
		return example(t, name)
	}
	return specFile(t, filepath.Join("testdata", name+".yaml"))
}

// pdBounded are a spec's P/D candidates that fit, each with its bound (as
// Plan bounds them).
func pdBounded(t testing.TB, d *resolve.Deployment) []*evaluated {
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	var sum PDSummary
	slots := slotsOf(d)
	var out []*evaluated
	for _, e := range pdCandidates(d, base, own, Space{}, &sum) {
		if e.Fits {
			boundPD(e, slots)
			e.boundSLO, e.bound = e.SLO, scoreOf(&e.Candidate)
			out = append(out, e)
		}
	}
	return out
}

// TestPDBoundNeverBelowCheck: the P/D bound (rate matching, latency
// floors, judged with check's bands) is never worse than the simulation
// check runs — throughput at or above it, TPOT and TTFT at or below, the
// score at least as good — so a P/D group the bound puts below the best
// simulated candidate cannot rank first. Checked on a spread of the
// candidates of the P/D example and of a spec where P/D wins.
func TestPDBoundNeverBelowCheck(t *testing.T) {
	checked := 0
	for _, name := range []string{"deepseek-v3-pd-32xh20", "pd/pd-wins-h200", "pd/pd-short-prompts", "pd/pd-low-load"} {
		d, _, _ := pdSpec(t, name)
		slots := slotsOf(d)
		all := pdBounded(t, d)
		step := max(1, len(all)/6)
		for i, e := range all {
			if i%step != 0 && !e.Own {
				continue
			}
			bound, bs := append([]SLOResult(nil), e.SLO...), e.bound
			simulatePD(e, 1, slots)
			for j, b := range bound {
				s := e.SLO[j]
				if b.Margin() < s.Margin()-1e-9 {
					t.Errorf("%s: %s: %s bound %g, simulated %g (the bound must be optimistic)", name, e.Settings, s.Name, b.Predicted, s.Predicted)
				}
			}
			if e.Score.Better(bs) {
				t.Errorf("%s: %s: simulated score %+v beats the bound's %+v", name, e.Settings, e.Score, bs)
			}
			checked++
		}
	}
	if checked < 12 {
		t.Fatalf("only %d P/D candidates checked", checked)
	}
}

// TestPDRanking: plan ranks P/D and colocated candidates in one list, says
// which each is, and when the best P/D candidate loses says why in one
// line with the figures — one spec per reason — and none when P/D wins.
func TestPDRanking(t *testing.T) {
	for _, c := range []struct {
		name, noPay string
		pdFirst     bool
	}{
		{"pd/pd-wins-h200", "", true},
		{"pd/pd-short-prompts", "P/D does not pay — short prompts: a 128-token prompt prefills in", false},
		{"pd/pd-low-load", "P/D does not pay — low load: the prefill pool's", false},
		{"pd/pd-slow-nics", "P/D does not pay — slow NICs: a request's KV transfer takes", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, path, src := pdSpec(t, c.name)
			r := Plan(d, Options{Seed: 1, File: path, Source: src})
			if !r.PD.Tried || r.PD.Candidates == 0 {
				t.Fatalf("P/D not tried: %+v", r.PD)
			}
			if len(r.Top) == 0 {
				t.Fatal("no candidate")
			}
			if got := r.Top[0].PD != nil; got != c.pdFirst {
				t.Errorf("#1 is %s (%s), want P/D first %v", r.Top[0].Shape(), r.Top[0].Settings, c.pdFirst)
			}
			if c.noPay == "" && r.PD.NoPay != "" || !strings.HasPrefix(r.PD.NoPay, c.noPay) {
				t.Errorf("does-not-pay line %q, want it to start %q", r.PD.NoPay, c.noPay)
			}
			if c.noPay != "" && !strings.Contains(r.PD.NoPay, "output tokens/s per GPU") {
				t.Errorf("the line gives no comparison: %q", r.PD.NoPay)
			}
			for _, x := range r.Top {
				if (x.PD != nil) != (x.Shape() != "colocated") || (x.PD != nil && x.Settings.PD == nil) {
					t.Errorf("#%d: shape %s, figures %v, settings %v", x.Rank, x.Shape(), x.PD != nil, x.Settings.PD != nil)
				}
			}
		})
	}
}

// TestPDNotTried: a release without NIXL and a single node get no P/D
// candidates, and the plan says why.
func TestPDNotTried(t *testing.T) {
	d, _, _ := example(t, "qwen3-30b-a3b-1xh100")
	if got := pdNotTried(d); !strings.Contains(got, "one node") {
		t.Errorf("one node: %q", got)
	}
	d, _, _ = pdSpec(t, "pd/pd-wins-h200")
	old := *d
	rel, _, _, err := resolve.Release("0.8.5")
	if err != nil {
		t.Fatal(err)
	}
	old.Release = rel
	if got := pdNotTried(&old); !strings.Contains(got, "has no NixlConnector") {
		t.Errorf("vLLM 0.8.5: %q", got)
	}
	// A prefix-cache hit rate: the colocated candidates and the P/D
	// prefill pools both apply it (pd43), so P/D is tried.
	if got := pdNotTried(d); got != "" {
		t.Fatalf("pd-wins-h200: %q", got)
	}
	hit := *d
	hit.Workload.PrefixCacheHitRate = 0.5
	if got := pdNotTried(&hit); got != "" {
		t.Errorf("hit rate 0.5: %q, want P/D tried", got)
	}
}

// TestApplyPDAgrees: --apply writes a P/D winner as a disaggregation block
// (no top-level parallelism, comments kept), the spec validates, and
// check's P/D model on it gives the figures plan printed; a colocated
// winner of a P/D spec removes the block and check agrees too.
func TestApplyPDAgrees(t *testing.T) {
	for _, c := range []struct {
		name string
		pd   bool
	}{{"pd/pd-wins-h200", true}, {"deepseek-v3-pd-32xh20", false}, {"pd/pd-1node-h100", true}} {
		t.Run(c.name, func(t *testing.T) {
			d, path, src := pdSpec(t, c.name)
			r := Plan(d, Options{Seed: 1, File: path, Source: src})
			// the best candidate of the kind this case applies (P/D or
			// colocated): on one node a colocated engine may rank first
			i := slices.IndexFunc(r.Top, func(k Candidate) bool { return (k.PD != nil) == c.pd })
			if i < 0 {
				t.Fatalf("no candidate of the kind this test applies (P/D %v): %+v", c.pd, r.Top)
			}
			top := r.Top[i]
			out, err := Apply(src, r.OwnSettings, top.Settings)
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(out, []byte("\ndisaggregation:")); got != c.pd {
				t.Errorf("disaggregation block written %v, want %v:\n%s", got, c.pd, out)
			}
			if got := bytes.Contains(out, []byte("\nparallelism:")); got == c.pd {
				t.Errorf("top-level parallelism written %v with P/D %v:\n%s", got, c.pd, out)
			}
			if !bytes.Contains(out, []byte("# ")) {
				t.Error("comments lost")
			}
			dep, ds, err := validate.Bytes(path, out)
			if err != nil || ds.HasErrors() {
				t.Fatalf("the written spec does not validate: %v %v\n%s", err, ds, out)
			}
			var rep estimate.Report
			if dep.PD != nil {
				rep = estimate.CheckPD(dep, estimate.PerfOptions{Seed: 1})
			} else {
				in := estimate.FromResolved(dep)
				rep = estimate.Check(&in)
				rep.AddPerformance(&in, estimate.PerfOptions{Seed: 1})
			}
			if len(rep.SLO) != len(top.SLO) {
				t.Fatalf("check judges %d SLOs, plan %d", len(rep.SLO), len(top.SLO))
			}
			for i, v := range rep.SLO {
				if v.Predicted != top.SLO[i].Predicted || v.Verdict != top.SLO[i].Verdict {
					t.Errorf("%s: check %g %s, plan %g %s", v.Name, v.Predicted, v.Verdict, top.SLO[i].Predicted, top.SLO[i].Verdict)
				}
			}
		})
	}
}

// BenchmarkPlanPD is the whole plan of the P/D example (DeepSeek-V3 on the
// reference's 4 × 8 H20, two nodes prefill, two decode): under 2 s.
func BenchmarkPlanPD(b *testing.B) {
	benchPlan(b, filepath.Join("..", "examples", "deepseek-v3-pd-32xh20.yaml"))
}

// applyOneThreeSplit writes into src (the spec of d, on four nodes node0…
// node3) a P/D candidate with node0 as a DP8 prefill pool on DeepEP's
// high-throughput kernels and the other three as a DP24 decode pool, and
// the candidate it wrote.
func applyOneThreeSplit(t *testing.T, d *resolve.Deployment, src []byte) ([]byte, Settings) {
	t.Helper()
	base, own, err := colocatedBase(d)
	if err != nil || base == nil {
		t.Fatal(err)
	}
	s := own
	s.PD = &PDSettings{
		Prefill: PoolSettings{Nodes: []string{"node0"}, Instances: 1, TP: 1, PP: 1, DP: 8, EP: true, All2All: "deepep_high_throughput"},
		Decode:  PoolSettings{Nodes: []string{"node1", "node2", "node3"}, Instances: 1, TP: 1, PP: 1, DP: 24, EP: true},
	}
	out, err := Apply(src, own, s)
	if err != nil {
		t.Fatal(err)
	}
	return out, s
}

// TestApplyPDToPDSpec: a P/D candidate written into a P/D spec replaces
// the pools key by key — nodes, instances, layout, the overrides plan
// varies (dropped where the candidate takes the top-level value) — and
// keeps the connector, transport, router and comments; the spec validates
// with the new pools.
func TestApplyPDToPDSpec(t *testing.T) {
	d, path, src := example(t, "deepseek-v3-pd-32xh20")
	out, _ := applyOneThreeSplit(t, d, src)
	for _, want := range []string{"  transport: ucx\n", "# Clients talk to the router on node0:8000", "    nodes: [node0]\n", "    nodes: [node1, node2, node3]\n",
		"    parallelism: {tensor: 1, pipeline: 1, data: 24, expert: true}\n", "    vllm: {all2all_backend: deepep_high_throughput}\n"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if bytes.Contains(out, []byte("deepep_low_latency")) || bytes.Contains(out, []byte("max_num_seqs: 256")) {
		t.Errorf("the decode pool's overrides the candidate drops are still there:\n%s", out)
	}
	dep, ds, err := validate.Bytes(path, out)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v\n%s", err, ds, out)
	}
	if got := dep.PD.Roles[1].Deployment.Layout.DP; got != 24 {
		t.Errorf("decode DP %d, want 24", got)
	}
}

// A P/D candidate whose simulation shows its prefill pool cannot hold the
// requests resident there (simulatePD clears Fits) leaves the ranking, and
// so cannot end the search as the best simulated either (nthGroup).
func TestRankActualDropsWhatDoesNotFit(t *testing.T) {
	fits := &evaluated{Candidate: Candidate{Fits: true, Simulated: true, PerGPU: 1}}
	gone := &evaluated{Candidate: Candidate{Fits: false, Simulated: true, PerGPU: 9}, pd: &pdEval{}}
	got := rankActual([]*evaluated{gone, fits})
	if len(got) != 1 || got[0] != fits {
		t.Errorf("ranked %d candidates, want only the one that fits", len(got))
	}
}
